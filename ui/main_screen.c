/* The main screen: header, process table and the bottom line with its prompts. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "draw_header.h"
#include "draw_table.h"
#include "graphs.h"
#include "main_mouse.h"
#include "main_view.h"
#include "mouse.h"
#include "parse.h"
#include "prompt.h"
#include "replay.h"
#include "text.h"
#include "util.h"

#define CTRL(c) ((c)&0x1f)

enum action {
	ACT_UP = 1,
	ACT_DOWN,
	ACT_PGUP,
	ACT_PGDN,
	ACT_HOME,
	ACT_END,
	ACT_SORT_PREV,
	ACT_SORT_NEXT,
	ACT_SORT_MENU,
	ACT_COLUMNS,
	ACT_SORT_RSS,
	ACT_INVERT,
	ACT_TREE,
	ACT_KTHREADS,
	ACT_SAVE,
	ACT_SEARCH,
	ACT_FILTER,
	ACT_USER,
	ACT_KILL,
	ACT_PAUSE,
	ACT_DELAY,
	ACT_HELP,
	ACT_OOM_ACK,
	ACT_OOM_PANE,
	ACT_RECLAIM_PANE,
	ACT_REDRAW,
	ACT_THEME,
	ACT_DETAIL,
	ACT_CGROUPS,
	ACT_CGROUP_CLEAR,
	ACT_GRAPHS,
	ACT_SHORTER,
	ACT_LONGER,
	ACT_QUIT,
};

static const struct binding bindings[] = {
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
	{ACT_SAVE, {'W', 0}, "W", "save columns, sort, tree, K, delay and graphs for next time"},
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
	{ACT_GRAPHS,
	 {'g', 0},
	 "g",
	 "memory and activity graphs: above the table (from 100x36), else a screen of their own"},
	{ACT_SHORTER, {'[', 0}, "[", "shorter graph window (1 h, 10 min, 1 min, the width's)"},
	{ACT_LONGER, {']', 0}, "]", "longer graph window"},
	{ACT_REDRAW, {CTRL('l'), 0}, "^L", "redraw the screen"},
	{ACT_THEME, {'T', 0}, "T", "next theme: default, 256, light, mono"},
	{ACT_DETAIL, {'\n', '\r', KEY_ENTER, 0}, "Enter", "details of the selected process"},
	{ACT_CGROUPS, {'C', 0}, "C", "memory cgroups: usage against limits, OOM kills, stalls"},
	{ACT_CGROUP_CLEAR, {27, 0}, "Esc", "clear the cgroup filter (back to the cgroup view)"},
	{ACT_QUIT, {'q', KEY_F(10), 0}, "q F10", "quit"},
	{0, {0}, NULL, NULL},
};

static void move_sel(struct ui *u, long delta)
{
	size_t n = u->m->nrows;
	if (!n)
		return;
	long s = (long)u->tab.sel + delta;
	if (s < 0)
		s = 0;
	if (s >= (long)n)
		s = (long)n - 1;
	main_select(u, (size_t)s);
}

static void sort_step(struct ui *u, int dir)
{
	enum col_id shown[COL_COUNT];
	int n = table_layout(u, shown), i = 0;
	while (i < n && shown[i] != u->prefs->sort)
		i++;
	i = i == n ? 0 : (i + dir + n) % n;
	u->prefs->sort = shown[i];
}

/* Moves the selection to the next row, from `from`, whose name or command holds the
 * search text */
static void search_from(struct ui *u, size_t from)
{
	const struct model *m = u->m;
	if (!u->search[0] || !m->nrows)
		return;
	for (size_t k = 0; k < m->nrows; k++) {
		size_t i = (from + k) % m->nrows;
		const struct proc_sample *p = m->rows[i]->p;
		if (strcasestr(p->comm, u->search) || strcasestr(p->cmd, u->search)) {
			main_select(u, i);
			return;
		}
	}
	char q[PARSE_QUOTE_SIZE];
	snprintf(u->message, sizeof(u->message), "no match for '%s'",
		 parse_quote(u->search, q, sizeof(q)));
}

