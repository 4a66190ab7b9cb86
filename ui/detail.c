/* The detail screen: one process's memory breakdown at the top, then its mappings,
 * backing files or stacks, scrollable; a selected stack shown whole. It reads only
 * struct detail; the drill behind it is attached while the screen is open. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "detail.h"
#include "detail_cli.h"
#include "text.h"
#include "detail_screen.h"
#include "graphs.h"
#include "procname.h"
#include "util.h"

static const char *const section_names[NSECTIONS] = {"Mappings", "Files", "Stacks",
						     "Graphs",	 "NUMA",  "Leaks"};

struct detail_view detail_view;
static struct detail_view *const v = &detail_view;

size_t section_len(enum section s)
{
	switch (s) {
	case SEC_MAPS:
		return v->d->nmaps;
	case SEC_FILES:
		return v->d->nfiles;
	case SEC_STACKS:
		return v->d->nstacks;
	case SEC_LEAKS:
		return v->leak_lines;
	default:
		return 0;
	}
}

void detail_view_update(bool gone)
{
	v->gone = gone;
	for (int s = 0; s < NSECTIONS; s++) {
		size_t n = section_len((enum section)s);

		if (v->sel[s] >= n)
			v->sel[s] = n ? n - 1 : 0;
		if (v->top[s] > v->sel[s])
			v->top[s] = v->sel[s];
	}
	if (!v->d->nstacks)
		v->whole = false;
	if (v->tree)
		tree_rebuild();
}

void detail_view_open(const struct detail *d, const char *cmd, uint64_t start_ticks)
{
	tree_done();
	memset(v, 0, sizeof(*v));
	v->d = d;
	v->start_ticks = start_ticks;
	snprintf(v->cmd, sizeof(v->cmd), "%s", cmd);
	leaks_window_default();
	detail_view_update(false);
}

/* ---- drawing ---- */

struct cell {
	const char *label;
	uint64_t kb;
};

static int draw_breakdown(struct ui *u, int y)
{
	const struct dd_breakdown *b = &v->d->b;
	const struct cell cells[] = {
		{"RSS", b->rss},
		{"PSS", b->pss},
		{"USS", b->uss},
		{"Swap", b->swap},
		{"Anon", b->rss_anon},
		{"File", b->rss_file},
		{"Shmem", b->rss_shmem},
		{"SwapPss", b->swap_pss},
		{"Locked", b->locked},
		{"THP", b->anon_huge + b->shmem_pmd + b->file_pmd},
		{"HugeTLB", b->shared_hugetlb + b->private_hugetlb},
		{"PgTables", b->pgtables},
	};
	bool exact = u->cv.cols >= 84; /* exact KiB as smaps shows them, else short units */
	int width = exact ? 21 : 14, per = u->cv.cols / width;
	char text[64], val[16];

	if (per < 1)
		per = 1;
	for (size_t i = 0; i < ARRAY_SIZE(cells); i++) {
		int x = (int)(i % (size_t)per) * width, row = y + (int)(i / (size_t)per);

		if (exact)
			snprintf(val, sizeof(val), "%9" PRIu64 " kB", cells[i].kb);
		else
			fmt_kb(cells[i].kb, val, sizeof(val));
		put_text(&u->cv, row, x, 8, ROLE_LABEL, cells[i].label, true);
		snprintf(text, sizeof(text), exact ? "%s" : "%5s", val);
		put_text(&u->cv, row, x + 8, width - 9, ROLE_VALUE, text, true);
	}
	y += (int)((ARRAY_SIZE(cells) + (size_t)per - 1) / (size_t)per);

	char cg[600], line[800];

	escape_display(b->cgroup[0] ? b->cgroup : "-", cg, sizeof(cg), u->cv.utf8);
	if (b->have_oom)
		snprintf(line, sizeof(line), "OOM score %d, adj %d   cgroup %s", b->oom_score,
			 b->oom_score_adj, cg);
	else
		snprintf(line, sizeof(line), "OOM score -   cgroup %s", cg);
	put_text(&u->cv, y++, 0, u->cv.cols, ROLE_LABEL, line, true);
	return y;
}

