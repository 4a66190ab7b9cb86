#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "recfmt.h"
#include "sysfig.h"
#include "views.h"
#include "unit.h"

/* The next snapshot: memtop's own cost at time mono */
static void push(struct model *m, double mono, double cpu_s, bool stats, uint64_t run_ns)
{
	struct snapshot *s = model_begin(m);

	s->mono = s->mono_procs = mono;
	s->uptime = 1000 + mono;
	s->hertz = 100;
	s->mem[MI_MEM_TOTAL] = 1000;
	s->cost.cpu_s = cpu_s;
	s->cost.rss_kb = 9000;
	s->cost.bpf_stats = stats;
	s->cost.bpf_run_ns = run_ns;
	model_update(m);
}

static double value(const struct model *m, enum sf_id id, char *text, size_t size)
{
	const struct sys_figure *f = &sys_figures[id];

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
	assert_float_equal(value(&m, SF_SELF_CPU, text, sizeof(text)), 250, 1e-9);
	assert_string_equal(text, "250ms");
	assert_float_equal(value(&m, SF_SELF_RSS, text, sizeof(text)), 9000, 0);
	assert_false(sys_figure_valid(&sys_figures[SF_SELF_BPF_RUN], &m));
	json_self(&m, json, sizeof(json));
	assert_non_null(strstr(json, "\"cpu_ms_per_refresh\":250.00,\"rss_kb\":9000,"
				     "\"bpf_run_ns_per_s\":null}"));

	/* the statistics turned on since: not counted over the whole interval */
	push(&m, 11.0, 0.29, true, 1000);
	assert_float_equal(value(&m, SF_SELF_CPU, text, sizeof(text)), 40, 1e-9);
	assert_string_equal(text, "40.0ms");
	assert_false(sys_figure_valid(&sys_figures[SF_SELF_BPF_RUN], &m));

	/* on at both ends: the run time over the interval, per second */
	push(&m, 13.0, 0.2985, true, 7000);
	assert_float_equal(value(&m, SF_SELF_CPU, text, sizeof(text)), 8.5, 1e-9);
	assert_string_equal(text, "8.50ms");
	assert_true(sys_figure_valid(&sys_figures[SF_SELF_BPF_RUN], &m));
	assert_float_equal(value(&m, SF_SELF_BPF_RUN, text, sizeof(text)), 3000, 1e-9);
	assert_string_equal(text, "3.0us");
	json_self(&m, json, sizeof(json));
	assert_non_null(strstr(json, "\"cpu_ms_per_refresh\":8.50,\"rss_kb\":9000,"
				     "\"bpf_run_ns_per_s\":3000}"));

	push(&m, 14.0, 0.3, true, 7000 + 123456789);
	value(&m, SF_SELF_BPF_RUN, text, sizeof(text));
	assert_string_equal(text, "123ms");
	push(&m, 15.0, 0.3, true, 7000 + 123456789 + 850);
	value(&m, SF_SELF_BPF_RUN, text, sizeof(text));
	assert_string_equal(text, "850ns");

	/* off again: null */
	push(&m, 16.0, 0.3, false, 0);
	assert_false(sys_figure_valid(&sys_figures[SF_SELF_BPF_RUN], &m));
	model_free(&m);
}

/* Every row of sysfigs.def makes a whole figure, its JSON key once in its object, and every
 * /proc/meminfo and /proc/vmstat value is recorded */
static void declared(void **state)
{
	(void)state;
	size_t mem = 0, vm = 0;

	assert_int_equal(n_sys_figures, SF_NFIGURES);
	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *f = &sys_figures[i];
		assert_non_null(f->json);
		assert_non_null(f->get);
		assert_true(!f->metric == !f->help);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(sf_groups[f->group].json, sf_groups[sys_figures[j].group].json))
				assert_string_not_equal(f->json, sys_figures[j].json);
	}
	for (size_t i = 0; i < rec_nsys_fields; i++) {
		const char *name = rec_sys_fields[i].name;
		bool presence = strstr(name, ".presence") != NULL;
		mem += !strncmp(name, "mem.", 4) && !presence;
		vm += !strncmp(name, "vm.", 3) && !presence;
	}
	assert_int_equal(mem, MI_COUNT);
	assert_int_equal(vm, VS_COUNT);
	assert_string_equal(sys_figures[SF_MEM_AVAILABLE].json, "mem_available_kb");
	assert_string_equal(sys_figures[SF_PGFAULT].json, "pgfault");
}

