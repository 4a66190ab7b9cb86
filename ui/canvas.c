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

int text_cols(const char *s, bool utf8)
{
	int n = 0;

	for (; *s; s++)
		n += !utf8 || (*s & 0xc0) != 0x80;
	return n;
}

/* Whether a clause ends at s[i] (a cut before it) */
static bool clause_end(const char *s, size_t i)
{
	return (s[i] == ' ' &&
		(s[i + 1] == '(' || s[i + 1] == ' ' || (s[i + 1] == '-' && s[i + 2] == ' '))) ||
	       ((s[i] == ',' || s[i] == ';' || s[i] == ':') && s[i + 1] == ' ');
}

size_t words_fit(const char *s, int w, bool utf8)
{
	size_t clause = 0, outside = 0, any = 0;
	int cols = 0, depth = 0;

	if (text_cols(s, utf8) <= w)
		return strlen(s);
	for (size_t i = 0; s[i]; i++) {
		if (i && cols > w)
			break;
		/* s[0..i) takes cols columns */
		if (i && depth == 0 && clause_end(s, i))
			clause = i;
		if (i && s[i] == ' ') {
			any = i;
			if (depth == 0)
				outside = i;
		}
		depth += s[i] == '(' || s[i] == '[';
		depth -= depth > 0 && (s[i] == ')' || s[i] == ']');
		cols += !utf8 || (s[i] & 0xc0) != 0x80;
	}
	/* a clause where it keeps two thirds of what the words would */
	size_t n = clause && clause * 3 >= outside * 2 ? clause : outside ? outside : any;
	while (n && (s[n - 1] == ' ' || s[n - 1] == ',' || s[n - 1] == ';' || s[n - 1] == ':'))
		n--;
	return n;
}

int put_words(const struct canvas *cv, int y, int x, int w, enum role r, const char *s, bool pad)
{
	char buf[1024];
	size_t n = words_fit(s, w, cv->utf8);

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	put_text(cv, y, x, w, r, buf, pad);
	return text_cols(buf, cv->utf8);
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

void pane_wrap(struct pane *p, enum role r, int cols, int indent, const char *head,
	       const char *text)
{
	int room = cols - indent > 20 ? cols - indent : 20;
	bool first = true;

	while (*text) {
		size_t n = strlen(text);
		if (text_cols(text, true) > room) { /* up to the last space that fits */
			size_t cut = 0;
			for (size_t i = 0, c = 0; text[i] && c <= (size_t)room; i++) {
				if (text[i] == ' ')
					cut = i;
				c += (text[i] & 0xc0) != 0x80;
			}
			n = cut ? cut : n; /* one word longer than the line: whole */
		}
		if (indent)
			pane_add(p, r, "%-*s %.*s", indent - 1, first ? head : "", (int)n, text);
		else
			pane_add(p, r, "%.*s", (int)n, text);
		for (text += n; *text == ' '; text++)
			;
		first = false;
	}
	if (first)
		pane_add(p, r, "%s", head);
}

void pane_show(const struct canvas *cv, const char *title, const struct pane *p, int *top,
	       const char *keys)
{
	put_words(cv, 0, 0, cv->cols, ROLE_HELP_TITLE, title, false);
	int room = cv->rows - 2;
	if (*top > p->n - room)
		*top = p->n - room > 0 ? p->n - room : 0;
	for (int i = 0; i < room && *top + i < p->n; i++)
		put_text(cv, 1 + i, 0, cv->cols, p->role[*top + i], p->text[*top + i], true);
	put_words(cv, cv->rows - 1, 0, cv->cols, ROLE_STATUS, keys, true);
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
