/* The refresh loop of the outputs without a screen (batch, JSON, --record, --serve,
 * --openmetrics, a replay printed): one step each interval, stop signals caught. */
#ifndef MEMTOP_PACED_H
#define MEMTOP_PACED_H

/* What a step returns: go on, stop (the run succeeded), or an exit status */
enum { PACED_ON = 0, PACED_DONE = -1 };

/* Calls step(ctx, i) for i = 0, 1, ... every delay seconds, iterations times (0: until a
 * stop signal), with INT, TERM and HUP caught from the start (stop_signals_catch). Returns
 * 0 when the steps are done, 128 + the signal once one is caught, or the status a step
 * returned (> 0). */
int paced_run(double delay, long iterations, int (*step)(void *ctx, long i), void *ctx);

#endif
