#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "sysfig.h"
#include "views.h"
#include "unit.h"

static const struct sys_figure *figure(const char *json)
{
	for (size_t i = 0; i < n_sys_figures; i++)
		if (!strcmp(sys_figures[i].json, json))
			return &sys_figures[i];
	fail_msg("no system figure %s", json);
	return NULL;
}

/* The next snapshot: memtop's own cost at time mono */
static void push(struct model *m, double mono, double cpu_s, bool stats, uint64_t run_ns)
{
	struct snapshot *s = model_begin(m);

	s->mono = s->mono_procs = mono;
	s->uptime = 1000 + mono;
	s->hertz = 100;
	s->mem.mem_total_kb = 1000;
	s->cost.cpu_s = cpu_s;
	s->cost.rss_kb = 9000;
	s->cost.bpf_stats = stats;
	s->cost.bpf_run_ns = run_ns;
	model_update(m);
}

static double value(const struct model *m, const char *json, char *text, size_t size)
{
	const struct sys_figure *f = figure(json);

	sys_figure_text(f, m, text, size);
	return f->get(m);
}

/* The "self" object of the JSON line of the model now */
static void json_self(const struct model *m, char *buf, size_t size)
{
	struct view_info vi = {.delay = 1, .version = "test"};
	char *line = NULL, *self;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	view_json(f, m, &vi);
	fclose(f);
	self = strstr(line, "\"self\":{");
	assert_non_null(self);
	snprintf(buf, size, "%s", self);
	free(line);
}

static void self_cost(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	char text[32], json[512];

	prefs_init(&pr);
	model_init(&m, &pr);
	/* the first refresh: the CPU time since start; no run time without an interval */
	push(&m, 10.0, 0.25, false, 0);
	assert_float_equal(value(&m, "cpu_ms_per_refresh", text, sizeof(text)), 250, 1e-9);
	assert_string_equal(text, "250ms");
	assert_float_equal(value(&m, "rss_kb", text, sizeof(text)), 9000, 0);
	assert_false(sys_figure_valid(figure("bpf_run_ns_per_s"), &m));
	json_self(&m, json, sizeof(json));
	assert_non_null(strstr(json, "\"cpu_ms_per_refresh\":250.00,\"rss_kb\":9000,"
				     "\"bpf_run_ns_per_s\":null}"));

	/* the statistics turned on since: not counted over the whole interval */
	push(&m, 11.0, 0.29, true, 1000);
	assert_float_equal(value(&m, "cpu_ms_per_refresh", text, sizeof(text)), 40, 1e-9);
	assert_string_equal(text, "40.0ms");
	assert_false(sys_figure_valid(figure("bpf_run_ns_per_s"), &m));

	/* on at both ends: the run time over the interval, per second */
	push(&m, 13.0, 0.2985, true, 7000);
	assert_float_equal(value(&m, "cpu_ms_per_refresh", text, sizeof(text)), 8.5, 1e-9);
	assert_string_equal(text, "8.50ms");
	assert_true(sys_figure_valid(figure("bpf_run_ns_per_s"), &m));
	assert_float_equal(value(&m, "bpf_run_ns_per_s", text, sizeof(text)), 3000, 1e-9);
	assert_string_equal(text, "3.0us");
	json_self(&m, json, sizeof(json));
	assert_non_null(strstr(json, "\"cpu_ms_per_refresh\":8.50,\"rss_kb\":9000,"
				     "\"bpf_run_ns_per_s\":3000}"));

	push(&m, 14.0, 0.3, true, 7000 + 123456789);
	value(&m, "bpf_run_ns_per_s", text, sizeof(text));
	assert_string_equal(text, "123ms");
	push(&m, 15.0, 0.3, true, 7000 + 123456789 + 850);
	value(&m, "bpf_run_ns_per_s", text, sizeof(text));
	assert_string_equal(text, "850ns");

	/* off again: null */
	push(&m, 16.0, 0.3, false, 0);
	assert_false(sys_figure_valid(figure("bpf_run_ns_per_s"), &m));
	model_free(&m);
}

int run_sysfig_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(self_cost),
	};
	return cmocka_run_group_tests_name("sysfig", tests, NULL, NULL);
}