static unsigned act(struct ui *u, int a)
{
	long page = main_table_rows(u);
	u->message[0] = '\0';
	switch ((enum action)a) {
	case ACT_UP:
		move_sel(u, -1);
		break;
	case ACT_DOWN:
		move_sel(u, 1);
		break;
	case ACT_PGUP:
		move_sel(u, -page);
		break;
	case ACT_PGDN:
		move_sel(u, page);
		break;
	case ACT_HOME: /* back to the top of the list, which the view keeps from now on */
		move_sel(u, -(long)u->m->nrows);
		u->tab.follow = false;
		break;
	case ACT_END:
		move_sel(u, (long)u->m->nrows);
		break;
	case ACT_SORT_PREV:
		sort_step(u, -1);
		return REACT_RESORT;
	case ACT_SORT_NEXT:
		sort_step(u, 1);
		return REACT_RESORT;
	case ACT_SORT_MENU: {
		enum col_id shown[COL_COUNT];
		int n = table_layout(u, shown);
		u->screen = SCREEN_SORT;
		u->sort_menu_sel = 0;
		for (int i = 0; i < n; i++)
			if (shown[i] == u->prefs->sort)
				u->sort_menu_sel = i;
		break;
	}
	case ACT_COLUMNS:
		u->screen = SCREEN_COLUMNS;
		break;
	case ACT_SORT_RSS:
		u->prefs->sort = COL_RSS;
		return REACT_RESORT;
	case ACT_INVERT:
		u->prefs->invert = !u->prefs->invert;
		return REACT_RESORT;
	case ACT_TREE:
		u->prefs->tree = !u->prefs->tree;
		return REACT_RESORT;
	case ACT_KTHREADS:
		u->prefs->filter.hide_kthreads = !u->prefs->filter.hide_kthreads;
		return REACT_RESORT;
	case ACT_SAVE:
		return REACT_SAVE;
	case ACT_SEARCH:
		prompt_open(&u->prompt, PROMPT_SEARCH, "");
		break;
	case ACT_FILTER:
		prompt_open(&u->prompt, PROMPT_FILTER, u->prefs->filter.text);
		break;
	case ACT_USER:
		prompt_open(&u->prompt, PROMPT_USER, "");
		break;
	case ACT_KILL:
		if (u->rv.on) {
			snprintf(u->message, sizeof(u->message), "a replay sends no signals");
			break;
		}
		if (!u->m->nrows) {
			snprintf(u->message, sizeof(u->message), "no process selected");
			break;
		}
		u->kill_pid = main_selected_pid(u);
		prompt_open(&u->prompt, PROMPT_SIGNAL, "15");
		break;
	case ACT_PAUSE:
		u->paused = !u->paused;
		return REACT_PAUSE;
	case ACT_DELAY: {
		char cur[32];
		snprintf(cur, sizeof(cur), "%g", u->prefs->delay);
		prompt_open(&u->prompt, PROMPT_DELAY, cur);
		break;
	}
	case ACT_HELP:
		u->help_back = SCREEN_MAIN;
		u->screen = SCREEN_HELP;
		u->pane_top = 0;
		break;
	case ACT_OOM_ACK:
		u->oom_acked = u->m->oom_live;
		break;
	case ACT_OOM_PANE:
		u->oom_acked = u->m->oom_live;
		u->screen = SCREEN_OOM;
		u->pane_top = 0;
		u->oom_sel = 0;
		break;
	case ACT_RECLAIM_PANE:
		u->screen = SCREEN_RECLAIM;
		u->pane_top = 0;
		break;
	case ACT_REDRAW:
		return REACT_REDRAW;
	case ACT_THEME:
		return REACT_THEME;
	case ACT_DETAIL:
		if (!u->m->nrows) {
			snprintf(u->message, sizeof(u->message), "no process selected");
			break;
		}
		return REACT_DETAIL_OPEN;
	case ACT_CGROUPS: /* its tree is read from now on, the first time at once */
		u->cg.procs = false;
		u->screen = SCREEN_CGROUPS;
		return REACT_COLLECT;
	case ACT_CGROUP_CLEAR: {
		unsigned r = u->prefs->filter.cgroup[0] ? REACT_RESORT : REACT_NONE;
		u->prefs->filter.cgroup[0] = '\0';
		if (!u->cg.procs)
			return r;
		u->cg.procs = false;
		u->screen = SCREEN_CGROUPS;
		return r | REACT_COLLECT;
	}
	case ACT_GRAPHS:
		if (!graph_pane_fits(u)) {
			u->screen = SCREEN_GRAPHS;
			break;
		}
		u->prefs->graphs = !u->prefs->graphs;
		main_reselect(u); /* the table's rows changed */
		break;
	case ACT_SHORTER:
		return graph_zoom(u, -1);
	case ACT_LONGER:
		return graph_zoom(u, 1);
	case ACT_QUIT:
		return REACT_QUIT;
	}
	return REACT_NONE;
}

