/* --groups: the rules file as YAML writes it (flow and block lists, quotes, comments),
 * its errors by line; the groups made from a model's snapshots: the first rule wins, at
 * most GROUPS_MAX names then "other", counters kept across a member's exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "groups.h"
#include "unit.h"

static char path[64];

static void write_file(const char *text)
{
	snprintf(path, sizeof(path), "/tmp/memtop-unit-groups.%d", getpid());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void rules_as_yaml_writes_them(void **state)
{
	(void)state;
	struct group_rules g;
	char err[512];

	write_file("--- # a comment\n"
		   "process_names:\n"
		   "  - name: \"{{.Comm}}-{{ .Username }}\"\n"
		   "    comm: [postgres, 'ngi''nx', \"a,b\" ]  # trailing\n"
		   "  - cmdline: ['^/usr/bin/make\\b']\n"
		   "    user:\n"
		   "    - root\n"
		   "    - \"1000\"\n"
		   "\n"
		   "  - exe: /usr/bin/python3\n");
	if (group_rules_read(&g, path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.r[0].m[GM_COMM].n, 3);
	assert_string_equal(g.r[0].m[GM_COMM].s[1], "ngi'nx");
	assert_string_equal(g.r[0].m[GM_COMM].s[2], "a,b");
	assert_int_equal(g.r[0].name.nfields, 2);
	assert_int_equal(g.r[0].name.field[1], GF_USERNAME);
	assert_string_equal(g.r[0].name.text[1], "-");
	assert_string_equal(g.r[1].m[GM_CMDLINE].s[0], "^/usr/bin/make\\b");
	assert_int_equal(g.r[1].m[GM_USER].n, 2);
	assert_string_equal(g.r[1].m[GM_USER].s[1], "1000");
	assert_int_equal(g.r[1].line, 5);
	assert_int_equal(g.r[2].name.field[0], GF_EXE_BASE); /* no name: {{.ExeBase}} */
	assert_false(group_rules_need_cgroups(&g));
	group_rules_free(&g);

	static const struct {
		const char *text, *err;
	} bad[] = {
		{"process_names:\n  - comm: [a]\n    cgroup: ['(']\n", ":3: cgroup: '(' is not"},
		{"process_names:\n  - comm: [a]\n  - name: x\n", ":3: a rule with no matcher"},
		{"process_names:\n  - name: x\n  - comm: [a]\n", ":2: a rule with no matcher"},
		{"process_names:\n    - a\n", ":2: 'a': a list item after no list key"},
		{"other:\n", ":1: 'other:': memtop reads process_names: alone"},
		{"process_names:\n  - comm: [a] b\n", ":2: comm: text after the list's ']'"},
		{"process_names:\n  - name: '{{.Comm'\n    comm: [a]\n", ":2: name: '{{' without"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(bad[i].text);
		assert_int_equal(group_rules_read(&g, path, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].err))
			fail_msg("'%s': %s", bad[i].text, err);
		assert_int_equal(g.n, 0);
	}
	unlink(path);
}

/* A snapshot of n processes: pid first + i, cmd "/x/p<i % names>", minflt faults[i] */
static void push(struct model *m, double mono, int32_t first, size_t n, size_t names,
		 const uint64_t *faults)
{
	static char cmds[2000][16];
	struct snapshot *s = model_begin(m);

	s->mono = s->mono_procs = mono;
	s->uptime = 1000 + mono;
	s->hertz = 100;
	s->mem[MI_MEM_TOTAL] = 1000000;
	for (size_t i = 0; i < n; i++) {
		struct proc_sample *p = snapshot_add_proc(s);
		p->pid = first + (int32_t)i;
		p->start_ticks = 50000;
		p->fig[PV_RSS] = 10;
		p->fig[PV_MINFLT] = faults ? faults[i] : 0;
		p->valid = columns_filled_by(NEED_STAT | NEED_STATM | NEED_CMDLINE);
		snprintf(p->comm, sizeof(p->comm), "p");
		snprintf(cmds[i], sizeof(cmds[i]), "/x/p%zu", i % names);
		p->cmd = cmds[i];
		p->user = "root";
	}
	model_update(m);
}

