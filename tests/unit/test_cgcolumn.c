/* The CGROUP process column and the cgroup filter: the cell (container ids cut to 12
 * characters, the end kept), --cgroup and its normalized path, the model keeping the
 * processes in a cgroup or below it, the \ filter matching the cgroup, and what the model
 * asks the collector for while a cgroup filter is set. */
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "model.h"
#include "options.h"
#include "prefs.h"
#include "unit.h"

#define ID64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID63 "123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static const char *cell(const char *path, bool utf8, int width)
{
	static char buf[1024];
	size_t n = cgroup_cell(path, buf, sizeof(buf), utf8, width);
	assert_int_equal(n, strlen(buf));
	return buf;
}

static void cells(void **state)
{
	(void)state;
	assert_string_equal(cell("/", true, 24), "/");
	assert_string_equal(cell("/docker/" ID64, true, 0), "/docker/0123456789ab");
	assert_string_equal(cell("/system.slice/docker-" ID64 ".scope", true, 0),
			    "/system.slice/docker-0123456789ab.scope");
	/* 63 or 65 hex digits, or capitals, are no container id */
	assert_string_equal(cell("/x/" ID64 "0", true, 0), "/x/" ID64 "0");
	assert_string_equal(cell("/x/" ID63, true, 0), "/x/" ID63);
	assert_string_equal(
		cell("/x/0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF", true,
		     0),
		"/x/0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF");
	/* two ids in one path */
	assert_string_equal(cell("/" ID64 "/" ID64, true, 0), "/0123456789ab/0123456789ab");
	/* longer than the cell: its end, after ".." */
	assert_string_equal(cell("/kubepods/burstable/pod6f1d2b7e-8c3a/" ID64, true, 24),
			    "..2b7e-8c3a/0123456789ab");
	assert_string_equal(cell("/a/b/c/d/e/f/g/h/i/j/k/l/m", true, 10), "../j/k/l/m");
	assert_string_equal(cell("/user.slice/x", true, 13), "/user.slice/x");
	/* escaped before it is cut; the cut never splits a character */
	assert_string_equal(cell("/evil\x1b[2J\xe2\x80\xae", true, 0), "/evil\\e[2J\\u202e");
	assert_string_equal(cell("/aaaaaaaa/\xe5\x90\x8d\xe5\x89\x8d", true, 8),
			    "..\xe5\x90\x8d\xe5\x89\x8d");
	assert_string_equal(cell("/aaaaaaaa/\xe5\x90\x8d\xe5\x89\x8d", true, 7), "..\xe5\x89\x8d");
	/* an escape is never cut: without UTF-8 each byte is \xNN */
	assert_string_equal(cell("/aaaaaaaa/\xe5\x90\x8d\xe5\x89\x8d", false, 13), "..\\x89\\x8d");
	assert_string_equal(cell("/aaaaaaaa/\xe5\x90\x8d\xe5\x89\x8d", false, 9), "..\\x8d");
	assert_string_equal(cell("/aaaaaaaa/b\x1b", true, 5), "..b\\e");
}

static void cgroup_paths(void **state)
{
	(void)state;
	struct model_filter f = {0};
	char err[200];
	static const char *const given[][2] = {
		{"/", "/"},
		{"///", "/"},
		{"docker", "/docker"},
		{"/a/b/", "/a/b"},
		{"a//b//c//", "/a/b/c"},
		{"/sys tem.slice/x y", "/sys tem.slice/x y"},
	};
	for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++) {
		assert_int_equal(prefs_set_cgroup(&f, given[i][0], err, sizeof(err)), 0);
		assert_string_equal(f.cgroup, given[i][1]);
	}
	assert_int_equal(prefs_set_cgroup(&f, "", err, sizeof(err)), -1);
	assert_string_equal(f.cgroup, "/sys tem.slice/x y");
	char lng[MAX_CGROUP_PATH + 8];
	memset(lng, 'x', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = '\0';
	assert_int_equal(prefs_set_cgroup(&f, lng, err, sizeof(err)), -1);
	lng[MAX_CGROUP_PATH - 3] = '\0'; /* with the leading slash and the NUL: fits */
	assert_int_equal(prefs_set_cgroup(&f, lng, err, sizeof(err)), 0);
	assert_int_equal(strlen(f.cgroup), MAX_CGROUP_PATH - 2);
}