/* ---- prompts ---- */

static int parse_signal(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s && !*end)
		return v > 0 && v < NSIG ? (int)v : -1;
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (int i = 1; i < NSIG; i++) {
		const char *name = sigabbrev_np(i);
		if (name && !strcasecmp(name, s))
			return i;
	}
	return -1;
}

static const char *comm_of(const struct ui *u, int32_t pid)
{
	for (size_t i = 0; i < u->m->nrows; i++)
		if (u->m->rows[i]->p->pid == pid)
			return u->m->rows[i]->p->comm;
	return "?";
}

static unsigned commit(struct ui *u, enum prompt_kind kind, const char *text)
{
	switch (kind) {
	case PROMPT_USER: {
		uint32_t uid;
		if (!text[0]) {
			u->prefs->filter.by_user = false;
			return REACT_RESORT;
		}
		if (parse_user(text, &uid, u->message, sizeof(u->message)))
			return REACT_NONE;
		u->prefs->filter.by_user = true;
		u->prefs->filter.uid = uid;
		return REACT_RESORT;
	}
	case PROMPT_DELAY: {
		char why[160];
		double d;
		if (parse_delay(text, &d, why, sizeof(why))) {
			snprintf(u->message, sizeof(u->message), "refresh interval: %s", why);
			return REACT_NONE;
		}
		u->prefs->delay = d;
		return REACT_DELAY;
	}
	case PROMPT_SIGNAL: {
		int sig = parse_signal(text);
		if (sig < 0) {
			char q[PARSE_QUOTE_SIZE];
			snprintf(u->message, sizeof(u->message), "no signal '%s'",
				 parse_quote(text, q, sizeof(q)));
			return REACT_NONE;
		}
		u->kill_sig = sig;
		prompt_open(&u->prompt, PROMPT_CONFIRM, "");
		return REACT_NONE;
	}
	case PROMPT_JUMP: {
		char why[160];
		const struct snapshot *s = model_current(u->m);
		if (replay_parse_time(text, s ? s->wall : 0, &u->rv.jump, why, sizeof(why))) {
			snprintf(u->message, sizeof(u->message), "jump: %s", why);
			return REACT_NONE;
		}
		u->rv.req = RR_JUMP;
		return REACT_REPLAY;
	}
	default:
		return REACT_NONE;
	}
}

static void confirm_key(struct ui *u, wint_t ch)
{
	u->prompt.kind = PROMPT_NONE;
	if (ch != 'y' && ch != 'Y') {
		snprintf(u->message, sizeof(u->message), "not sent");
		return;
	}
	if (kill(u->kill_pid, u->kill_sig) == 0)
		snprintf(u->message, sizeof(u->message), "sent SIG%s to %d",
			 sigabbrev_np(u->kill_sig), u->kill_pid);
	else
		snprintf(u->message, sizeof(u->message), "kill %d: %s", u->kill_pid,
			 strerror(errno));
}

/* A key while a prompt is open (u->prompt.kind != PROMPT_NONE): the main screen's prompts,
 * and those the other screens leave to it (struct screen's prompt) */
