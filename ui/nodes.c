/* The NUMA nodes screen (n): each node's memory as /sys/devices/system/node/nodeN/meminfo
 * gives it (the snapshot's nodes, read at each refresh), a line per node and their sum. */
#include <stdio.h>

#include "canvas.h"
#include "text.h"
#include "pane_screen.h"

#define NODES_KEYS "Esc/q back  Up/Down/PgUp/PgDn scroll  (a process's nodes: Enter on it, 5)"

const struct binding nodes_keys[] = PANE_SCREEN_KEYS('n', "Esc q n", "back to the table");

/* "Node 0" and its figures, each in KiB as K, M, G, and the share of its memory used */
static void node_row(struct pane *p, enum role role, const char *name, const uint64_t *kb)
{
	char v[NF_COUNT][16], line[200];
	size_t off = (size_t)snprintf(line, sizeof(line), "%-8s", name);

	for (int f = 0; f < NF_COUNT; f++) {
		fmt_kb(kb[f], v[f], sizeof(v[f]));
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %9s", v[f]);
	}
	if (kb[NF_MEM_TOTAL])
		snprintf(line + off, sizeof(line) - off, " %6.1f",
			 100.0 * (double)(kb[NF_MEM_TOTAL] - kb[NF_MEM_FREE]) /
				 (double)kb[NF_MEM_TOTAL]);
	pane_add(p, role, "%s", line);
}

void nodes_draw(struct ui *u)
{
	static struct pane p;
	const struct snapshot *s = model_current(u->m);
	uint64_t all[NF_COUNT] = {0};
	char head[200], name[24];
	size_t off;

	p.n = 0;
	if (!s || !s->nnodes) {
		pane_add(&p, ROLE_WARNING,
			 "No NUMA node figures: the kernel has no "
			 "/sys/devices/system/node, or the recording has none");
		pane_show(&u->cv, "NUMA nodes", &p, &nodes_state.top, NODES_KEYS);
		return;
	}
	pane_add(&p, ROLE_LABEL, "Each node's memory (nodeN/meminfo), as numastat -m shows it");
	off = (size_t)snprintf(head, sizeof(head), "%-8s", "NODE");
	for (int f = 0; f < NF_COUNT; f++)
		off += (size_t)snprintf(head + off, sizeof(head) - off, " %9s",
					node_figures[f].label);
	snprintf(head + off, sizeof(head) - off, " %6s", "USED%");
	pane_add(&p, ROLE_TABLE_HEADER, "%s", head);
	for (size_t i = 0; i < s->nnodes; i++) {
		snprintf(name, sizeof(name), "%d", s->nodes[i].node);
		node_row(&p, ROLE_ROW, name, s->nodes[i].kb);
		for (int f = 0; f < NF_COUNT; f++)
			all[f] += s->nodes[i].kb[f];
	}
	node_row(&p, ROLE_VALUE, "All", all);
	pane_show(&u->cv, "NUMA nodes", &p, &nodes_state.top, NODES_KEYS);
}
