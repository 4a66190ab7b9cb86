#include <stdio.h>

#include "unit.h"

int main(void)
{
	int failed = 0;
	failed += run_procfs_tests();
	failed += run_numa_tests();
	failed += run_account_tests();
	failed += run_text_tests();
	failed += run_model_tests();
	failed += run_options_tests();
	failed += run_theme_tests();
	failed += run_kmsg_tests();
	failed += run_oom_merge_tests();
	failed += run_cells_tests();
	failed += run_detail_tests();
	failed += run_dd_tree_tests();
	failed += run_parse_tests();
	failed += run_util_tests();
	failed += run_sysfig_tests();
	failed += run_views_tests();
	failed += run_formats_tests();
	failed += run_cgroup_tests();
	failed += run_cgmodel_tests();
	failed += run_cgroup_live_tests();
	failed += run_cgkills_tests();
	failed += run_leaks_table_tests();
	failed += run_cgcolumn_tests();
	failed += run_cgkept_live_tests();
	failed += run_cgtree_tests();
	failed += run_history_tests();
	failed += run_slab_history_tests();
	failed += run_history_idle_tests();
	failed += run_verdict_tests();
	failed += run_graph_tests();
	failed += run_metric_tests();
	failed += run_groups_tests();
	failed += run_record_tests();
	failed += run_record_hostile_tests();
	failed += run_manual_tests();
	return failed ? 1 : 0;
}