/* The process's row in the model: a leak suspect, its GROW cells red on the table */
static const struct row *leak_row(const struct ui *u)
{
	for (size_t i = 0; i < u->m->nall; i++) {
		const struct row *r = &u->m->all[i];
		if (r->leak && r->p->pid == v->d->pid && r->p->start_ticks == v->start_ticks)
			return r;
	}
	return NULL;
}

static int draw_state(struct ui *u, int y)
{
	const struct dd_stacks_info *st = &v->d->st;
	const struct row *leak = leak_row(u);
	char line[400];

	if (leak) {
		char grow[32];
		cell_text(leak, COL_GROW10, grow, sizeof(grow), u->cv.utf8);
		snprintf(line, sizeof(line),
			 "Leak suspect: its RSS + swap grew steadily over the last ten minutes "
			 "(GROW10 %s a minute)",
			 grow);
		put_text(&u->cv, y++, 0, u->cv.cols, ROLE_ALERT, line, true);
	}

	if (v->gone) {
		put_text(&u->cv, y++, 0, u->cv.cols, ROLE_WARNING,
			 "The process has exited: this is what was seen last", true);
	} else if (!st->on) {
		snprintf(line, sizeof(line), "Stacks and faults per mapping off: %s", st->why);
		put_text(&u->cv, y++, 0, u->cv.cols, ROLE_WARNING, line, true);
	} else {
		char kern[80] = "";

		if (st->tot.kfaults)
			snprintf(kern, sizeof(kern), " (%" PRIu64 " of them inside system calls)",
				 st->tot.kfaults);
		snprintf(line, sizeof(line),
			 "In the last %.0f s: %" PRIu64 " page faults%s, 1 in %u sampled (%" PRIu64
			 "); %" PRIu64 " brk, mmap or munmap calls",
			 st->seconds, st->tot.faults + st->tot.kfaults, kern, st->rate,
			 st->tot.samples, st->tot.calls);
		put_text(&u->cv, y++, 0, u->cv.cols, ROLE_LABEL, line, true);
	}
	if (v->d->err[0] && !v->gone)
		put_text(&u->cv, y++, 0, u->cv.cols, ROLE_WARNING, v->d->err, true);
	return y;
}

static void draw_tabs(struct ui *u, int y)
{
	char tab[64];
	int x = 0;

	for (int s = 0; s < NSECTIONS && x < u->cv.cols; s++) {
		if (s == SEC_GRAPHS || s == SEC_NUMA || s == SEC_LEAKS)
			snprintf(tab, sizeof(tab), " %d %s ", s + 1, section_names[s]);
		else
			snprintf(tab, sizeof(tab), " %d %s (%zu) ", s + 1, section_names[s],
				 section_len((enum section)s));
		put_text(&u->cv, y, x, u->cv.cols - x,
			 s == (int)v->sec ? ROLE_SELECTED : ROLE_LABEL, tab, false);
		x += (int)strlen(tab) + 1;
	}
}

/* The title, by the process's short name (procname.h), and its whole command line after
 * it, or on the lines below (3 at most) where it does not fit; returns the next line */
static int draw_title(struct ui *u)
{
	char title[1400], cmd[1200], name[PROC_NAME_SIZE * 4], raw[PROC_NAME_SIZE];
	int y = 0, cols = u->cv.cols;

	proc_short_name(v->d->b.comm, v->cmd, raw, sizeof(raw));
	escape_display(raw, name, sizeof(name), u->cv.utf8);
	escape_display(v->cmd, cmd, sizeof(cmd), u->cv.utf8);
	int n = snprintf(title, sizeof(title), "Process %d (%s): where its memory goes", v->d->pid,
			 name);
	bool one = text_cols(title, u->cv.utf8) + 3 + text_cols(cmd, u->cv.utf8) <= cols;
	if (one && n > 0 && (size_t)n < sizeof(title))
		snprintf(title + n, sizeof(title) - (size_t)n, "   %s", cmd);
	put_text(&u->cv, y++, 0, cols, ROLE_HELP_TITLE, title, true);
	for (const char *c = cmd; !one && *c && y < 4 && cols > 0; y++) {
		put_text(&u->cv, y, 0, cols, ROLE_LABEL, c, true);
		for (int k = 0; k < cols && *c; k++) /* past the characters of that line */
			do
				c++;
			while (u->cv.utf8 && (*c & 0xc0) == 0x80);
	}
	return y;
}

