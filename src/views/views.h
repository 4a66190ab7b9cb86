/* Non-interactive views: text like top -b, JSON lines, and OpenMetrics. They read only the model.
 */
#ifndef MEMTOP_VIEWS_H
#define MEMTOP_VIEWS_H

#include <stdbool.h>
#include <stdio.h>

#include "cgmodel.h"
#include "model.h"
#include "users.h"

struct view_info {
	double delay;
	const char *version;
	bool utf8; /* the terminal or file takes UTF-8 */
	/* --cgroups: the memory cgroups, after the processes (batch) or as cgroups[] (JSON);
	 * NULL: none */
	const struct cg_model *cgroups;
	/* --users: the totals per user, after the processes (batch) or as users[] (JSON);
	 * NULL: none */
	const struct user_totals *users;
	/* --slab: the slab caches, after the processes and cgroups (batch) or as slabs[]
	 * (JSON), largest first; NULL: none */
	const struct slab_model *slab;
	/* --account: the memory account, after the slab caches (batch) or as account{}
	 * (JSON); NULL: none */
	const struct account *account;
	/* OpenMetrics: how many processes by RSS (--top), and the OOM kills counted */
	size_t top;
	const struct metric_ooms *ooms;
	/* OpenMetrics: what the cgroups' counters fell by, added back (NULL: nothing) */
	const struct metric_carry *carry;
	/* OpenMetrics: --groups, the process groups exported in place of the processes
	 * (NULL: the processes) */
	const struct groups *groups;
	/* OpenMetrics under --serve: the exporter's own figures (NULL: none) */
	const struct export_stats *stats;
};

struct tbuf;
struct groups;
struct metric_ooms;
struct metric_carry;
struct export_stats;

void view_batch(FILE *f, const struct model *m, const struct view_info *vi);
void view_json(FILE *f, const struct model *m, const struct view_info *vi);
/* The Prometheus text format 0.0.4, or with om OpenMetrics 1.0.0, appended to b */
void view_openmetrics(struct tbuf *b, const struct model *m, const struct view_info *vi, bool om);

#endif
