/* The keys common to the screens: one table, acted on here for the screen shown where its
 * struct screen's common takes them (ui_key looks them up before the screen's own). */
#include "common_keys.h"

#include <stdio.h>

#include "help.h"
#include "panes.h"
#include "prompt.h"

#define CTRL(c) ((c)&0x1f)

const char common_title[] =
	"The tables (processes, cgroups); ^L also in details, graphs, post-mortem";

const struct binding common_bindings[] = {
	{CK_PAUSE, {'Z', 0}, "Z", "pause or resume refreshing"},
	{CK_DELAY, {'d', 0}, "d", "change the refresh interval"},
	{CK_HELP, {'h', '?', KEY_F(1), 0}, "h ? F1", "this help"},
	{CK_OOM_ACK, {'y', 0}, "y", "acknowledge the OOM alert"},
	{CK_OOM_PANE, {'o', 0}, "o", "OOM kill history"},
	{CK_REDRAW, {CTRL('l'), 0}, "^L", "redraw the screen"},
	{CK_THEME, {'V', 0}, "V", "next theme"},
	{0, {0}, NULL, NULL},
};

int common_key(const struct ui *u, int key)
{
	int a = binding_act(common_bindings, key);

	return a && (u->screens[u->screen].common & CK_BIT(a)) ? a : 0;
}

struct reaction common_act(struct ui *u, int a)
{
	char cur[32];

	if (u->screens[u->screen].common == CK_ALL) /* a table's keys clear its message */
		u->message[0] = '\0';
	switch ((enum common_act)a) {
	case CK_PAUSE:
		u->paused = !u->paused;
		return reacts(REACT_PAUSE);
	case CK_DELAY:
		snprintf(cur, sizeof(cur), "%g", u->prefs->delay);
		prompt_open(&u->prompt, PROMPT_DELAY, cur);
		break;
	case CK_HELP:
		help_open(u);
		break;
	case CK_OOM_ACK:
		u->oom_acked = u->m->oom_live;
		break;
	case CK_OOM_PANE:
		u->oom_acked = u->m->oom_live;
		panes_open(u, SCREEN_OOM);
		break;
	case CK_REDRAW:
		return reacts(REACT_REDRAW);
	case CK_THEME:
		return reacts(REACT_THEME);
	}
	return reacts(REACT_NONE);
}
