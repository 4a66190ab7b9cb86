/* cmocka unit tests: each file exposes one run function for its group. */
#ifndef MEMTOP_UNIT_H
#define MEMTOP_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

int run_procfs_tests(void);
int run_numa_tests(void);
int run_account_tests(void);
int run_text_tests(void);
int run_model_tests(void);
int run_options_tests(void);
int run_theme_tests(void);
int run_kmsg_tests(void);
int run_oom_merge_tests(void);
int run_cells_tests(void);
int run_detail_tests(void);
int run_dd_tree_tests(void);
int run_parse_tests(void);
int run_util_tests(void);
int run_sysfig_tests(void);
int run_views_tests(void);
int run_formats_tests(void);
int run_cgroup_tests(void);
int run_cgmodel_tests(void);
int run_cgroup_live_tests(void);
int run_cgkills_tests(void);
int run_leaks_table_tests(void);
int run_cgcolumn_tests(void);
int run_cgkept_live_tests(void);
int run_cgtree_tests(void);
int run_history_tests(void);
int run_slab_history_tests(void);
int run_history_idle_tests(void);
int run_verdict_tests(void);
int run_graph_tests(void);
int run_metric_tests(void);
int run_groups_tests(void);
int run_record_tests(void);
int run_record_hostile_tests(void);
int run_manual_tests(void);

#endif
