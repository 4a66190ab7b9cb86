/* NUMA: a node's meminfo (its figures, a key missing, corrupt text) and a process's
 * numa_maps summed as numastat -p sums them (the kinds, the page sizes, the nodes in
 * order, corrupt tokens); the dd_numa_line table. */
#include <string.h>

#include "detail_cli.h"
#include "numa.h"
#include "unit.h"

static const char node_meminfo[] = "Node 1 MemTotal:        7300892 kB\n"
				   "Node 1 MemFree:         5835452 kB\n"
				   "Node 1 MemUsed:         1465440 kB\n"
				   "Node 1 FilePages:        885000 kB\n"
				   "Node 1 AnonPages:        119500 kB\n"
				   "Node 1 Slab:             150000 kB\n"
				   "Node 1 SReclaimable:      90000 kB\n"
				   "Node 1 HugePages_Total:     0\n";

static void node_fields(void **state)
{
	(void)state;
	struct node_mem n = {.node = 1};
	assert_int_equal(parse_node_meminfo(node_meminfo, &n), 0);
	assert_int_equal(n.node, 1);
	assert_int_equal(n.kb[NF_MEM_TOTAL], 7300892);
	assert_int_equal(n.kb[NF_MEM_FREE], 5835452);
	assert_int_equal(n.kb[NF_FILE_PAGES], 885000);
	assert_int_equal(n.kb[NF_ANON_PAGES], 119500);
	assert_int_equal(n.kb[NF_SLAB], 150000); /* not SReclaimable */
}

static void node_corrupt(void **state)
{
	(void)state;
	struct node_mem n;
	assert_int_equal(parse_node_meminfo("", &n), -1);
	assert_int_equal(parse_node_meminfo("Node 0 MemFree: 5 kB\n", &n), -1);
	assert_int_equal(parse_node_meminfo("Node 0 MemTotal: x kB\n", &n), -1);
	assert_int_equal(parse_node_meminfo("MemTotal: 10 kB\n", &n), -1);
	assert_int_equal(parse_node_meminfo("Node 0 MemTotal: 10 kB\nNode 0 Slab: -3 kB\n", &n), 0);
	assert_int_equal(n.kb[NF_MEM_TOTAL], 10);
	assert_int_equal(n.kb[NF_SLAB], 0);
	assert_int_equal(parse_node_meminfo("Node 0 MemTotal: 99999999999999999999999 kB", &n), -1);
}

static void nodes_live(void **state)
{
	(void)state;
	struct node_mem nodes[MT_MAX_NODES];
	size_t n = numa_nodes_read(nodes, MT_MAX_NODES);
	for (size_t i = 0; i < n; i++) {
		assert_true(nodes[i].kb[NF_MEM_TOTAL] >= nodes[i].kb[NF_MEM_FREE]);
		if (i)
			assert_true(nodes[i].node > nodes[i - 1].node);
	}
}

static const char numa_maps[] =
	"55d4c6a00000 default file=/usr/bin/sleep mapped=2 N0=2 kernelpagesize_kB=4\n"
	"55d4c7c00000 default heap anon=4 dirty=4 N0=3 N1=1 kernelpagesize_kB=4\n"
	"7f0000000000 default anon=16384 dirty=16384 N1=16384 kernelpagesize_kB=4\n"
	"7f4000000000 default file=/dev/hugepages/x huge dirty=3 N0=3 kernelpagesize_kB=2048\n"
	"7ffc1a000000 default stack anon=3 dirty=3 N0=3 kernelpagesize_kB=4\n"
	"7ffc1b000000 default\n";

static void maps_sum(void **state)
{
	(void)state;
	struct numa_use u;
	assert_int_equal(parse_numa_maps(numa_maps, 4, &u), 0);
	assert_int_equal(u.nnodes, 2);
	assert_int_equal(u.nodes[0].node, 0);
	assert_int_equal(u.nodes[1].node, 1);
	assert_int_equal(u.nodes[0].kb[NK_PRIVATE], 8);
	assert_int_equal(u.nodes[0].kb[NK_HEAP], 12);
	assert_int_equal(u.nodes[1].kb[NK_HEAP], 4);
	assert_int_equal(u.nodes[1].kb[NK_PRIVATE], 65536);
	assert_int_equal(u.nodes[0].kb[NK_HUGE], 6144); /* 2 MiB pages */
	assert_int_equal(u.nodes[0].kb[NK_STACK], 12);
	assert_int_equal(numa_kind_total(&u, NK_HEAP), 16);
	assert_int_equal(numa_node_total(&u.nodes[0]), 8 + 12 + 6144 + 12);

	char line[200];
	dd_numa_line(&u, 0, 80, line, sizeof(line));
	assert_string_equal(line, "                Node 0      Node 1       Total");
	dd_numa_line(&u, 1 + NK_HUGE, 80, line, sizeof(line));
	assert_string_equal(line, "Huge              6.00        0.00        6.00");
	dd_numa_line(&u, DD_NUMA_LINES - 1, 80, line, sizeof(line));
	assert_string_equal(line, "Total             6.03       64.00       70.04");
	dd_numa_line(&u, DD_NUMA_LINES - 1, 40, line, sizeof(line)); /* one node fits */
	assert_string_equal(line, "Total             6.03       70.04");
}

static void maps_corrupt(void **state)
{
	(void)state;
	struct numa_use u;
	assert_int_equal(parse_numa_maps("", 4, &u), -1);
	assert_int_equal(parse_numa_maps("no mapping here\n", 4, &u), -1);
	/* tokens that are not node counts are left out; no page size: the one given */
	assert_int_equal(parse_numa_maps("1000 default N=3 Nx=1 N0= N0=-1 N2=5x N3=2\n", 8, &u), 0);
	assert_int_equal(u.nnodes, 1);
	assert_int_equal(u.nodes[0].node, 3);
	assert_int_equal(u.nodes[0].kb[NK_PRIVATE], 16);
	/* more nodes than a snapshot holds: the first ones */
	char many[400] = "1000 default";
	for (int i = MT_MAX_NODES + 2; i >= 0; i--) {
		char t[16];
		snprintf(t, sizeof(t), " N%d=1", i);
		strcat(many, t);
	}
	assert_int_equal(parse_numa_maps(many, 4, &u), 0);
	assert_int_equal(u.nnodes, MT_MAX_NODES);
}

UNIT_GROUP(numa)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(node_fields),	cmocka_unit_test(node_corrupt),
		cmocka_unit_test(nodes_live),	cmocka_unit_test(maps_sum),
		cmocka_unit_test(maps_corrupt),
	};
	return cmocka_run_group_tests_name("numa", tests, NULL, NULL);
}
