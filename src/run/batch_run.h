/* -b, --json and --record (the screen's flags with --record print nothing): a refresh of
 * the monitor each interval, printed; from a recording (--replay), each sample of its
 * range at once, and --openmetrics prints the range's last sample. */
#ifndef MEMTOP_BATCH_RUN_H
#define MEMTOP_BATCH_RUN_H

#include "monitor.h"
#include "options.h"

/* Returns the exit status: 0, 1 on a failure (or a recording's samples left out for
 * damage), 128 + the signal that stopped it */
int batch_run(struct monitor *mon, const struct options *o);

#endif
