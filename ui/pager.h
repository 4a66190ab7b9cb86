/* The pager (l, s on the process table): what lsof -p or strace -p writes, kept as it
 * comes (the loop reads it: src/run/tool.h), escaped, and scrolled and searched on a
 * screen of its own; q or Esc returns and the program is stopped. */
#ifndef MEMTOP_PAGER_H
#define MEMTOP_PAGER_H

#include "screen.h"

/* What the pager keeps at most; what comes after is not kept (the title says so) */
#define PAGER_MAX_LINES 100000
#define PAGER_MAX_BYTES (8u << 20)
/* A line longer than this is kept as lines of this many bytes */
#define PAGER_LINE_MAX 4096

/* Opens the pager over prog -p pid (name: the process's, raw), returning to the screen
 * shown now: REACT_TOOL asks the loop to start it */
struct reaction pager_open(struct ui *u, const char *prog, int32_t pid, uint64_t start,
			   const char *name);

#endif
