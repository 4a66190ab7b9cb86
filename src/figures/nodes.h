/* The NUMA nodes' memory: each node's figures from /sys/devices/system/node/nodeN/meminfo,
 * declared once here (NODE_FIGURES), as the snapshot holds them (struct node_mem), as the
 * parser finds them, and as batch text, JSON, OpenMetrics and the recording name them. */
#ifndef MEMTOP_NODES_H
#define MEMTOP_NODES_H

#include <stddef.h>
#include <stdint.h>

/* The nodes a snapshot holds (and a recording records), the lowest numbered: a machine
 * with more shows these */
#define MT_MAX_NODES 8

/* X(a, ID, meminfo key, JSON key and recorded name (KiB), OpenMetrics name, label, help),
 * a passed through */
#define NODE_FIGURES(X, a)                                                                         \
	X(a, MEM_TOTAL, "MemTotal", mem_total_kb, "total", "Total", "The node's memory")           \
	X(a, MEM_FREE, "MemFree", mem_free_kb, "free", "Free", "The node's free memory")           \
	X(a, FILE_PAGES, "FilePages", file_pages_kb, "file_pages", "File",                         \
	  "The node's page cache (FilePages)")                                                     \
	X(a, ANON_PAGES, "AnonPages", anon_pages_kb, "anon_pages", "Anon",                         \
	  "The node's anonymous memory mapped by processes (AnonPages)")                           \
	X(a, SLAB, "Slab", slab_kb, "slab", "Slab", "The node's kernel slab (Slab)")

enum node_fig {
#define NODE_ID(a, id, key, json, metric, label, help) NF_##id,
	NODE_FIGURES(NODE_ID, 0)
#undef NODE_ID
		NF_COUNT
};

/* One node's figures, KiB */
struct node_mem {
	int32_t node; /* its number: N of nodeN */
	uint64_t kb[NF_COUNT];
};

struct node_figure {
	const char *key;    /* in the node's meminfo: "Node N KEY: V kB" */
	const char *json;   /* with its unit, _kb */
	const char *metric; /* memtop_node_memory_METRIC_bytes */
	const char *label;  /* batch text and the screen */
	const char *help;
};
extern const struct node_figure node_figures[NF_COUNT];

#endif
