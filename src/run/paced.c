#include "paced.h"

#include <stdio.h>

#include "util.h"

/* After a stall (the process stopped, the machine suspended) the refreshes missed are
 * skipped, not made up for in a burst of samples over intervals of a millisecond: a wake
 * half a delay or more late starts the schedule anew. One line says how many were skipped
 * when 5 s or more were lost (a refresh late under heavy load goes unsaid) */
static double catch_up(double next, double delay, double last)
{
	double now = clock_mono(), late = now - next;

	if (delay <= 0 || late < delay / 2)
		return next;
	long skipped = (long)(late / delay);
	if (skipped > 0 && late >= 5)
		fprintf(stderr, "memtop: %ld refreshes skipped after a %.1f s stall\n", skipped,
			now - last);
	return now;
}

int paced_run(double delay, long iterations, int (*step)(void *ctx, long i), void *ctx)
{
	double next = clock_mono(), last = next;
	int rc = 0;

	stop_signals_catch();
	for (long i = 0; !iterations || i < iterations; i++) {
		if (i) {
			sleep_until(next);
			next = catch_up(next, delay, last);
		}
		if (stop_signal_caught())
			break;
		last = next;
		next += delay;
		rc = step(ctx, i);
		if (rc)
			break;
	}
	if (stop_signal_caught())
		return 128 + stop_signal_caught();
	return rc > 0 ? rc : 0;
}
