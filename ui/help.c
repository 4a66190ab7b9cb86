/* The help: the common keys, then every screen's keys, from their binding tables, then the
 * columns; scrolled like the panes where the screen is short */
#include "help.h"

#include <stdio.h>
#include <string.h>

struct help_state {
	int top;	     /* the first line shown */
	enum screen_id back; /* where it returns */
	bool placed;	     /* top set to the section of back's keys (at the first draw) */
};

struct help_state help_state;
static struct help_state *const st = &help_state;

void help_open(struct ui *u)
{
	st->back = u->screen;
	st->top = 0;
	st->placed = false;
	u->screen = SCREEN_HELP;
}

enum screen_id help_back(const struct ui *u)
{
	(void)u;
	return st->back;
}

bool screen_wanted(const struct ui *u, enum screen_id id)
{
	return u->screen == id || (u->screen == SCREEN_HELP && help_back(u) == id);
}

/* A screen's keys under its title, each key's line wrapped between words */
static void keys(struct pane *p, int cols, const char *title, const struct binding *b)
{
	pane_add(p, ROLE_ROW, " ");
	pane_wrap(p, ROLE_HELP_TITLE, cols, 0, "", title);
	for (; b->act; b++)
		pane_wrap(p, ROLE_ROW, cols, 12, b->names, b->help);
}

void help_draw(struct ui *u)
{
	static struct pane p;
	int cols = u->cv.cols;
	p.n = 0;
	if (u->rv.on) /* first: what a replay adds */
		keys(&p, cols, "Replay (the header says which sample of how many, and its day)",
		     replay_bindings);
	keys(&p, cols, common_title, common_bindings);
	int at = 0; /* where the keys of the screen it was opened on begin */
	for (int s = 0; s < NSCREENS; s++)
		if (u->screens[s].title && u->screens[s].keys) {
			if (s == (int)st->back && s != SCREEN_MAIN)
				at = p.n;
			keys(&p, cols, u->screens[s].title, u->screens[s].keys);
		}
	if (!st->placed) { /* opened at the section of the screen h was pressed on */
		st->top = at;
		st->placed = true;
	}
	if (!u->rv.on)
		keys(&p, cols, "Replay (memtop --replay FILE)", replay_bindings);
	keys(&p, cols, "Prompts (search, filter, user, interval, signal)", u->prompt_keys);
	pane_add(&p, ROLE_ROW, " ");
	pane_add(&p, ROLE_HELP_TITLE, "Columns");
	for (int c = 0; c < COL_COUNT; c++)
		pane_wrap(&p, ROLE_ROW, cols, 9, columns[c].title, columns[c].desc);
	pane_show(&u->cv, "memtop " MEMTOP_VERSION " - keys", &p, &st->top,
		  p.n > u->cv.rows - 2 ? "Up/Down/PgUp/PgDn scroll, any other key returns"
				       : "Press any key to return");
}

/* Any key but the scrolling ones returns to the screen it was opened from */
struct reaction help_other(struct ui *u, int key)
{
	if (!pane_scroll(&u->cv, &st->top, key))
		u->screen = st->back;
	return reacts(REACT_NONE);
}
