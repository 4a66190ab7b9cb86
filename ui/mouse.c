#include "mouse.h"

#include <string.h>

#define WHEEL_LINES 3

void mouse_start(bool on)
{
	/* the terminal reports presses and releases; curses makes clicks of them. Without
	 * the mouse the mask is empty (and mouse reports still parsed, so that stray ones are
	 * no keys) */
	mousemask(on ? BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED
		     : 0,
		  NULL);
}

void map_clear(struct mouse_map *m)
{
	memset(m, 0, sizeof(*m));
	m->title_y = m->keys_y = -1;
}

void map_title(struct ui *u, int y, int x, int w, int col)
{
	struct mouse_map *m = &u->map;

	if (m->ntitles == MAP_TITLES || w <= 0)
		return;
	m->title_y = y;
	m->titles[m->ntitles].x = x;
	m->titles[m->ntitles].w = w;
	m->titles[m->ntitles++].col = col;
}

void map_rows(struct ui *u, int y, int n, size_t top, size_t count)
{
	u->map.rows_y = y;
	u->map.nrows = n;
	u->map.top = top;
	u->map.count = count;
}

int draw_keybar(struct ui *u, int y, const struct keybar_item *items, int n)
{
	const struct canvas *cv = &u->cv;
	int x = 0, all = 0;

	for (int i = 0; i < n; i++)
		all += (int)strlen(items[i].key) + (int)strlen(items[i].label) + 1;
	for (int i = 0; i < n && x < cv->cols; i++) {
		int kw = (int)strlen(items[i].key), lw = (int)strlen(items[i].label);
		/* whole keys only, the last (Quit) kept: those before it go where it would not
		 * fit after them */
		int after = i + 1 < n ? (int)strlen(items[n - 1].key) +
						(int)strlen(items[n - 1].label) + 1
				      : 0;
		if (x + kw + lw > cv->cols ||
		    (all > cv->cols && x + kw + lw + 1 + after > cv->cols))
			continue;
		put_text(cv, y, x, cv->cols - x, ROLE_KEY, items[i].key, false);
		put_text(cv, y, x + kw, cv->cols - x - kw, ROLE_STATUS, items[i].label, false);
		if (u->map.nkeys < MAP_KEYS) {
			u->map.keys_y = y;
			u->map.keys[u->map.nkeys].x = x;
			u->map.keys[u->map.nkeys].w = kw + lw;
			u->map.keys[u->map.nkeys++].key = items[i].code;
		}
		x += kw + lw + 1;
	}
	return x;
}

/* A click at y, x: a title, a row or a key; dbl: a double click */
static void click(const struct mouse_map *m, int y, int x, bool dbl, struct mouse_hit *h)
{
	if (y == m->title_y)
		for (int i = 0; i < m->ntitles; i++)
			if (x >= m->titles[i].x && x < m->titles[i].x + m->titles[i].w) {
				h->kind = MOUSE_TITLE;
				h->col = m->titles[i].col;
				return;
			}
	if (y >= m->rows_y && y < m->rows_y + m->nrows) {
		size_t i = m->top + (size_t)(y - m->rows_y);
		if (i < m->count) {
			h->kind = MOUSE_ROW;
			h->row = i;
			h->dbl = dbl;
		}
		return;
	}
	if (y == m->keys_y)
		for (int i = 0; i < m->nkeys; i++)
			if (x >= m->keys[i].x && x < m->keys[i].x + m->keys[i].w) {
				h->kind = MOUSE_KEYBAR;
				h->key = m->keys[i].key;
				return;
			}
}

/* Without the mouse curses leaves a report the terminal sent anyway (SGR: ESC [ < b ; x ; y
 * M or m) after its ESC [ <: the rest of it is dropped, not taken for keys (its M would sort
 * by RSS) */
static void drop_report(void)
{
	int c;

	/* the rest of the report may come a moment after its start: waited for a little */
	timeout(100);
	while ((c = getch()) != ERR && c != 'M' && c != 'm')
		if ((c < '0' || c > '9') && c != ';') {
			ungetch(c);
			break;
		}
}

void mouse_read(bool on, const struct mouse_map *m, struct mouse_hit *h)
{
	MEVENT ev;

	memset(h, 0, sizeof(*h));
	h->kind = MOUSE_NONE;
	if (!on) {
		drop_report();
		return;
	}
	/* (too small a terminal draws no map: clicks hit nothing) */
	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		h->kind = MOUSE_WHEEL;
		h->lines = ev.bstate & BUTTON4_PRESSED ? -WHEEL_LINES : WHEEL_LINES;
	} else if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED)) {
		click(m, ev.y, ev.x, ev.bstate & BUTTON1_DOUBLE_CLICKED, h);
	}
}

/* top and bottom of a view of n rows, page lines of them, moved by lines; the selection
 * kept in it */
static void scroll_view(size_t *top, size_t *sel, size_t n, size_t page, int lines)
{
	long t = (long)*top + lines, max = n > page ? (long)(n - page) : 0;

	*top = (size_t)(t < 0 ? 0 : t > max ? max : t);
	if (*sel < *top)
		*sel = *top;
	else if (page && *sel >= *top + page)
		*sel = *top + page - 1;
}

bool mouse_row(const struct mouse_hit *h, const struct mouse_map *m, size_t *top, size_t *sel,
	       size_t n, size_t *row)
{
	if (h->kind == MOUSE_WHEEL && n)
		scroll_view(top, sel, n, (size_t)m->nrows, h->lines);
	else if (h->kind != MOUSE_ROW)
		return false;
	*row = h->kind == MOUSE_ROW ? h->row : *sel;
	return *row < n;
}
