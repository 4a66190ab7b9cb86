/* --openmetrics: one exposition to stdout. --serve [ADDR:]PORT: no screen; memtop
 * refreshes at -d and serves the last refresh's exposition over HTTP (libmicrohttpd, its
 * own thread), built once per refresh, so that a scrape never waits on /proc. A runner over
 * the monitor (monitor.h). */
#ifndef MEMTOP_SERVE_H
#define MEMTOP_SERVE_H

#include "monitor.h"
#include "options.h"

/* Returns the exit status: 0, 1 on a failure, 128 + the signal that stopped it */
int serve_run(struct monitor *mon, const struct options *o);

#endif
