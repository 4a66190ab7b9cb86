/* A figure's samples over the last minute, for its change per minute: a ring of (time,
 * KiB) samples at least KB_TREND_MIN_STEP seconds apart, so that it covers KB_TREND_SPAN
 * at any refresh interval. The slab caches and the memory account keep one per figure. */
#ifndef MEMTOP_KBTREND_H
#define MEMTOP_KBTREND_H

#include <stdbool.h>

#define KB_TREND_RING	  64
#define KB_TREND_MIN_STEP 0.95
#define KB_TREND_SPAN	  60.0 /* seconds the change looks back */

struct kb_trend {
	unsigned head, n; /* the newest at head - 1 */
	double t[KB_TREND_RING];
	double kb[KB_TREND_RING];
};

/* The change in KiB per minute from the oldest sample of the last KB_TREND_SPAN seconds to
 * kb at now; false when there is none before now */
bool kb_trend_per_min(const struct kb_trend *t, double now, double kb, double *out);
/* Keeps kb at now (unless the newest sample is under KB_TREND_MIN_STEP older) */
void kb_trend_add(struct kb_trend *t, double now, double kb);

#endif
