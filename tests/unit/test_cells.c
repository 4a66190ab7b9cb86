#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "unit.h"

static void cells_format_each_unit(void **state)
{
	(void)state;
	struct proc_sample p = {.pid = 4242, .valid = ~0u};
	p.fig[PV_RSS] = 2048;
	snprintf(p.comm, sizeof(p.comm), "ev\x1bil");
	p.cmd = "cmd \x1b[2J arg";
	p.user = "root";
	struct row r = {.p = &p};
	row_set(&r, COL_MEM_PCT, 12.345);
	row_set(&r, COL_MINFLT, 1234.4);
	char b[128];
	cell_text(&r, COL_PID, b, sizeof(b), true);
	assert_string_equal(b, "4242");
	cell_text(&r, COL_RSS, b, sizeof(b), true);
	assert_string_equal(b, "2.0M");
	cell_text(&r, COL_MEM_PCT, b, sizeof(b), true);
	assert_string_equal(b, "12.3");
	cell_text(&r, COL_MINFLT, b, sizeof(b), true);
	assert_string_equal(b, "1234");
	cell_text(&r, COL_COMM, b, sizeof(b), true);
	assert_string_equal(b, "ev\\eil");
	cell_text(&r, COL_CMD, b, sizeof(b), true);
	assert_string_equal(b, "cmd \\e[2J arg");
}

static void cells_without_a_collector_show_a_dash(void **state)
{
	(void)state;
	struct proc_sample p = {.pid = 1, .valid = columns_filled_by(NEED_STAT | NEED_STATM)};
	struct row r = {.p = &p};
	char b[16];
	cell_text(&r, COL_SWAP, b, sizeof(b), true);
	assert_string_equal(b, "-");
	cell_text(&r, COL_SWAPIN, b, sizeof(b), true);
	assert_string_equal(b, "-");
	cell_text(&r, COL_RECLAIM, b, sizeof(b), true);
	assert_string_equal(b, "-");
	p.valid |= COL_BIT(COL_SWAP) | COL_BIT(COL_SWAPIN) | COL_BIT(COL_RECLAIM);
	cell_text(&r, COL_SWAP, b, sizeof(b), true);
	assert_string_equal(b, "0K");
	cell_text(&r, COL_SWAPIN, b, sizeof(b), true);
	assert_string_equal(b, "0");
}

static void oom_line_is_escaped(void **state)
{
	(void)state;
	struct mt_event e = {.type = MT_EV_OOM_KILL,
			     .pid = 77,
			     .uid = 1000,
			     .anon_rss_kb = 65536,
			     .trigger_pid = 78};
	snprintf(e.comm, sizeof(e.comm), "hog\x1b[31m");
	snprintf(e.trigger_comm, sizeof(e.trigger_comm), "parent");
	snprintf(e.memcg, sizeof(e.memcg), "/jobs/a");
	char b[256];
	fmt_oom_line(&e, b, sizeof(b), true);
	assert_non_null(strstr(b, "OOM kill: pid 77 (hog\\e[31m) uid 1000 anon 64M"));
	assert_non_null(strstr(b, "memcg /jobs/a by pid 78 (parent)"));
	assert_null(strchr(b, '\x1b'));
}

static void swapin_mode_says_the_cost(void **state)
{
	(void)state;
	struct bpf_state b = {0};

	assert_string_equal(swapin_mode_text(&b), "");
	snprintf(b.swapin_mode, sizeof(b.swapin_mode), "idle");
	assert_string_equal(swapin_mode_text(&b), "");
	snprintf(b.swapin_mode, sizeof(b.swapin_mode), "bio");
	assert_string_equal(swapin_mode_text(&b), ", swap-ins counted at the block layer");
	snprintf(b.swapin_mode, sizeof(b.swapin_mode), "memcg");
	assert_string_equal(swapin_mode_text(&b), ", swap-ins counted per fault");
}

UNIT_GROUP(cells)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cells_format_each_unit),
		cmocka_unit_test(cells_without_a_collector_show_a_dash),
		cmocka_unit_test(oom_line_is_escaped),
		cmocka_unit_test(swapin_mode_says_the_cost),
	};
	return cmocka_run_group_tests_name("cells", tests, NULL, NULL);
}