static const struct group_total *group(const struct groups *gs, const char *name)
{
	for (size_t i = 0; i < gs->n; i++)
		if (!strcmp(gs->g[i].name, name))
			return &gs->g[i];
	return NULL;
}

static void refresh(struct groups *gs, const struct model *m)
{
	int32_t *pids;
	groups_match(gs, m, &pids);
	groups_sum(gs, m);
}

/* An empty model and the groups of the rules in yaml */
static void setup(struct model *m, struct prefs *pr, struct groups *gs, const char *yaml)
{
	char err[512];

	prefs_init(pr);
	model_init(m, pr);
	write_file(yaml);
	if (groups_load(gs, path, err, sizeof(err)))
		fail_msg("%s", err);
	unlink(path);
}

static void names_bounded_by_other(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	struct groups gs;

	setup(&m, &pr, &gs, "process_names:\n  - name: '{{.ExeFull}}'\n    cmdline: ['^/x/']\n");
	push(&m, 10, 100, GROUPS_MAX + 100, GROUPS_MAX + 100, NULL);
	refresh(&gs, &m);
	assert_int_equal(gs.n, GROUPS_MAX + 1);
	assert_non_null(group(&gs, "/x/p0"));
	assert_non_null(group(&gs, "/x/p999"));
	assert_null(group(&gs, "/x/p1000"));
	assert_int_equal(group(&gs, "other")->v[GROUPCOL_PROCS], 100);
	assert_int_equal(group(&gs, "other")->v[GROUPCOL_RSS], 1000);
	groups_free(&gs);
	model_free(&m);
}

static void counters_kept_across_exits(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	struct groups gs;

	/* p0 and p1 in gp0 and gp1 by {{.Matches}}, p2 in "never" (the first rule wins: p0
	 * and p1 are never in it) */
	setup(&m, &pr, &gs,
	      "process_names:\n"
	      "  - name: 'g{{.Matches}}'\n    cmdline: ['p[01]$']\n"
	      "  - name: never\n    comm: [p]\n    exe: [p0, p1, p2]\n");
	uint64_t f1[] = {1000, 500, 300, 7}, f2[] = {1100, 600, 400};
	push(&m, 10, 100, 4, 4, f1); /* pids 100-103: p0, p1, p2 (in never), p3 (none) */
	refresh(&gs, &m);
	assert_int_equal(group(&gs, "gp0")->v[GROUPCOL_MINFLT], 1000);
	assert_int_equal(group(&gs, "gp1")->v[GROUPCOL_MINFLT], 500);
	assert_int_equal(group(&gs, "never")->v[GROUPCOL_PROCS], 1);
	assert_int_equal(gs.n, 3);
	/* pid 100 (p0) exits; 101, 102, 103 are now p0, p1, p2 (an exec each) */
	push(&m, 12, 101, 3, 3, f2);
	refresh(&gs, &m);
	/* gp0: the exited 1000 kept, plus pid 101 as p0 (1100) */
	assert_int_equal(group(&gs, "gp0")->v[GROUPCOL_MINFLT], 2100);
	/* gp1: pid 101 left it (500 kept), pid 102 joined (600) */
	assert_int_equal(group(&gs, "gp1")->v[GROUPCOL_MINFLT], 1100);
	assert_int_equal(group(&gs, "gp1")->v[GROUPCOL_PROCS], 1);
	/* never: pid 102 left it for gp1, its 300 stay; pid 103 joined as p2 (400) */
	assert_int_equal(group(&gs, "never")->v[GROUPCOL_PROCS], 1);
	assert_int_equal(group(&gs, "never")->v[GROUPCOL_MINFLT], 700);
	/* the rate over the 2 s: (2100 - 1000) / 2 */
	assert_true(group(&gs, "gp0")->valid & TABLE_BIT(GROUPCOL_MINFLT));
	assert_float_equal(group(&gs, "gp0")->num[GROUPCOL_MINFLT], 550.0, 1e-9);
	groups_free(&gs);
	model_free(&m);
}

UNIT_GROUP(groups)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rules_as_yaml_writes_them),
		cmocka_unit_test(names_bounded_by_other),
		cmocka_unit_test(counters_kept_across_exits),
	};
	return cmocka_run_group_tests_name("groups", tests, NULL, NULL);
}
