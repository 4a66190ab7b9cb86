/* The detail screen: one process's memory breakdown, mappings, files and stacks, from a
 * struct detail that the loop fills from the drill-down's source while it is open. */
#ifndef MEMTOP_DETAIL_SCREEN_H
#define MEMTOP_DETAIL_SCREEN_H

#include "dd_tree.h"
#include "detail.h"
#include "screen.h"

enum section { SEC_MAPS, SEC_FILES, SEC_STACKS, SEC_GRAPHS, SEC_NUMA, SEC_LEAKS, NSECTIONS };

/* The screen's state */
struct detail_view {
	const struct detail *d; /* the loop's, filled by the drill-down's source */
	uint64_t start_ticks;	/* with d->pid, the process in the history */
	bool gone;		/* the process exited: d is what was seen last */
	char cmd[1024];		/* raw command line at opening */
	enum section sec;
	size_t sel[NSECTIONS];
	size_t top[NSECTIONS];
	bool whole; /* the selected stack, frame by frame */
	int whole_top;
	int rows; /* table rows at the last draw */
	/* the stacks as a call tree (detail_tree.c) */
	bool tree;
	struct dd_tree t;  /* built from d->stacks while tree is on */
	size_t tsel, ttop; /* the selected node, the first row shown */
	uint64_t tsel_key; /* the selected node's key, to find it in the next tree */
	uint64_t *folds;   /* the keys of the folded nodes */
	size_t nfolds, fold_cap;
	/* the Leaks tab (detail_leaks.c): the window chosen (an index), what was asked of the
	 * tracer and not yet taken by the loop, the lines at the last draw */
	size_t leak_window;
	enum leaks_req leak_req;
	size_t leak_lines;
};

extern struct detail_view detail_view;

/* Shows d (kept by the caller while the screen is open) from its first lines; start_ticks:
 * the process's start, for its history */
void detail_view_open(const struct detail *d, const char *cmd, uint64_t start_ticks);
/* d changed; gone: the process exited and d is what was seen last */
void detail_view_update(bool gone);

/* The lines of section s */
size_t section_len(enum section s);
/* detail_sections.c: a section in the rows from y (a header line, then rows) and the
 * selected stack whole */
void draw_maps(struct ui *u, int y, int rows);
void draw_files(struct ui *u, int y, int rows);
void draw_stacks(struct ui *u, int y, int rows);
void draw_whole(struct ui *u, int y, int rows);
void draw_numa(struct ui *u, int y, int rows);
/* detail_leaks.c: the Leaks tab from y (its lines from v->sel[SEC_LEAKS] on); the window
 * chosen, in seconds; a longer (by 1) or shorter (-1) one; the first one */
void draw_leaks(struct ui *u, int y, int rows);
double leaks_window(void);
void leaks_window_step(int by);
void leaks_window_default(void);

/* detail_tree.c: the call tree in the rows from y (a header line, then nodes); the tree
 * shown or the list; the tree again from v->d; moves; folds (fold false: unfolds); Enter
 * (true: the selected leaf's stack is v->sel[SEC_STACKS], to be shown whole); frees it */
void draw_tree(struct ui *u, int y, int rows);
void tree_toggle(void);
void tree_rebuild(void);
void tree_move(long delta);
void tree_fold(bool fold);
bool tree_enter(void);
void tree_done(void);

#endif
