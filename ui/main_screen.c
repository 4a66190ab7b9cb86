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
#include "main_view.h"
#include "pane_screen.h"
#include "panes.h"
#include "parse.h"
#include "pref_req.h"
#include "prompt.h"
#include "replay.h"
#include "text.h"
#include "util.h"

enum action {
	ACT_COLUMNS = TA_COUNT,
	ACT_KTHREADS,
	ACT_SAVE,
	ACT_SEARCH,
	ACT_USER,
	ACT_KILL,
	ACT_OOM_PANE,
	ACT_RECLAIM_PANE,
	ACT_NODES,
	ACT_DETAIL,
	ACT_CGROUPS,
	ACT_CGROUP_CLEAR,
	ACT_SLAB,
	ACT_USERS,
	ACT_EXITED,
	ACT_ACCOUNT,
	ACT_GRAPHS,
	ACT_SHORTER,
	ACT_LONGER,
	ACT_QUIT,
	ACT_LEFT,
	ACT_RIGHT,
};

const struct binding main_keys[] = {
	TABLE_MOVE_KEYS("process"),
	{ACT_LEFT, {KEY_LEFT, 0}, "Left", "scroll the table left"},
	{ACT_RIGHT,
	 {KEY_RIGHT, 0},
	 "Right",
	 "scroll it right: hidden columns, the rest of COMMAND"},
	{TA_SORT_DEFAULT, {'M', 0}, "M", "sort by RSS"},
	{ACT_COLUMNS, {'f', KEY_F(2), 0}, "f F2", "choose the columns (PSS, USS, NAME...)"},
	{TA_INVERT, {'I', 0}, "I", "invert the sort order"},
	{TA_TREE, {'t', KEY_F(5), 0}, "t F5", "tree view: processes under their parents"},
	{ACT_KTHREADS, {'K', 0}, "K", "hide or show kernel threads"},
	{ACT_SAVE, {'W', 0}, "W", "save columns, sort, tree, K, delay and graphs for next time"},
	{ACT_SEARCH, {'/', KEY_F(3), 0}, "/ F3", "search name or command (F3 again: next)"},
	{TA_FILTER, {'\\', KEY_F(4), 0}, "\\ F4", "filter by name or command substring"},
	{ACT_USER, {'u', 0}, "u", "show one user's processes (empty: all)"},
	{ACT_KILL, {'k', KEY_F(9), 0}, "k F9", "send a signal to the selected process"},
	{ACT_OOM_PANE, {'o', 0}, "o", "OOM kill history"},
	{ACT_RECLAIM_PANE, {'r', 0}, "r", "reclaim latency histograms"},
	{ACT_NODES, {'n', 0}, "n", "NUMA nodes: each node's memory"},
	{ACT_GRAPHS,
	 {'g', 0},
	 "g",
	 "memory and activity graphs: above the table (from 100x36), else a screen of their own"},
	{ACT_SHORTER, {'[', 0}, "[", "shorter graph window (1 h, 10 min, 1 min, the width's)"},
	{ACT_LONGER, {']', 0}, "]", "longer graph window"},
	{ACT_DETAIL, {'\n', '\r', KEY_ENTER, 0}, "Enter", "details of the selected process"},
	{ACT_CGROUPS, {'C', 0}, "C", "memory cgroups: usage against limits, OOM kills, stalls"},
	{ACT_SLAB, {'B', 0}, "B", "kernel slab caches: size, growth per minute, reclaimable"},
	{ACT_USERS, {'U', 0}, "U", "totals per user: count, swap, USS, PSS, RSS (as smem -u)"},
	{ACT_EXITED, {'X', 0}, "X", "processes that exited in the last minute"},
	{ACT_ACCOUNT, {'A', 0}, "A", "memory account: MemTotal in parts that sum to it"},
	{ACT_CGROUP_CLEAR, {27, 0}, "Esc", "clear the cgroup filter (back to the cgroup view)"},
	{ACT_QUIT, {'q', KEY_F(10), 0}, "q F10", "quit"},
	{0, {0}, NULL, NULL},
};

static struct main_state *const st = &main_state;

/* Moves the selection to the next row, from `from`, whose name or command holds the
 * search text */
static void search_from(struct ui *u, size_t from)
{
	const struct model *m = u->m;
	if (!st->search[0] || !m->nrows)
		return;
	for (size_t k = 0; k < m->nrows; k++) {
		size_t i = (from + k) % m->nrows;
		const struct proc_sample *p = m->rows[i]->p;
		if (strcasestr(p->comm, st->search) || (p->cmd && strcasestr(p->cmd, st->search))) {
			table_select(&proc_table, u, i);
			return;
		}
	}
	char q[PARSE_QUOTE_SIZE];
	snprintf(u->message, sizeof(u->message), "no match for '%s'",
		 parse_quote(st->search, q, sizeof(q)));
}

