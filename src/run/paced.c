#include "paced.h"

#include "util.h"

int paced_run(double delay, long iterations, int (*step)(void *ctx, long i), void *ctx)
{
	double next = clock_mono();
	int rc = 0;

	stop_signals_catch();
	for (long i = 0; !iterations || i < iterations; i++) {
		if (i)
			sleep_until(next);
		if (stop_signal_caught())
			break;
		next += delay;
		rc = step(ctx, i);
		if (rc)
			break;
	}
	if (stop_signal_caught())
		return 128 + stop_signal_caught();
	return rc > 0 ? rc : 0;
}
