/* The OOM kill history (o), the reclaim latency histograms (r) and the post-mortem of a
 * kill (Enter on one): scrolled panes of lines sharing one state. */
#ifndef MEMTOP_PANES_H
#define MEMTOP_PANES_H

#include <stdint.h>

#include "screen.h"

struct panes_state {
	int top;     /* the first line shown */
	int oom_sel; /* the OOM kill selected, 0 the newest */
	/* and its time and pid, that it stays selected as the list changes (sel_pid 0: the
	 * newest) */
	double sel_ts;
	int32_t sel_pid;
	/* the kill the post-mortem shows: its time and pid (m->oom moves as kills come) */
	double pm_ts;
	int32_t pm_pid;
	enum screen_id back; /* the screen they were opened from, where Esc returns */
};

extern struct panes_state panes_state;

/* Shows the pane id (SCREEN_OOM, SCREEN_RECLAIM) from its first line, the newest kill
 * selected */
void panes_open(struct ui *u, enum screen_id id);

#endif
