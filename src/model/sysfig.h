/* The one table of system figures: /proc/meminfo, /proc/vmstat rates and counters, PSI,
 * the BPF totals and memtop's own protection and cost. The screen's header, batch text,
 * JSON, OpenMetrics and the manual iterate it. Its rows are those of
 * src/figures/sysfigs.def: a /proc/meminfo or /proc/vmstat figure is one row there. */
#ifndef MEMTOP_SYSFIG_H
#define MEMTOP_SYSFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

enum sf_unit {
	SF_KB,	    /* KiB: human units on screen, an integer in JSON */
	SF_RATE,    /* per second: "12K" on screen, 2 decimals in JSON */
	SF_COUNT,   /* an integer as is: a count that only grows (or this interval's part) */
	SF_NUMBER,  /* an integer as is: a level, that may go down */
	SF_SECONDS, /* seconds, an integer */
	SF_AVG,	    /* a PSI average, 2 decimals */
	SF_MS,	    /* milliseconds: "41.2ms" on screen, 2 decimals in JSON */
	SF_NS_RATE, /* nanoseconds per second: "3.1us" on screen, an integer in JSON */
};

/* Where a figure goes: the JSON object that holds it and the header or batch line */
enum sf_group {
	SF_MEM,	    /* JSON "system"; the header's memory line, batch "Mem:" */
	SF_SWAP,    /* JSON "system"; batch "Swap:" (the header's meter shows it) */
	SF_VM,	    /* JSON "system"; the header's activity line, batch "VM:" */
	SF_KERNEL,  /* JSON "system"; batch "Kernel:": slab, kernel stacks, vmalloc, per-CPU */
	SF_PAGES,   /* JSON "system"; batch "Pages:": the LRU lists, locked, dirty */
	SF_HUGE,    /* JSON "system"; batch "Huge:": transparent and hugetlb huge pages */
	SF_PAGING,  /* JSON "system"; batch "Paging:": scan, steal, refaults, compaction, THP */
	SF_NUMA,    /* JSON "system"; batch "NUMA:" */
	SF_BPF,	    /* JSON "bpf"; batch "BPF:" */
	SF_RECLAIM, /* JSON "reclaim" (this interval); batch "Reclaim:" */
	SF_SELF,    /* JSON "self": its own protection and cost; the header's BPF line, batch
		       "Self:" */
	SF_NGROUPS
};

/* A figure's index in sys_figures: SF_ and its row's ID in sysfigs.def (SF_MEM_AVAILABLE);
 * a VMSTAT_RATE row's rate SF_ID_RATE, its counter SF_ID */
enum sf_id {
#define MEMINFO_FIG(id, key, name, ...) SF_##id,
#define VMSTAT_FIG(id, key, name, ...)	SF_##id,
#define VMSTAT_RATE(id, key, name, ...) SF_##id##_RATE, SF_##id,
#define FIGURE(id, ...)			SF_##id,
#include "sysfigs.def"
	SF_NFIGURES
};

struct sys_figure {
	const char *json;  /* its key in its group's JSON object */
	const char *label; /* on screen and in batch text; NULL: JSON only */
	enum sf_unit unit;
	enum sf_group group;
	bool header;	 /* on the screen's header line of its group */
	int drop;	 /* on a narrow screen, higher numbers are left out first; 0 never */
	const char *off; /* shown instead, dimmed, where the figure is not valid ("PSI off") */
	double (*get)(const struct model *m);
	bool (*valid)(const struct model *m); /* NULL: always */
	bool json_null; /* where not valid, JSON has its key with null; else not the key */
	/* OpenMetrics (src/views/openmetrics.c): the metric's name after "memtop_", without its
	 * unit and _total, which come from .unit (src/views/metric.h); NULL: not exported. Rates
	 * are not exported: the counters they come from are. */
	const char *metric;
	const char *help; /* its # HELP text */
	/* the counter since memtop or the system started, in the figure's unit, where the
	 * figure is a rate or this interval's part of it: then the metric is that counter */
	double (*total)(const struct model *m);
};

extern const struct sys_figure sys_figures[];
extern const size_t n_sys_figures;
/* A group's batch line and JSON object */
struct sf_group_row {
	const char *title; /* the batch line's: "Mem:" */
	const char *json;  /* the JSON object's: "system" */
};
extern const struct sf_group_row sf_groups[SF_NGROUPS];

bool sys_figure_valid(const struct sys_figure *f, const struct model *m);
/* The value as the screen and batch text show it ("1.2G", "12K", "0.25", "41.2ms") */
void sys_figure_text(const struct sys_figure *f, const struct model *m, char *buf, size_t size);

#endif
