/* The main screen: header, process table and the bottom line with its prompts. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "act_keys.h"
#include "cgroups.h"
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
#include "pager.h"
#include "text.h"
#include "util.h"

enum action {
	ACT_KTHREADS = TA_COUNT,
	ACT_SAVE,
	ACT_SEARCH,
	ACT_USER,
	ACT_KILL,
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
	ACT_TAG,
	ACT_TAG_TREE,
	ACT_UNTAG,
	ACT_FOLLOW,
	ACT_THREADS,
	ACT_STRACE,
	ACT_LSOF,
	ACT_FOLD,
	ACT_UNFOLD,
	ACT_FOLD_ALL,
	ACT_OOM_ADJ,
};

const struct binding main_keys[] = {
	TABLE_MOVE_KEYS("process"),
	{ACT_LEFT, {KEY_LEFT, 0}, "Left", "scroll the commands back"},
	{ACT_RIGHT, {KEY_RIGHT, 0}, "Right", "scroll the commands on"},
	{TA_SORT_DEFAULT, {'M', 0}, "M", "sort by RSS"},
	TABLE_COLUMNS_KEY,
	{TA_INVERT, {'I', 0}, "I", "invert the sort order"},
	{TA_TREE, {'t', KEY_F(5), 0}, "t F5", "tree view"},
	{ACT_FOLD, {'-', 0}, "-", "tree: fold its children"},
	{ACT_UNFOLD, {'+', '=', 0}, "+", "tree: unfold them"},
	{ACT_FOLD_ALL, {'*', 0}, "*", "tree: unfold all (or fold)"},
	{ACT_KTHREADS, {'K', 0}, "K", "hide or show kernel threads"},
	{ACT_SAVE, {'W', 0}, "W", "save settings for next time"},
	{ACT_SEARCH, {'/', KEY_F(3), 0}, "/ F3", "search (F3 again: next)"},
	{TA_FILTER, {'\\', KEY_F(4), 0}, "\\ F4", "filter by name or command"},
	{ACT_USER, {'u', 0}, "u", "one user's processes"},
	{ACT_TAG, {' ', 0}, "Space", "tag or untag, select next"},
	{ACT_TAG_TREE, {'c', 0}, "c", "tag it and its children"},
	{ACT_UNTAG, {'U', 0}, "U", "untag all"},
	{ACT_KILL, {'k', KEY_F(9), 0}, "k F9", "signal tagged (or selected)"},
	{ACT_OOM_ADJ, {'O', 0}, "O", "its oom_score_adj: protect it or offer it first, confirmed"},
	{ACT_FOLLOW, {'F', 0}, "F", "follow it through re-sorts"},
	{ACT_STRACE, {'s', 0}, "s", "strace -p it, in a pager"},
	{ACT_LSOF, {'l', 0}, "l", "lsof -p it, in a pager"},
	{ACT_THREADS, {'H', 0}, "H", "threads: in their process"},
	{ACT_RECLAIM_PANE, {'r', 0}, "r", "reclaim latency histograms"},
	{ACT_NODES, {'n', 0}, "n", "NUMA nodes' memory"},
	{ACT_GRAPHS, {'g', 0}, "g", "memory and activity graphs"},
	{ACT_SHORTER, {'(', 0}, "(", "shorter graph window"},
	{ACT_LONGER, {')', 0}, ")", "longer graph window"},
	{ACT_DETAIL, {'\n', '\r', KEY_ENTER, 0}, "Enter", "the process's details"},
	{ACT_CGROUPS, {'C', 0}, "C", "memory cgroups"},
	{ACT_SLAB, {'B', 0}, "B", "kernel slab caches"},
	{ACT_USERS, {'L', 0}, "L", "per-user totals (smem -u)"},
	{ACT_EXITED, {'X', 0}, "X", "exited in the last minute"},
	{ACT_ACCOUNT, {'A', 0}, "A", "the memory account"},
	{ACT_CGROUP_CLEAR, {27, 0}, "Esc", "clear filters and search"},
	{ACT_QUIT, {'q', KEY_F(10), 0}, "q F10", "quit"},
	{0, {0}, NULL, NULL},
};

static struct main_state *const st = &main_state;

/* Left and Right: the commands' text scrolled by half COMMAND's room (8 columns at least),
 * no further than the longest command line shows its end; PID and the columns stay */
static void hscroll(struct ui *u, int dir)
{
	int step = table_cmd_min(u, u->cv.cols) / 2, most = table_cmd_scroll(u);
	int h = st->hscroll + dir * (step < 8 ? 8 : step);

	if (h > most)
		h = most;
	st->hscroll = h < 0 ? 0 : h;
}

#define pref react_pref

