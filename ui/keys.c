#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "settings.h"
#include "tui_int.h"

#define CTRL(c) ((c)&0x1f)

/* The one key-binding table: dispatch and the help screen both read it. */
const struct binding bindings[] = {
	{ACT_UP, {KEY_UP, 0}, "Up", "select the process above"},
	{ACT_DOWN, {KEY_DOWN, 0}, "Down", "select the process below"},
	{ACT_PGUP, {KEY_PPAGE, 0}, "PgUp", "one page up"},
	{ACT_PGDN, {KEY_NPAGE, 0}, "PgDn", "one page down"},
	{ACT_HOME, {KEY_HOME, 0}, "Home", "first process"},
	{ACT_END, {KEY_END, 0}, "End", "last process"},
	{ACT_SORT_PREV, {'<', ',', 0}, "<", "sort by the column to the left"},
	{ACT_SORT_NEXT, {'>', '.', 0}, ">", "sort by the column to the right"},
	{ACT_SORT_MENU, {KEY_F(6), 0}, "F6", "choose the sort column"},
	{ACT_SORT_RSS, {'M', 0}, "M", "sort by RSS"},
	{ACT_COLUMNS, {'f', KEY_F(2), 0}, "f F2", "choose the columns (PSS, USS, NAME...)"},
	{ACT_INVERT, {'I', 0}, "I", "invert the sort order"},
	{ACT_TREE, {'t', KEY_F(5), 0}, "t F5", "tree view: processes under their parents"},
	{ACT_KTHREADS, {'K', 0}, "K", "hide or show kernel threads"},
	{ACT_SAVE, {'W', 0}, "W", "save columns, sort, tree, K and delay for next time"},
	{ACT_SEARCH, {'/', KEY_F(3), 0}, "/ F3", "search name or command (F3 again: next)"},
	{ACT_FILTER, {'\\', KEY_F(4), 0}, "\\ F4", "filter by name or command substring"},
	{ACT_USER, {'u', 0}, "u", "show one user's processes (empty: all)"},
	{ACT_KILL, {'k', KEY_F(9), 0}, "k F9", "send a signal to the selected process"},
	{ACT_PAUSE, {'Z', ' ', 0}, "Z Space", "pause or resume refreshing"},
	{ACT_DELAY, {'d', 's', 0}, "d s", "change the refresh interval"},
	{ACT_HELP, {'h', '?', KEY_F(1), 0}, "h ? F1", "this help"},
	{ACT_OOM_ACK, {'a', 0}, "a", "acknowledge the OOM-kill alert"},
	{ACT_OOM_PANE, {'o', 0}, "o", "OOM kill history"},
	{ACT_RECLAIM_PANE, {'r', 0}, "r", "reclaim latency histograms"},
	{ACT_REDRAW, {CTRL('l'), 0}, "^L", "redraw the screen"},
	{ACT_DETAIL, {'\n', '\r', KEY_ENTER, 0}, "Enter", "details of the selected process"},
	{ACT_QUIT, {'q', KEY_F(10), 0}, "q F10", "quit"},
	{ACT_NONE, {0}, NULL, NULL},
};

enum action action_for_key(int key)
{
	for (const struct binding *b = bindings; b->names; b++)
		for (int i = 0; i < 4 && b->keys[i]; i++)
			if (b->keys[i] == key)
				return b->act;
	return ACT_NONE;
}

static void move_sel(struct tui *t, long delta)
{
	size_t n = t->m->nrows;
	if (!n)
		return;
	long s = (long)t->sel + delta;
	if (s < 0)
		s = 0;
	if (s >= (long)n)
		s = (long)n - 1;
	t->sel = (size_t)s;
	t->sel_pid = t->m->rows[t->sel].p->pid;
	tui_select_pid(t);
}

static void sort_step(struct tui *t, int dir)
{
	int i = 0;
	while (i < t->nshown && t->shown[i] != t->m->sort)
		i++;
	i = i == t->nshown ? 0 : (i + dir + t->nshown) % t->nshown;
	t->m->sort = t->shown[i];
	tui_reorder(t);
}

static void start_kill(struct tui *t)
{
	if (!t->m->nrows) {
		snprintf(t->message, sizeof(t->message), "no process selected");
		return;
	}
	t->kill_pid = t->m->rows[t->sel].p->pid;
	prompt_open(t, PROMPT_SIGNAL, "15");
}

void handle_key(struct tui *t, int key)
{
	int page = table_rows(t);
	t->message[0] = '\0';
	switch (action_for_key(key)) {
	case ACT_UP:
		move_sel(t, -1);
		break;
	case ACT_DOWN:
		move_sel(t, 1);
		break;
	case ACT_PGUP:
		move_sel(t, -page);
		break;
	case ACT_PGDN:
		move_sel(t, page);
		break;
	case ACT_HOME:
		move_sel(t, -(long)t->m->nrows);
		break;
	case ACT_END:
		move_sel(t, (long)t->m->nrows);
		break;
	case ACT_SORT_PREV:
		sort_step(t, -1);
		break;
	case ACT_SORT_NEXT:
		sort_step(t, 1);
		break;
	case ACT_SORT_MENU:
		t->screen = SCREEN_SORT;
		t->sort_menu_sel = 0;
		for (int i = 0; i < t->nshown; i++)
			if (t->shown[i] == t->m->sort)
				t->sort_menu_sel = i;
		break;
	case ACT_COLUMNS:
		t->screen = SCREEN_COLUMNS;
		break;
	case ACT_SORT_RSS:
		t->m->sort = COL_RSS;
		tui_reorder(t);
		break;
	case ACT_INVERT:
		t->m->invert = !t->m->invert;
		tui_reorder(t);
		break;
	case ACT_TREE:
		t->m->tree = !t->m->tree;
		tui_reorder(t);
		break;
	case ACT_SAVE: {
		struct settings s = {t->m->cols,
				     t->m->sort,
				     t->m->invert,
				     t->m->tree,
				     t->m->filter.hide_kthreads,
				     t->delay};
		settings_save(&s, t->message, sizeof(t->message));
		break;
	}
	case ACT_KTHREADS:
		t->m->filter.hide_kthreads = !t->m->filter.hide_kthreads;
		tui_reorder(t);
		break;
	case ACT_SEARCH:
		prompt_open(t, PROMPT_SEARCH, "");
		break;
	case ACT_FILTER:
		prompt_open(t, PROMPT_FILTER, t->m->filter.text);
		break;
	case ACT_USER:
		prompt_open(t, PROMPT_USER, "");
		break;
	case ACT_KILL:
		start_kill(t);
		break;
	case ACT_PAUSE:
		t->paused = !t->paused;
		if (!t->paused)
			tui_collect(t);
		break;
	case ACT_DELAY: {
		char cur[32];
		snprintf(cur, sizeof(cur), "%g", t->delay);
		prompt_open(t, PROMPT_DELAY, cur);
		break;
	}
	case ACT_HELP:
		t->screen = SCREEN_HELP;
		t->pane_top = 0;
		break;
	case ACT_OOM_ACK:
		t->oom_acked = t->m->oom_live;
		break;
	case ACT_OOM_PANE:
		t->oom_acked = t->m->oom_live;
		t->screen = SCREEN_OOM;
		t->pane_top = 0;
		break;
	case ACT_RECLAIM_PANE:
		t->screen = SCREEN_RECLAIM;
		t->pane_top = 0;
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_DETAIL:
		detail_open(t);
		break;
	case ACT_QUIT:
		t->quit = true;
		break;
	case ACT_NONE:
		break;
	}
}
