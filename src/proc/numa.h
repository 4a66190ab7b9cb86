/* NUMA: each node's memory (/sys/devices/system/node/nodeN/meminfo, nodes.h) and a
 * process's memory per node (/proc/PID/numa_maps), summed as numastat -p sums them.
 * Parsers take text so they can be tested on real and corrupt input; readers open the
 * files. */
#ifndef MEMTOP_NUMA_H
#define MEMTOP_NUMA_H

#include <stddef.h>
#include <stdint.h>

#include "nodes.h"

/* A node's meminfo text ("Node 0 MemTotal:  7300892 kB" lines) into n->kb (0 where a
 * key is missing); n->node is left as it is. Returns 0, or -1 without MemTotal. */
int parse_node_meminfo(const char *text, struct node_mem *n);

/* Every node's meminfo, the lowest numbered first, up to max; returns how many were
 * read (0 on a kernel without NUMA's sysfs). One small file per node. */
size_t numa_nodes_read(struct node_mem *nodes, size_t max);

/* A process's memory per node, as numastat -p splits it: each mapping of numa_maps is
 * hugetlb ("huge"), the heap, a stack, or else private */
enum numa_kind { NK_HUGE, NK_HEAP, NK_STACK, NK_PRIVATE, NK_COUNT };
struct numa_kind_row {
	const char *label; /* "Huge", "Heap", "Stack", "Private" */
	const char *json;  /* "huge" (JSON's huge_kb), and the word of numa_maps it counts */
};
extern const struct numa_kind_row numa_kinds[NK_COUNT];

struct numa_node_use {
	int32_t node;
	uint64_t kb[NK_COUNT];
};

struct numa_use {
	size_t nnodes;				  /* by node number; the nodes it has pages on */
	struct numa_node_use nodes[MT_MAX_NODES]; /* (the lowest numbered, up to the max) */
};

/* numa_maps text into u (emptied first): each line's N<node>=<pages> times its
 * kernelpagesize_kB (page_kb where the line has none). Returns 0, or -1 when no line
 * looks like a mapping. */
int parse_numa_maps(const char *text, long page_kb, struct numa_use *u);
/* The kind's total over the nodes, and a node's total over the kinds (KiB) */
uint64_t numa_kind_total(const struct numa_use *u, enum numa_kind k);
uint64_t numa_node_total(const struct numa_node_use *n);

#endif
