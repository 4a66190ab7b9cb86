/* The drill's leak tracer (leaks_trace.h) over windows the user starts, for the Leaks
 * tab: what the drill fills into struct detail's leaks. */
#ifndef MEMTOP_DRILL_LEAKS_H
#define MEMTOP_DRILL_LEAKS_H

#include <stdbool.h>
#include <stdint.h>

#include "detail.h"

struct drill_leaks;

/* For pid; no_bpf: it cannot run, and says so */
struct drill_leaks *dl_new(int32_t pid, bool no_bpf);
/* A window of secs from now (one running is ended first); secs <= 0 ends the one running
 * (what it found stays) */
void dl_start(struct drill_leaks *l, double secs);
/* The window running ends at its start + secs */
void dl_window(struct drill_leaks *l, double secs);
/* When the window running ends, 0 when none runs */
double dl_end(const struct drill_leaks *l);
/* Ends the window where it is due (or gone: the process exited), reads what is
 * outstanding, and fills d->leaks */
void dl_fill(struct drill_leaks *l, struct detail *d, bool gone);
void dl_free(struct drill_leaks *l);

#endif
