/* The pane screens' keys and opening (pane_screen.h); each draws its own lines. */
#include "pane_screen.h"

struct pane_screen nodes_state, exited_state, account_state;

static struct pane_screen *shown(const struct ui *u)
{
	return u->screens[u->screen].state;
}

struct reaction pane_screen_act(struct ui *u, int a)
{
	if (a == PANE_SCREEN_BACK)
		u->screen = SCREEN_MAIN;
	return reacts(REACT_NONE);
}

struct reaction pane_screen_other(struct ui *u, int key)
{
	pane_scroll(&u->cv, &shown(u)->top, key);
	return reacts(REACT_NONE);
}

void pane_screen_open(struct ui *u, enum screen_id id)
{
	u->screen = id;
	shown(u)->top = 0;
}
