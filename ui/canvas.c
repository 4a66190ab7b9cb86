#include "canvas.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

void put_text(const struct canvas *cv, int y, int x, int w, enum role r, const char *s, bool pad)
{
	if (w <= 0 || y < 0 || y >= cv->rows)
		return;
	attrset(theme_attr(cv->theme, r));
	move(y, x);
	int used = 0;
	if (cv->utf8) {
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		const char *p = s;
		while (*p && used < w) {
			wchar_t wc;
			size_t n = mbrtowc(&wc, p, strlen(p), &st);
			if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
				break; /* callers pass escaped text; stop rather than print junk */
			int cw = wcwidth(wc);
			if (cw < 0 || used + cw > w)
				break;
			addnwstr(&wc, 1);
			used += cw;
			p += n;
		}
	} else {
		for (const char *p = s; *p && used < w; p++, used++)
			addch((unsigned char)*p < 0x80 ? (chtype)(unsigned char)*p : '?');
	}
	if (pad)
		for (; used < w; used++)
			addch(' ');
	attrset(A_NORMAL);
}

int put_pair(const struct canvas *cv, int y, int x, const char *label, const char *value)
{
	if (x >= cv->cols)
		return x;
	put_text(cv, y, x, cv->cols - x, ROLE_LABEL, label, false);
	x += (int)strlen(label) + 1;
	if (x < cv->cols)
		put_text(cv, y, x, cv->cols - x, ROLE_VALUE, value, false);
	return x + (int)strlen(value) + 2;
}

void pane_add(struct pane *p, enum role r, const char *fmt, ...)
{
	if (p->n == PANE_LINES)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->text[p->n], sizeof(p->text[0]), fmt, ap);
	va_end(ap);
	p->role[p->n++] = r;
}

void pane_show(const struct canvas *cv, const char *title, const struct pane *p, int *top,
	       const char *keys)
{
	put_text(cv, 0, 0, cv->cols, ROLE_HELP_TITLE, title, false);
	int room = cv->rows - 2;
	if (*top > p->n - room)
		*top = p->n - room > 0 ? p->n - room : 0;
	for (int i = 0; i < room && *top + i < p->n; i++)
		put_text(cv, 1 + i, 0, cv->cols, p->role[*top + i], p->text[*top + i], true);
	put_text(cv, cv->rows - 1, 0, cv->cols, ROLE_STATUS, keys, true);
}

bool pane_scroll(const struct canvas *cv, int *top, int key)
{
	int page = cv->rows - 2;
	switch (key) {
	case KEY_UP:
		(*top)--;
		break;
	case KEY_DOWN:
		(*top)++;
		break;
	case KEY_PPAGE:
		*top -= page;
		break;
	case KEY_NPAGE:
		*top += page;
		break;
	case KEY_HOME:
		*top = 0;
		break;
	default:
		return false;
	}
	if (*top < 0)
		*top = 0;
	return true;
}

int list_step(int sel, int delta, int n)
{
	sel += delta;
	if (sel >= n)
		sel = n - 1;
	return sel < 0 ? 0 : sel;
}