/* Left and Right: the table scrolled by delta columns, no further than its longest line */
#define HSCROLL_STEP 8
static void hscroll(struct ui *u, int delta)
{
	int most = table_line_width(u) - u->cv.cols, h = st->hscroll + delta;

	if (h > most)
		h = most;
	st->hscroll = h < 0 ? 0 : h;
}

static struct reaction pref(unsigned react, struct pref_req r)
{
	return (struct reaction){react, r};
}

struct reaction main_act(struct ui *u, int a)
{
	u->message[0] = '\0';
	if (a < TA_COUNT)
		return table_act(&proc_table, u, a);
	switch ((enum action)a) {
	case ACT_COLUMNS:
		u->screen = SCREEN_COLUMNS;
		break;
	case ACT_KTHREADS:
		return pref(REACT_RESORT, pref_op(TAB_PROCS, PO_KTHREADS));
	case ACT_SAVE:
		return reacts(REACT_SAVE);
	case ACT_SEARCH:
		prompt_open(&u->prompt, PROMPT_SEARCH, "");
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
		st->kill_pid = main_selected_pid(u);
		prompt_open(&u->prompt, PROMPT_SIGNAL, "15");
		break;
	case ACT_OOM_PANE:
		u->oom_acked = u->m->oom_live;
		panes_open(u, SCREEN_OOM);
		break;
	case ACT_RECLAIM_PANE:
		panes_open(u, SCREEN_RECLAIM);
		break;
	case ACT_NODES:
		pane_screen_open(u, SCREEN_NODES);
		break;
	case ACT_DETAIL:
		if (!u->m->nrows) {
			snprintf(u->message, sizeof(u->message), "no process selected");
			break;
		}
		return reacts(REACT_DETAIL_OPEN);
	case ACT_CGROUPS: /* its tree is read from now on, the first time at once */
		st->from_cgroups = false;
		u->screen = SCREEN_CGROUPS;
		return reacts(REACT_COLLECT);
	case ACT_SLAB: /* slabinfo is read from now on, the first time at once */
		u->screen = SCREEN_SLAB;
		return reacts(REACT_COLLECT);
	case ACT_USERS: /* every process's smaps_rollup is read from now on, at once */
		u->screen = SCREEN_USERS;
		return reacts(REACT_COLLECT);
	case ACT_EXITED:
		pane_screen_open(u, SCREEN_EXITED);
		break;
	case ACT_ACCOUNT: /* its files are read from now on, the first time at once */
		pane_screen_open(u, SCREEN_ACCOUNT);
		return reacts(REACT_COLLECT);
	case ACT_CGROUP_CLEAR: {
		struct reaction r = pref(u->prefs->filter.cgroup[0] ? REACT_RESORT : REACT_NONE,
					 pref_op(TAB_PROCS, PO_CGROUP));
		if (!st->from_cgroups)
			return r;
		st->from_cgroups = false;
		u->screen = SCREEN_CGROUPS;
		r.react |= REACT_COLLECT;
		return r;
	}
	case ACT_GRAPHS:
		if (!graph_pane_fits(u)) {
			u->screen = SCREEN_GRAPHS;
			break;
		}
		return pref(REACT_NONE, pref_op(TAB_PROCS, PO_GRAPHS));
	case ACT_SHORTER:
	case ACT_LONGER:
		graph_zoom(u, a == ACT_SHORTER ? -1 : 1);
		break;
	case ACT_LEFT:
	case ACT_RIGHT:
		hscroll(u, a == ACT_LEFT ? -HSCROLL_STEP : HSCROLL_STEP);
		break;
	case ACT_QUIT:
		return reacts(REACT_QUIT);
	}
	return reacts(REACT_NONE);
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

static struct reaction commit(struct ui *u, enum prompt_kind kind, const char *text)
{
	struct pref_req r = {.op = PO_NONE};