static void cgroup_flag(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	char *ok[] = {"memtop", "--cgroup", "system.slice/", "-b", NULL};
	assert_int_equal(options_parse(&o, 4, ok, err, sizeof(err)), 0);
	assert_string_equal(o.prefs.filter.cgroup, "/system.slice");
	char *none[] = {"memtop", "-b", NULL};
	assert_int_equal(options_parse(&o, 2, none, err, sizeof(err)), 0);
	assert_string_equal(o.prefs.filter.cgroup, "");
	char *empty[] = {"memtop", "--cgroup=", NULL};
	assert_int_equal(options_parse(&o, 2, empty, err, sizeof(err)), -1);
	assert_string_equal(err, "--cgroup needs a cgroup path (\"/\" for all)");
	char *missing[] = {"memtop", "--cgroup", NULL};
	assert_int_equal(options_parse(&o, 2, missing, err, sizeof(err)), -1);
	assert_int_equal(column_by_name("cgroup"), COL_CGROUP);
	assert_false(columns_default() & COL_BIT(COL_CGROUP));
}

static const char *const proc_cgroups[] = {
	"/", "/a", "/a/b", "/ab", "/a/b/c", NULL, "/system.slice/docker-" ID64 ".scope",
};
#define NPROCS (sizeof(proc_cgroups) / sizeof(proc_cgroups[0]))

static void push(struct model *m)
{
	struct snapshot *s = model_begin(m);
	s->mono = s->mono_procs = 10;
	s->uptime = 1000;
	s->hertz = 100;
	s->mem[MI_MEM_TOTAL] = 1000;
	for (size_t i = 0; i < NPROCS; i++) {
		struct proc_sample *p = snapshot_add_proc(s);
		p->pid = (int32_t)i + 1;
		p->start_ticks = 100;
		p->valid = columns_filled_by(NEED_STAT | NEED_STATM | NEED_CMDLINE);
		snprintf(p->comm, sizeof(p->comm), "proc%zu", i);
		p->cmd = "cmd";
		p->user = "root";
		p->cgroup = proc_cgroups[i];
		if (p->cgroup)
			p->valid |= COL_BIT(COL_CGROUP);
	}
	model_update(m);
}

/* the pids of the rows, as "1 2 3" */
static const char *rows(const struct model *m)
{
	static char buf[256];
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < m->nrows; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d", i ? " " : "",
				      m->rows[i]->p->pid);
	return buf;
}

static void filtering(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	char err[200];
	prefs_init(&pr);
	pr.sort = COL_PID;
	model_init(&m, &pr);
	push(&m);
	assert_string_equal(rows(&m), "1 2 3 4 5 6 7");
	assert_false(model_wanted(&m) & (COL_BIT(COL_CGROUP) | COL_ALL_CGROUPS));
	/* in it or below it: /ab is not below /a; a process whose cgroup is not known is left
	 * out */
	prefs_set_cgroup(&pr.filter, "/a", err, sizeof(err));
	model_refilter(&m);
	assert_string_equal(rows(&m), "2 3 5");
	assert_int_equal(model_wanted(&m) & (COL_BIT(COL_CGROUP) | COL_ALL_CGROUPS),
			 COL_BIT(COL_CGROUP) | COL_ALL_CGROUPS);
	prefs_set_cgroup(&pr.filter, "/a/b/", err, sizeof(err));
	model_refilter(&m);
	assert_string_equal(rows(&m), "3 5");
	prefs_set_cgroup(&pr.filter, "/", err, sizeof(err));
	model_refilter(&m);
	assert_string_equal(rows(&m), "1 2 3 4 5 7");
	pr.filter.cgroup[0] = '\0';
	/* the text filter matches the cgroup too, whole: a container id past its 12th digit */
	snprintf(pr.filter.text, sizeof(pr.filter.text), "89ABCDEF0123456789");
	model_refilter(&m);
	assert_string_equal(rows(&m), "7");
	snprintf(pr.filter.text, sizeof(pr.filter.text), "proc3");
	model_refilter(&m);
	assert_string_equal(rows(&m), "4");
	/* sorted by it: by the whole path; the unknown one first (as "") */
	pr.filter.text[0] = '\0';
	pr.sort = COL_CGROUP;
	model_refilter(&m);
	assert_string_equal(rows(&m), "6 1 2 3 5 4 7");
	model_free(&m);
}

UNIT_GROUP(cgcolumn)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cells),
		cmocka_unit_test(cgroup_paths),
		cmocka_unit_test(cgroup_flag),
		cmocka_unit_test(filtering),
	};
	return cmocka_run_group_tests_name("cgcolumn", tests, NULL, NULL);
}