void detail_draw(struct ui *u)
{
	int y = draw_title(u);

	y = draw_breakdown(u, y);
	y = draw_state(u, y);
	draw_tabs(u, y++);
	int rows = u->cv.rows - 1 - y - 1; /* header line, key line */

	v->rows = rows > 1 ? rows : 1;
	if (rows >= 1) {
		if (v->sec == SEC_MAPS)
			draw_maps(u, y, rows);
		else if (v->sec == SEC_FILES)
			draw_files(u, y, rows);
		else if (v->sec == SEC_GRAPHS)
			proc_graphs_draw(u, v->d->pid, v->start_ticks, y, rows + 1);
		else if (v->sec == SEC_NUMA)
			draw_numa(u, y, rows);
		else if (v->sec == SEC_LEAKS)
			draw_leaks(u, y, rows);
		else if (v->whole && v->d->nstacks)
			draw_whole(u, y, rows);
		else
			draw_stacks(u, y, rows);
	}
	put_text(&u->cv, u->cv.rows - 1, 0, u->cv.cols, ROLE_STATUS,
		 v->sec == SEC_STACKS && v->tree && !v->whole
			 ? "Esc/q back  Tab/1-6 section  Up/Down move  Left/Right fold  Enter "
			   "stack  t list"
		 : v->sec == SEC_STACKS ? "Esc/q back  Tab/1-6 section  Up/Down/PgUp/PgDn move  "
					  "Enter whole stack  t tree"
		 : v->sec == SEC_GRAPHS ? "Esc/q back  Tab/1-6 section  ( ) graph window"
		 : v->sec == SEC_LEAKS	? "Esc/q back  Tab/1-6 section  s start/stop tracing  ( ) "
					  "window  Up/Down scroll"
					: "Esc/q back  Tab/1-6 section  Up/Down/PgUp/PgDn move",
		 true);
}

/* ---- keys ---- */

/* the call tree is what the keys move */
static bool tree_shown(void)
{
	return v->sec == SEC_STACKS && v->tree && !v->whole && v->d->st.on;
}

static void move_by(long delta)
{
	if (tree_shown()) {
		tree_move(delta);
		return;
	}
	if (v->whole) {
		v->whole_top += (int)delta;
		if (v->whole_top < 0)
			v->whole_top = 0;
		return;
	}
	size_t n = section_len(v->sec);
	long s = (long)v->sel[v->sec] + delta;

	if (s >= (long)n)
		s = (long)n - 1;
	if (s < 0)
		s = 0;
	v->sel[v->sec] = (size_t)s;
}

static void go_section(int s)
{
	v->sec = (enum section)((s + NSECTIONS) % NSECTIONS);
	v->whole = false;
}

enum {
	DK_BACK = 1,
	DK_NEXT,
	DK_PREV,
	DK_SEC1,
	DK_SEC2,
	DK_SEC3,
	DK_SEC4,
	DK_SEC5,
	DK_SEC6,
	DK_LEAKS,
	DK_SHORTER,
	DK_LONGER,
	DK_UP,
	DK_DOWN,
	DK_PGUP,
	DK_PGDN,
	DK_HOME,
	DK_END,
	DK_WHOLE,
	DK_TREE,
	DK_UNFOLD,
	DK_FOLD,
};