/* A meminfo figure reads its snapshot value, a vmstat rate its counter's rate */
static void values(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;

	prefs_init(&pr);
	model_init(&m, &pr);
	for (int k = 0; k < 2; k++) {
		struct snapshot *s = model_begin(&m);
		s->mono = s->mono_procs = 10.0 + 2 * k;
		s->uptime = 1000;
		s->mem[MI_MEM_TOTAL] = 1000;
		s->mem[MI_MEM_AVAILABLE] = 600 + 10 * (uint64_t)k;
		s->vm[VS_PSWPOUT] = 50 + 8 * (uint64_t)k;
		model_update(&m);
	}
	assert_float_equal(sys_figures[SF_MEM_AVAILABLE].get(&m), 610, 0);
	assert_float_equal(sys_figures[SF_PSWPOUT].get(&m), 58, 0);
	assert_float_equal(sys_figures[SF_PSWPOUT_RATE].get(&m), 4, 1e-9);
	model_free(&m);
}

/* A value the kernel lacks makes its figures not valid (JSON null), a value it has valid,
 * also at 0; a snapshot whose presence fields are 0 (a recording made before them) has the
 * values recorded since the first recordings and not the later ones */
static void absent(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;

	prefs_init(&pr);
	model_init(&m, &pr);
	struct snapshot *s = model_begin(&m);
	s->mono = s->mono_procs = 10.0;
	s->uptime = 1000;
	s->mem[MI_MEM_TOTAL] = 1000;
	model_update(&m);
	assert_true(sys_figure_valid(&sys_figures[SF_SHMEM], &m));
	assert_true(sys_figure_valid(&sys_figures[SF_OOM_KILL], &m));
	assert_false(sys_figure_valid(&sys_figures[SF_SLAB], &m));
	assert_false(sys_figure_valid(&sys_figures[SF_ALLOCSTALL], &m));
	assert_false(sys_figure_valid(&sys_figures[SF_ALLOCSTALL_RATE], &m));
	assert_true(sys_figures[SF_SLAB].json_null && sys_figures[SF_ALLOCSTALL_RATE].json_null);

	s = model_begin(&m);
	s->mono = s->mono_procs = 12.0;
	s->mem[MI_MEM_TOTAL] = 1000;
	s->mem[MI_SLAB] = 0;
	s->vm[VS_ALLOCSTALL] = 10;
	s->mem_presence = (1ull << MI_SLAB) ^ (1ull << MI_SHMEM);
	s->vm_presence = 1ull << VS_ALLOCSTALL;
	model_update(&m);
	assert_true(sys_figure_valid(&sys_figures[SF_SLAB], &m));
	assert_false(sys_figure_valid(&sys_figures[SF_SHMEM], &m));
	assert_false(sys_figure_valid(&sys_figures[SF_ZSWAP], &m));
	assert_true(sys_figure_valid(&sys_figures[SF_ALLOCSTALL_RATE], &m));
	assert_float_equal(sys_figures[SF_SLAB].get(&m), 0, 0);
	assert_float_equal(sys_figures[SF_ALLOCSTALL].get(&m), 10, 0);
	assert_int_equal(sys_figures[SF_HUGEPAGES_TOTAL].unit, SF_NUMBER);
	assert_string_equal(sys_figures[SF_ALLOCSTALL_RATE].json, "allocstall_per_s");
	assert_string_equal(sys_figures[SF_ALLOCSTALL].metric, "vm_allocstall");
	model_free(&m);
}

/* A paging total: anon + file where the kernel counts them (they count a memory cgroup's
 * reclaim, which the reclaimers' lines leave out), else the reclaimers' lines; its rate
 * the same parts' */