	switch (kind) {
	case PROMPT_USER:
		r.op = PO_USER;
		if (text[0] && parse_user(text, &r.uid, u->message, sizeof(u->message)))
			return reacts(REACT_NONE);
		r.on = text[0] != '\0';
		return pref(REACT_RESORT, r);
	case PROMPT_DELAY: {
		char why[160];
		if (parse_delay(text, &r.delay, why, sizeof(why))) {
			snprintf(u->message, sizeof(u->message), "refresh interval: %s", why);
			return reacts(REACT_NONE);
		}
		r.op = PO_DELAY;
		return pref(REACT_DELAY, r);
	}
	case PROMPT_SIGNAL: {
		int sig = parse_signal(text);
		if (sig < 0) {
			char q[PARSE_QUOTE_SIZE];
			snprintf(u->message, sizeof(u->message), "no signal '%s'",
				 parse_quote(text, q, sizeof(q)));
			return reacts(REACT_NONE);
		}
		st->kill_sig = sig;
		prompt_open(&u->prompt, PROMPT_CONFIRM, "");
		return reacts(REACT_NONE);
	}
	case PROMPT_JUMP: {
		char why[160];
		const struct snapshot *s = model_current(u->m);
		if (replay_parse_time(text, s ? s->wall : 0, &u->rv.jump, why, sizeof(why))) {
			snprintf(u->message, sizeof(u->message), "jump: %s", why);
			return reacts(REACT_NONE);
		}
		u->rv.req = RR_JUMP;
		return reacts(REACT_REPLAY);
	}
	default:
		return reacts(REACT_NONE);
	}
}

static void confirm_key(struct ui *u, wint_t ch)
{
	u->prompt.kind = PROMPT_NONE;
	if (ch != 'y' && ch != 'Y') {
		snprintf(u->message, sizeof(u->message), "not sent");
		return;
	}
	if (kill(st->kill_pid, st->kill_sig) == 0)
		snprintf(u->message, sizeof(u->message), "sent SIG%s to %d",
			 sigabbrev_np(st->kill_sig), st->kill_pid);
	else
		snprintf(u->message, sizeof(u->message), "kill %d: %s", st->kill_pid,
			 strerror(errno));
}

/* A key while a prompt is open (u->prompt.kind != PROMPT_NONE), but the filter's (the table
 * screen's): the main screen's prompts, and the interval's and a replay's time on any */
struct reaction main_prompt(struct ui *u, wint_t ch, bool is_key)
{
	enum prompt_kind kind = u->prompt.kind;
	char text[128];

	if (kind == PROMPT_CONFIRM) {
		confirm_key(u, is_key ? 0 : ch);
		return reacts(REACT_NONE);
	}
	enum prompt_result r = prompt_edit(&u->prompt, ch, is_key);
	prompt_text(&u->prompt, text, sizeof(text));
	switch (r) {
	case PROMPT_IGNORED:
	case PROMPT_CANCEL:
		return reacts(REACT_NONE);
	case PROMPT_COMMIT:
		return commit(u, kind, text);
	case PROMPT_NEXT:
		if (kind == PROMPT_SEARCH)
			search_from(u, st->tab.sel + 1);
		return reacts(REACT_NONE);
	case PROMPT_EDITED:
		break;
	}
	/* as the text is typed, search moves the selection */
	u->message[0] = '\0';
	if (kind == PROMPT_SEARCH) {
		snprintf(st->search, sizeof(st->search), "%s", text);
		search_from(u, st->tab.sel);
	}
	return reacts(REACT_NONE);
}

/* ---- drawing ---- */

static void draw_bottom(struct ui *u)
{
	static const struct keybar_item keys[] = {
		{"F1", "Help", KEY_F(1)},   {"F2", "Columns", KEY_F(2)}, {"F3", "Search", KEY_F(3)},
		{"F4", "Filter", KEY_F(4)}, {"F5", "Tree", KEY_F(5)},	 {"F6", "SortBy", KEY_F(6)},
		{"F9", "Kill", KEY_F(9)},   {"F10", "Quit", KEY_F(10)},
	};
	const struct canvas *cv = &u->cv;

	if (u->prompt.kind == PROMPT_CONFIRM) {
		char line[300], comm[80];
		escape_display(comm_of(u, st->kill_pid), comm, sizeof(comm), cv->utf8);
		snprintf(line, sizeof(line), "Send SIG%s (%d) to %d (%s)? [y/N] ",
			 sigabbrev_np(st->kill_sig), st->kill_sig, st->kill_pid, comm);
		put_text(cv, cv->rows - 1, 0, cv->cols, ROLE_ALERT, line, true);
		curs_set(0);
		return;
	}
	table_bottom(u, keys, (int)ARRAY_SIZE(keys), u->prefs->filter.text);
}

void main_draw(struct ui *u)
{
	int y = header_rows(u), pane = graph_pane_rows(u);

	draw_header(u);
	if (pane)
		sys_graphs_draw(u, y, pane, true);
	draw_table(u, y + pane, main_table_rows(u));
	draw_bottom(u);
}