const struct binding detail_keys[] = {
	{DK_BACK, {27, 'q', KEY_F(10), KEY_BACKSPACE}, "Esc q", "back (stack: to the list)"},
	{DK_NEXT, {'\t', 0}, "Tab", "next section"},
	{DK_PREV, {KEY_BTAB, 0}, "S-Tab", "previous section"},
	{DK_UNFOLD, {KEY_RIGHT, '+', '=', 0}, "Right +", "next; in a tree: unfold"},
	{DK_FOLD, {KEY_LEFT, '-', 0}, "Left -", "previous; in a tree: fold"},
	{DK_SEC1, {'1', 0}, "1", "mappings"},
	{DK_SEC2, {'2', 0}, "2", "files"},
	{DK_SEC3, {'3', 0}, "3", "stacks"},
	{DK_SEC4, {'4', 'g', 0}, "4 g", "graphs of RSS, swap, faults"},
	{DK_SEC5, {'5', 0}, "5", "memory per NUMA node"},
	{DK_SEC6, {'6', 0}, "6", "leaks by stack"},
	{DK_LEAKS, {'s', 0}, "s", "trace leaks; ( ) its window"},
	{DK_SHORTER, {'(', '[', 0}, "( [", "shorter graph window"},
	{DK_LONGER, {')', ']', 0}, ") ]", "longer graph window"},
	{DK_UP, {KEY_UP, 0}, "Up", "previous line"},
	{DK_DOWN, {KEY_DOWN, 0}, "Down", "next line"},
	{DK_PGUP, {KEY_PPAGE, 0}, "PgUp", "one page up"},
	{DK_PGDN, {KEY_NPAGE, 0}, "PgDn", "one page down"},
	{DK_HOME, {KEY_HOME, 0}, "Home", "first line"},
	{DK_END, {KEY_END, 0}, "End", "last line"},
	{DK_WHOLE, {'\n', '\r', KEY_ENTER, 0}, "Enter", "the selected stack whole"},
	{DK_TREE, {'t', KEY_F(5), 0}, "t F5", "call tree or list"},
	{0, {0}, NULL, NULL},
};

struct reaction detail_act(struct ui *u, int a)
{
	long page = v->rows > 1 ? v->rows - 1 : 1;

	switch (a) {
	case DK_BACK:
		if (v->whole) {
			v->whole = false;
			break;
		}
		u->screen = SCREEN_MAIN;
		return reacts(REACT_DETAIL_CLOSE);
	case DK_UNFOLD:
	case DK_FOLD:
		if (tree_shown()) {
			tree_fold(a == DK_FOLD);
			break;
		}
		go_section((int)v->sec + (a == DK_FOLD ? -1 : 1));
		break;
	case DK_NEXT:
		go_section((int)v->sec + 1);
		break;
	case DK_PREV:
		go_section((int)v->sec - 1);
		break;
	case DK_TREE:
		if (v->sec == SEC_STACKS) {
			v->whole = false;
			tree_toggle();
		}
		break;
	case DK_SEC1:
	case DK_SEC2:
	case DK_SEC3:
	case DK_SEC4:
	case DK_SEC5:
	case DK_SEC6:
		go_section(a - DK_SEC1);
		break;
	case DK_LEAKS:
		if (v->sec != SEC_LEAKS)
			break;
		v->leak_req = v->d->leaks.state == DL_TRACING ? LEAKS_STOP : LEAKS_START;
		return reacts(REACT_LEAKS);
	case DK_SHORTER:
	case DK_LONGER:
		if (v->sec == SEC_LEAKS) {
			leaks_window_step(a == DK_SHORTER ? -1 : 1);
			if (v->d->leaks.state != DL_TRACING)
				break;
			v->leak_req = LEAKS_WINDOW;
			return reacts(REACT_LEAKS);
		}
		graph_zoom(u, a == DK_SHORTER ? -1 : 1);
		u->message[0] = '\0'; /* the screen has no message line */
		break;
	case DK_UP:
		move_by(-1);
		break;
	case DK_DOWN:
		move_by(1);
		break;
	case DK_PGUP:
		move_by(-page);
		break;
	case DK_PGDN:
		move_by(page);
		break;
	case DK_HOME:
		move_by(-(long)1e9);
		break;
	case DK_END:
		move_by((long)1e9);
		break;
	case DK_WHOLE:
		if (tree_shown() && !tree_enter())
			break;
		if (v->sec == SEC_STACKS && v->d->nstacks) {
			v->whole = true;
			v->whole_top = 0;
		}
		break;
	}
	return reacts(REACT_NONE);
}

void detail_done(struct ui *u)
{
	(void)u;
	tree_done();
}
