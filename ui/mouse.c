#include "mouse.h"

#include <string.h>

#include "cgroups.h"
#include "main_screen.h"
#include "tui.h"

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
	int x = 0;

	for (int i = 0; i < n && x < cv->cols; i++) {
		int kw = (int)strlen(items[i].key), lw = (int)strlen(items[i].label);
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

/* A click at y, x: a title, a row or a key; double: a double click */
static unsigned click(struct ui *u, int y, int x, bool dbl)
{
	const struct screen *s = u->screens[u->screen];
	const struct mouse_map *m = &u->map;

	if (y == m->title_y && s->sort_by)
		for (int i = 0; i < m->ntitles; i++)
			if (x >= m->titles[i].x && x < m->titles[i].x + m->titles[i].w)
				return s->sort_by(u, m->titles[i].col);
	if (y >= m->rows_y && y < m->rows_y + m->nrows && s->pick) {
		size_t i = m->top + (size_t)(y - m->rows_y);
		if (i >= m->count)
			return REACT_NONE;
		unsigned r = s->pick(u, i);
		/* then what Enter does there (the detail of a process, the processes of a
		 * cgroup) */
		return dbl ? r | ui_key(u, '\n', false) : r;
	}
	if (y == m->keys_y)
		for (int i = 0; i < m->nkeys; i++)
			if (x >= m->keys[i].x && x < m->keys[i].x + m->keys[i].w) {
				int k = m->keys[i].key;
				return ui_key(u, (wint_t)k, k >= KEY_MIN);
			}
	return REACT_NONE;
}

/* The screen's own scrolling, else Up or Down as many times */
static unsigned on_wheel(struct ui *u, int lines)
{
	const struct screen *s = u->screens[u->screen];
	unsigned r = REACT_NONE;

	if (s->wheel && u->map.nrows > 0)
		return s->wheel(u, lines);
	for (int i = 0; i < (lines < 0 ? -lines : lines); i++)
		r |= ui_key(u, lines < 0 ? KEY_UP : KEY_DOWN, true);
	return r;
}

/* Without the mouse curses leaves a report the terminal sent anyway (SGR: ESC [ < b ; x ; y
 * M or m) after its ESC [ <: the rest of it is dropped, not taken for keys (its M would sort
 * by RSS) */
static void drop_report(void)
{
	int c;

	timeout(0);
	while ((c = getch()) != ERR && c != 'M' && c != 'm')
		if ((c < '0' || c > '9') && c != ';') {
			ungetch(c);
			break;
		}
}

unsigned mouse_event(struct ui *u)
{
	MEVENT ev;

	if (!u->prefs->mouse) {
		drop_report();
		return REACT_NONE;
	}
	/* (too small a terminal draws no map: clicks hit nothing) */
	if (getmouse(&ev) != OK || u->prompt.kind != PROMPT_NONE)
		return REACT_NONE;
	if (ev.bstate & BUTTON4_PRESSED)
		return on_wheel(u, -WHEEL_LINES);
	if (ev.bstate & BUTTON5_PRESSED)
		return on_wheel(u, WHEEL_LINES);
	if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED))
		return click(u, ev.y, ev.x, ev.bstate & BUTTON1_DOUBLE_CLICKED);
	return REACT_NONE;
}

/* ---- the process table ---- */

unsigned main_sort_by(struct ui *u, int col)
{
	if (u->prefs->sort == (enum col_id)col) {
		u->prefs->invert = !u->prefs->invert;
	} else {
		u->prefs->sort = (enum col_id)col;
		u->prefs->invert = false;
	}
	u->message[0] = '\0';
	return REACT_RESORT;
}

unsigned main_pick(struct ui *u, size_t i)
{
	if (i >= u->m->nrows)
		return REACT_NONE;
	u->message[0] = '\0';
	u->tab.follow = true;
	u->tab.sel = i;
	u->tab.sel_pid = u->m->rows[i]->p->pid;
	main_reselect(u);
	return REACT_NONE;
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

unsigned main_scroll(struct ui *u, int lines)
{
	if (!u->m->nrows)
		return REACT_NONE;
	scroll_view(&u->tab.top, &u->tab.sel, u->m->nrows, (size_t)u->map.nrows, lines);
	return main_pick(u, u->tab.sel);
}

/* ---- the cgroup table ---- */

unsigned cg_sort_by(struct ui *u, int col)
{
	struct cg_prefs *p = &u->prefs->cg;

	if (p->sort == (enum cgcol_id)col) {
		p->invert = !p->invert;
	} else {
		p->sort = (enum cgcol_id)col;
		p->invert = false;
	}
	u->message[0] = '\0';
	return REACT_RESORT;
}

unsigned cg_pick(struct ui *u, size_t i)
{
	struct cg_view *v = &u->cg;

	if (!u->cgm || i >= v->nvis || v->vis[i] >= u->cgm->nrows)
		return REACT_NONE;
	u->message[0] = '\0';
	v->follow = true;
	v->sel = i;
	v->sel_id = u->cgm->rows[v->vis[i]].c->id;
	cgroups_reselect(u);
	return REACT_NONE;
}

unsigned cg_scroll(struct ui *u, int lines)
{
	struct cg_view *v = &u->cg;

	if (!v->nvis)
		return REACT_NONE;
	scroll_view(&v->top, &v->sel, v->nvis, (size_t)u->map.nrows, lines);
	return cg_pick(u, v->sel);
}
