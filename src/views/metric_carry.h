/* Counters that never go down: a cgroup's counter that falls (a child removed from a sum
 * over the cgroups listed below it, as v1's OOM kills are; a cgroup removed and made
 * again) is exported as what it fell from plus what it gained since, so that rate() sees
 * no reset for the life of the process. Part of metric.h, which includes it. */
#ifndef MEMTOP_METRIC_CARRY_H
#define MEMTOP_METRIC_CARRY_H

#include <stddef.h>
#include <stdint.h>

#include "cgmodel.h"

/* How long a path no longer listed keeps what it carries: longer than Prometheus keeps a
 * series that stopped (5 minutes) */
#define METRIC_CARRY_KEEP_S 3600.0

struct metric_carry_entry {
	char *path;
	uint64_t last[CGCOL_COUNT]; /* what was exported */
	uint64_t add[CGCOL_COUNT];  /* what the counter fell by, in all */
	double seen;		    /* monotonic seconds when last listed */
};

struct metric_carry {
	struct metric_carry_entry *e; /* by path */
	size_t n, cap;
};

/* Takes each cgroup counter of cgm's cgroups (read at monotonic seconds now) */
void metric_carry_update(struct metric_carry *k, const struct cg_model *cgm, double now);
/* The figures of c to export: its counters with what they fell by added; others as read */
void metric_carry_values(const struct metric_carry *k, const struct cg_sample *c,
			 uint64_t out[CGCOL_COUNT]);
void metric_carry_free(struct metric_carry *k);

#endif