static void paging_totals(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	const uint64_t by = 1ull << VS_PGSTEAL_KSWAPD | 1ull << VS_PGSTEAL_DIRECT |
			    1ull << VS_PGSCAN_KSWAPD | 1ull << VS_PGSCAN_DIRECT;
	const uint64_t split = 1ull << VS_PGSTEAL_ANON | 1ull << VS_PGSTEAL_FILE |
			       1ull << VS_PGSCAN_ANON | 1ull << VS_PGSCAN_FILE;

	prefs_init(&pr);
	model_init(&m, &pr);
	for (int k = 0; k < 4; k++) {
		struct snapshot *s = model_begin(&m);
		s->mono = s->mono_procs = 10.0 + 2 * k;
		s->uptime = 1000;
		s->mem[MI_MEM_TOTAL] = 1000;
		s->vm[VS_PGSTEAL_KSWAPD] = 100 + 10 * (uint64_t)k;
		s->vm[VS_PGSTEAL_DIRECT] = 50;
		s->vm[VS_PGSTEAL_ANON] = 1000 + 300 * (uint64_t)k;
		s->vm[VS_PGSTEAL_FILE] = 2000 + 100 * (uint64_t)k;
		s->vm[VS_PGSCAN_KSWAPD] = 400;
		s->vm[VS_PGSCAN_DIRECT] = 60 + 4 * (uint64_t)k;
		s->vm[VS_PGSCAN_ANON] = 5000;
		s->vm[VS_PGSCAN_FILE] = 6000 + 1000 * (uint64_t)k;
		/* a kernel before 5.8 (no _anon, _file), then one after, then neither */
		s->vm_presence = k < 2 ? by : k < 3 ? by | split : 0;
		model_update(&m);
		if (k == 1) {
			assert_true(sys_figure_valid(&sys_figures[SF_PGSTEAL], &m));
			assert_float_equal(sys_figures[SF_PGSTEAL].get(&m), 110 + 50, 0);
			assert_float_equal(sys_figures[SF_PGSTEAL_RATE].get(&m), 5, 1e-9);
			assert_float_equal(sys_figures[SF_PGSCAN].get(&m), 400 + 64, 0);
			assert_float_equal(sys_figures[SF_PGSCAN_RATE].get(&m), 2, 1e-9);
		}
	}
	/* k == 3: no line of either */
	assert_false(sys_figure_valid(&sys_figures[SF_PGSTEAL], &m));
	assert_false(sys_figure_valid(&sys_figures[SF_PGSCAN_RATE], &m));
	model_free(&m);

	model_init(&m, &pr);
	for (int k = 0; k < 2; k++) {
		struct snapshot *s = model_begin(&m);
		s->mono = s->mono_procs = 10.0 + 2 * k;
		s->uptime = 1000;
		s->mem[MI_MEM_TOTAL] = 1000;
		s->vm[VS_PGSTEAL_KSWAPD] = 100 + 10 * (uint64_t)k;
		s->vm[VS_PGSTEAL_ANON] = 1000 + 300 * (uint64_t)k;
		s->vm[VS_PGSTEAL_FILE] = 2000 + 100 * (uint64_t)k;
		s->vm[VS_PGSCAN_ANON] = 5000;
		s->vm[VS_PGSCAN_FILE] = 6000 + 1000 * (uint64_t)k;
		s->vm_presence = by | split;
		model_update(&m);
	}
	assert_float_equal(sys_figures[SF_PGSTEAL].get(&m), 1300 + 2100, 0);
	assert_float_equal(sys_figures[SF_PGSTEAL_RATE].get(&m), 200, 1e-9);
	assert_float_equal(sys_figures[SF_PGSCAN].get(&m), 5000 + 7000, 0);
	assert_float_equal(sys_figures[SF_PGSCAN_RATE].get(&m), 500, 1e-9);
	assert_string_equal(sys_figures[SF_PGSTEAL].metric, "vm_pgsteal");
	assert_string_equal(sys_figures[SF_PGSCAN_RATE].json, "pgscan_per_s");
	model_free(&m);
}

UNIT_GROUP(sysfig)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(declared),	 cmocka_unit_test(values),
		cmocka_unit_test(self_cost),	 cmocka_unit_test(absent),
		cmocka_unit_test(paging_totals),
	};
	return cmocka_run_group_tests_name("sysfig", tests, NULL, NULL);
}