static unsigned prompt_key(struct ui *u, wint_t ch, bool is_key)
{
	enum prompt_kind kind = u->prompt.kind;
	char text[128];

	if (kind == PROMPT_CONFIRM) {
		confirm_key(u, is_key ? 0 : ch);
		return REACT_NONE;
	}
	enum prompt_result r = prompt_edit(&u->prompt, ch, is_key);
	prompt_text(&u->prompt, text, sizeof(text));
	switch (r) {
	case PROMPT_IGNORED:
		return REACT_NONE;
	case PROMPT_CANCEL:
		if (kind != PROMPT_FILTER)
			return REACT_NONE;
		u->prefs->filter.text[0] = '\0';
		return REACT_RESORT;
	case PROMPT_COMMIT:
		return commit(u, kind, text);
	case PROMPT_NEXT:
		if (kind == PROMPT_SEARCH)
			search_from(u, u->tab.sel + 1);
		return REACT_NONE;
	case PROMPT_EDITED:
		break;
	}
	/* as the text is typed: search moves the selection, the filter narrows the rows */
	u->message[0] = '\0';
	if (kind == PROMPT_SEARCH) {
		snprintf(u->search, sizeof(u->search), "%s", text);
		search_from(u, u->tab.sel);
	} else if (kind == PROMPT_FILTER) {
		snprintf(u->prefs->filter.text, sizeof(u->prefs->filter.text), "%s", text);
		return REACT_RESORT;
	}
	return REACT_NONE;
}

/* ---- drawing ---- */

static void draw_fkeys(struct ui *u, int y)
{
	static const struct keybar_item keys[] = {
		{"F1", "Help", KEY_F(1)},   {"F2", "Columns", KEY_F(2)}, {"F3", "Search", KEY_F(3)},
		{"F4", "Filter", KEY_F(4)}, {"F5", "Tree", KEY_F(5)},	 {"F6", "SortBy", KEY_F(6)},
		{"F9", "Kill", KEY_F(9)},   {"F10", "Quit", KEY_F(10)},
	};
	const struct canvas *cv = &u->cv;
	int x = draw_keybar(u, y, keys, (int)ARRAY_SIZE(keys));
	if (u->prefs->filter.text[0] && x < cv->cols) {
		char f[160], esc[140];
		escape_display(u->prefs->filter.text, esc, sizeof(esc), cv->utf8);
		snprintf(f, sizeof(f), " filter: %s", esc);
		put_text(cv, y, x, cv->cols - x, ROLE_WARNING, f, false);
	}
}

static void draw_bottom(struct ui *u)
{
	const struct canvas *cv = &u->cv;
	int y = cv->rows - 1;
	if (u->prompt.kind == PROMPT_CONFIRM) {
		char line[300], comm[80];
		escape_display(comm_of(u, u->kill_pid), comm, sizeof(comm), cv->utf8);
		snprintf(line, sizeof(line), "Send SIG%s (%d) to %d (%s)? [y/N] ",
			 sigabbrev_np(u->kill_sig), u->kill_sig, u->kill_pid, comm);
		put_text(cv, y, 0, cv->cols, ROLE_ALERT, line, true);
	} else if (u->prompt.kind != PROMPT_NONE) {
		prompt_draw(cv, &u->prompt, y);
		return;
	} else if (u->message[0]) {
		put_text(cv, y, 0, cv->cols, ROLE_WARNING, u->message, true);
	} else {
		draw_fkeys(u, y);
	}
	curs_set(0);
}

static void draw(struct ui *u)
{
	int y = header_rows(u), pane = graph_pane_rows(u);

	draw_header(u);
	if (pane)
		sys_graphs_draw(u, y, pane, true);
	draw_table(u, y + pane, main_table_rows(u));
	draw_bottom(u);
}

const struct screen screen_main = {
	.title = "Processes",
	.keys = bindings,
	.draw = draw,
	.act = act,
	.prompt = prompt_key,
	.mouse = main_mouse,
};