/* The selected process's sample, or NULL (a message says so) */
static const struct proc_sample *selected(struct ui *u)
{
	if (st->tab.sel < u->m->nrows)
		return u->m->rows[st->tab.sel]->p;
	snprintf(u->message, sizeof(u->message), "no process selected");
	return NULL;
}

/* The keys that mean in memtop what they mean in htop: tags, follow, strace, lsof */
static struct reaction htop_act(struct ui *u, int a)
{
	const struct proc_sample *p = a == ACT_UNTAG || a == ACT_THREADS ? NULL : selected(u);

	switch (a) {
	case ACT_TAG:
		if (p) {
			tags_toggle(&st->tags, p, !u->rv.on);
			table_act(&proc_table, u, TA_DOWN);
		}
		break;
	case ACT_TAG_TREE:
		if (p) {
			size_t n = tags_tree(&st->tags, u->m, p, !u->rv.on);
			snprintf(u->message, sizeof(u->message), "%zu tagged (%zu in all)", n,
				 st->tags.n);
		}
		break;
	case ACT_UNTAG:
		tags_clear(&st->tags);
		break;
	case ACT_FOLLOW:
		if (p) {
			char comm[80];
			escape_display(p->comm, comm, sizeof(comm), u->cv.utf8);
			table_select(&proc_table, u, st->tab.sel);
			snprintf(u->message, sizeof(u->message), "following %d (%s)", (int)p->pid,
				 comm);
		}
		break;
	case ACT_THREADS:
		snprintf(u->message, sizeof(u->message),
			 "threads are not shown: they share their process's memory");
		break;
	case ACT_STRACE:
	case ACT_LSOF:
		if (u->rv.on)
			snprintf(u->message, sizeof(u->message), "a replay's processes are gone");
		else if (p)
			return pager_open(u, a == ACT_STRACE ? "strace" : "lsof", p->pid,
					  p->start_ticks, p->comm);
		break;
	}
	return reacts(REACT_NONE);
}

/* -, + and * in the tree view: the selected process folded, unfolded; all */
static struct reaction fold_act(struct ui *u, int a)
{
	const struct proc_sample *p;
	size_t sel = st->tab.sel;

	if (!u->prefs->tree) {
		snprintf(u->message, sizeof(u->message), "- + * fold the tree view (t)");
		return reacts(REACT_NONE);
	}
	if (a == ACT_FOLD_ALL)
		return pref(REACT_RESORT, pref_op(TAB_PROCS, PO_FOLD_ALL));
	if (!(p = selected(u)))
		return reacts(REACT_NONE);
	bool children =
		sel + 1 < u->m->nrows && u->m->rows[sel + 1]->depth > u->m->rows[sel]->depth;
	if (a == ACT_FOLD && !children) {
		snprintf(u->message, sizeof(u->message), "%s",
			 u->m->rows[sel]->folded ? "folded already (+ unfolds)"
						 : "no children shown to fold");
		return reacts(REACT_NONE);
	}
	struct pref_req r = pref_op(TAB_PROCS, PO_FOLD);
	r.pid = p->pid;
	r.start_ticks = p->start_ticks;
	r.on = a == ACT_FOLD;
	return pref(REACT_RESORT, r);
}

struct reaction main_act(struct ui *u, int a)
{
	u->message[0] = '\0';
	if (a < TA_COUNT)
		return table_act(&proc_table, u, a);
	switch ((enum action)a) {
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
		if (u->rv.on || u->read_only) {
			snprintf(u->message, sizeof(u->message), "%s",
				 u->rv.on ? "a replay sends no signals"
					  : "read-only (--read-only): memtop sends no signals");
			break;
		}
		if (!st->tags.n && main_kill_hold(u))
			break;
		prompt_open(&u->prompt, PROMPT_SIGNAL, "15");
		break;
	case ACT_TAG:
	case ACT_TAG_TREE:
	case ACT_UNTAG:
	case ACT_FOLLOW:
	case ACT_THREADS:
	case ACT_STRACE:
	case ACT_LSOF:
		return htop_act(u, a);
	case ACT_FOLD:
	case ACT_UNFOLD:
	case ACT_FOLD_ALL:
		return fold_act(u, a);
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
		cgroups_open(u);
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
		bool some = u->prefs->filter.cgroup[0] || u->prefs->filter.text[0];
		st->search[0] = '\0';
		struct reaction r =
			pref(some ? REACT_RESORT : REACT_NONE, pref_op(TAB_PROCS, PO_CLEAR));
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
		hscroll(u, a == ACT_LEFT ? -1 : 1);
		break;
	case ACT_OOM_ADJ:
		return u->read_only || u->rv.on ? act_ask_proc(u, NULL)
						: act_ask_proc(u, selected(u));
	case ACT_QUIT:
		return reacts(REACT_QUIT);
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
	if (u->prompt.kind == PROMPT_CONFIRM) {
		main_confirm_draw(u);
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
