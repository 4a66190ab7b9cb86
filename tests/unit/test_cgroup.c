/* The cgroup reader on directory trees that reproduce the kernel's files:
 * tests/unit/cgroup2/ is a cgroup v2 hierarchy as Linux 6.x writes it (with one
 * cgroup's memory.stat as 5.4 wrote it, no swap files and no memory.pressure), copied to a
 * temporary directory for each test so that a test may remove or spoil a cgroup. A v1
 * tree is written here from the files of a real one. */
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "procfs.h"
#include "unit.h"

#define DOCKER                                                                                     \
	"/system.slice/"                                                                           \
	"docker-3f4e8a1c9b2d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f.scope"

static char tree[64]; /* the copy of the tree the test reads */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int copy_tree(void **state)
{
	(void)state;
	const char *tests = getenv("TESTS");
	char cmd[PATH_MAX * 2 + 32];
	snprintf(tree, sizeof(tree), "/tmp/memtop-cgtree.XXXXXX");
	if (!mkdtemp(tree))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -R '%s/unit/cgroup2/.' '%s'", tests ? tests : "tests", tree);
	return system(cmd) ? -1 : 0;
}

static int remove_tree(void **state)
{
	(void)state;
	rm_tree(tree);
	return 0;
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s%s", tree, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const struct cg_sample *find(const struct snapshot *s, const char *path)
{
	for (size_t i = 0; i < s->ncgroups; i++)
		if (!strcmp(s->cgroups[i].path, path))
			return &s->cgroups[i];
	return NULL;
}

static bool has(const struct cg_sample *c, int col)
{
	return (c->valid & CGCOL_BIT(col)) != 0;
}

static bool unlimited(const struct cg_sample *c, int col)
{
	return (c->unlimited & CGCOL_BIT(col)) != 0;
}

static const unsigned all = (1u << CGCOL_COUNT) - 1;

static void v2_tree_order(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(2, tree, "/");
	struct snapshot s;
	snapshot_init(&s);
	cg_list(r, &s);
	cg_read(r, &s, all);
	static const char *order[] = {"/",
				      "/init.scope",
				      "/system.slice",
				      DOCKER,
				      "/system.slice/nginx.service",
				      "/system.slice/postgresql.service",
				      "/user.slice",
				      "/user.slice/user-1000.slice",
				      "/user.slice/user-1000.slice/session-3.scope"};
	static const int depth[] = {0, 1, 1, 2, 2, 2, 1, 2, 3},
			 parent[] = {-1, 0, 0, 2, 2, 2, 0, 6, 7};
	assert_int_equal(s.ncgroups, 9);
	for (size_t i = 0; i < 9; i++) {
		char dir[PATH_MAX];
		struct stat st;
		assert_string_equal(s.cgroups[i].path, order[i]);
		assert_int_equal(s.cgroups[i].depth, depth[i]);
		assert_int_equal(s.cgroups[i].parent, parent[i]);
		snprintf(dir, sizeof(dir), "%s%s", tree, order[i]);
		assert_int_equal(stat(dir, &st), 0);
		assert_int_equal(s.cgroups[i].id, st.st_ino);
	}
	snapshot_free(&s);
	cg_close(r);
}

static void v2_figures(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(2, tree, "/");
	struct snapshot s;
	snapshot_init(&s);
	cg_list(r, &s);
	cg_read(r, &s, all);

	const struct cg_sample *n = find(&s, "/system.slice/nginx.service");
	assert_non_null(n);
	assert_int_equal(n->v[CGCOL_USAGE], 187842560 / 1024);
	assert_int_equal(n->v[CGCOL_LIMIT], 512 * 1024);
	assert_int_equal(n->v[CGCOL_HIGH], 448 * 1024);
	assert_true(has(n, CGCOL_LOW) && has(n, CGCOL_MIN) && !unlimited(n, CGCOL_LOW));
	assert_int_equal(n->v[CGCOL_LOW], 0);
	assert_int_equal(n->v[CGCOL_ANON], 120586240 / 1024);
	assert_int_equal(n->v[CGCOL_FILE], 58720256 / 1024);
	assert_int_equal(n->v[CGCOL_KERNEL], (8379264 + 4096) / 1024); /* kernel + sock */
	assert_int_equal(n->v[CGCOL_SWAP], 4096);
	assert_int_equal(n->v[CGCOL_SWAP_LIMIT], 256 * 1024);
	assert_int_equal(n->v[CGCOL_NPROCS], 5);
	assert_int_equal(n->v[CGCOL_OOM_KERNEL], 2);
	assert_int_equal(n->v[CGCOL_REFAULTS], 1500 + 48210);
	assert_int_equal(n->v[CGCOL_PSI_SOME], 125);
	assert_int_equal(n->v[CGCOL_PSI_FULL], 50);
	assert_int_equal(n->unlimited, 0);
	/* BPF's columns and the shares are not the reader's */
	assert_false(has(n, CGCOL_OOM_KILLS) || has(n, CGCOL_STALL) || has(n, CGCOL_USAGE_PCT));

	/* "max" limits */
	const struct cg_sample *sys = find(&s, "/system.slice");
	assert_true(has(sys, CGCOL_LIMIT) && unlimited(sys, CGCOL_LIMIT));
	assert_true(unlimited(sys, CGCOL_HIGH) && unlimited(sys, CGCOL_SWAP_LIMIT));
	assert_false(unlimited(sys, CGCOL_USAGE) || unlimited(sys, CGCOL_LOW));
	/* memory.events is the kernel's count for the subtree; processes are summed */
	assert_int_equal(sys->v[CGCOL_OOM_KERNEL], 3);
	assert_int_equal(sys->v[CGCOL_NPROCS], 2 + 5 + 7);
	/* a swap limit of 0 is a limit */
	const struct cg_sample *d = find(&s, DOCKER);
	assert_true(has(d, CGCOL_SWAP_LIMIT) && !unlimited(d, CGCOL_SWAP_LIMIT));
	assert_int_equal(d->v[CGCOL_SWAP_LIMIT], 0);
	assert_int_equal(d->v[CGCOL_PSI_SOME], 1250);
	assert_int_equal(d->v[CGCOL_PSI_FULL], 825);

	/* no swap files, no memory.pressure, memory.stat of Linux 5.4 */
	const struct cg_sample *pg = find(&s, "/system.slice/postgresql.service");
	assert_false(has(pg, CGCOL_SWAP) || has(pg, CGCOL_SWAP_LIMIT));
	assert_false(has(pg, CGCOL_PSI_SOME) || has(pg, CGCOL_PSI_FULL));
	assert_int_equal(pg->v[CGCOL_KERNEL], (3670016 + 12288 + 344064) / 1024);
	assert_int_equal(pg->v[CGCOL_REFAULTS], 7021);
	assert_int_equal(pg->v[CGCOL_LOW], 256 * 1024);
	assert_int_equal(pg->v[CGCOL_MIN], 64 * 1024);
	assert_int_equal(pg->v[CGCOL_USAGE], 422576128 / 1024);

	/* the root has no memory.current nor limits, but memory.stat and pressure */
	const struct cg_sample *root = &s.cgroups[0];
	assert_false(has(root, CGCOL_USAGE) || has(root, CGCOL_LIMIT) || has(root, CGCOL_HIGH));
	assert_false(has(root, CGCOL_OOM_KERNEL));
	assert_int_equal(root->v[CGCOL_ANON], 1048576);
	assert_int_equal(root->v[CGCOL_PSI_SOME], 85);
	assert_int_equal(root->v[CGCOL_NPROCS], 5 + 1 + 14 + 3);
	snapshot_free(&s);
	cg_close(r);
}

/* The costly files are read only for the columns asked for */
static void v2_only_asked(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(2, tree, "/");
	struct snapshot s;
	snapshot_init(&s);
	cg_list(r, &s);
	cg_read(r, &s, CGCOL_BIT(CGCOL_USAGE_PCT));
	const struct cg_sample *n = find(&s, "/system.slice/nginx.service");
	assert_int_equal(n->valid, CGCOL_BIT(CGCOL_USAGE) | CGCOL_BIT(CGCOL_LIMIT));
	unsigned cheap = cg_columns_cheap();
	assert_int_equal(cheap & (CGCOL_BIT(CGCOL_ANON) | CGCOL_BIT(CGCOL_NPROCS)), 0);
	assert_true(cheap & CGCOL_BIT(CGCOL_LIMIT));
	snapshot_free(&s);
	cg_close(r);
}

/* A cgroup removed between listing and reading is gone, without an error */
static void v2_removed(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(2, tree, "/");
	struct snapshot s;
	char dir[PATH_MAX];
	snapshot_init(&s);
	cg_list(r, &s);
	assert_int_equal(s.ncgroups, 9);
	snprintf(dir, sizeof(dir), "%s%s", tree, DOCKER);
	rm_tree(dir);
	snprintf(dir, sizeof(dir), "%s/user.slice/user-1000.slice", tree);
	rm_tree(dir);
	cg_read(r, &s, all);
	assert_int_equal(s.ncgroups, 6);
	assert_null(find(&s, DOCKER));
	assert_null(find(&s, "/user.slice/user-1000.slice/session-3.scope"));
	const struct cg_sample *n = find(&s, "/system.slice/nginx.service");
	assert_string_equal(s.cgroups[n->parent].path, "/system.slice");
	assert_int_equal(find(&s, "/system.slice")->v[CGCOL_NPROCS], 5 + 7);
	assert_int_equal(find(&s, "/user.slice")->v[CGCOL_NPROCS], 0);
	assert_int_equal(find(&s, "/user.slice")->parent, 0);
	/* and the next listing does not see them */
	snapshot_free(&s);
	cg_list(r, &s);
	assert_int_equal(s.ncgroups, 6);
	snapshot_free(&s);
	cg_close(r);
}

/* Spoiled files leave their figures unread and the others as they were */
static void v2_corrupt(void **state)
{
	(void)state;
	const char *n = "/system.slice/nginx.service";
	char rel[PATH_MAX];
#define SPOIL(file, text) (snprintf(rel, sizeof(rel), "%s/%s", n, file), put(rel, text))
	SPOIL("memory.current", "garbage\n");
	SPOIL("memory.max", "12x\n");
	SPOIL("memory.high", "");
	SPOIL("memory.low", "-1\n");
	SPOIL("memory.min", "max max\n");
	SPOIL("memory.stat", "anon\nfile 12 34\nkernel -5\nsock 1\nworkingset_refault_anon 1\n");
	SPOIL("memory.pressure", "some avg10=abc avg60=0.00 avg300=0.00 total=0\n"
				 "full avg10=101.00 avg60=0.00 avg300=0.00 total=0\n");
	SPOIL("cgroup.procs", "812\nabc\n");
	SPOIL("memory.events", "oom_kill 18446744073709551616\n");
	SPOIL("memory.swap.current", "4194304"); /* no newline: still a number */
	SPOIL("memory.swap.max", "\x01\x02\x03");
	struct cg_reader *r = cg_open_at(2, tree, "/");
	struct snapshot s;
	snapshot_init(&s);
	cg_list(r, &s);
	cg_read(r, &s, all);
	const struct cg_sample *c = find(&s, n);
	assert_non_null(c);
	assert_int_equal(c->valid, CGCOL_BIT(CGCOL_SWAP));
	assert_int_equal(c->v[CGCOL_SWAP], 4096);
	/* its siblings and parent are read as before; the parent's count lacks its own */
	assert_int_equal(find(&s, "/system.slice")->v[CGCOL_NPROCS], 2 + 7);
	assert_int_equal(find(&s, DOCKER)->v[CGCOL_USAGE], 254803968 / 1024);
	snapshot_free(&s);
	cg_close(r);
#undef SPOIL
}

/* A directory mounted as the hierarchy's root, as in a container: paths keep it */
static void v2_mounted_below_root(void **state)
{
	(void)state;
	char mount[PATH_MAX];
	snprintf(mount, sizeof(mount), "%s/system.slice", tree);
	struct cg_reader *r = cg_open_at(2, mount, "/system.slice");
	struct snapshot s;
	snapshot_init(&s);
	cg_list(r, &s);
	cg_read(r, &s, all);
	assert_int_equal(s.ncgroups, 4);
	assert_string_equal(s.cgroups[0].path, "/system.slice");
	assert_string_equal(s.cgroups[2].path, "/system.slice/nginx.service");
	assert_int_equal(s.cgroups[2].v[CGCOL_LIMIT], 512 * 1024);
	snapshot_free(&s);
	cg_close(r);
}

static void self_cgroup(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(2, tree, "/");
	struct cg_self me = {0};
	const uint64_t ram = 24 << 20; /* KiB */

	/* its own limit */
	cg_read_self(r, "0::/system.slice/nginx.service\n", ram, &me);
	assert_true(me.present && me.limited);
	assert_string_equal(me.path, "/system.slice/nginx.service");
	assert_int_equal(me.usage_kb, 187842560 / 1024);
	assert_int_equal(me.limit_kb, 512 * 1024);
	/* no limit up to the root */
	cg_read_self(r, "0::/system.slice/postgresql.service\n", ram, &me);
	assert_true(me.present && !me.limited);
	assert_string_equal(me.path, "/system.slice/postgresql.service");
	assert_int_equal(me.usage_kb, 422576128 / 1024);
	/* an ancestor's limit: that cgroup and its usage */
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/app", DOCKER);
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s%s", tree, rel);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/memory.current", rel);
	put(dir, "1048576\n");
	snprintf(dir, sizeof(dir), "%s/memory.max", rel);
	put(dir, "max\n");
	char text[512];
	snprintf(text, sizeof(text), "0::%s\n", rel);
	cg_read_self(r, text, ram, &me);
	assert_true(me.present && me.limited);
	assert_string_equal(me.path, DOCKER);
	assert_int_equal(me.usage_kb, 254803968 / 1024);
	assert_int_equal(me.limit_kb, 256 * 1024);
	/* a limit above MemTotal limits nothing */
	cg_read_self(r, text, 200 * 1024, &me);
	assert_true(me.present && !me.limited);
	assert_string_equal(me.path, rel);
	assert_int_equal(me.usage_kb, 1024);
	/* a cgroup that is not there, and text that names none */
	cg_read_self(r, "0::/gone\n", ram, &me);
	assert_false(me.present);
	assert_null(me.path);
	cg_read_self(r, "1:name=systemd:/x\n", ram, &me);
	assert_false(me.present);
	cg_close(r);
}

static void proc_cgroup_path(void **state)
{
	(void)state;
	char p[256];
	const char *v1 = "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/4c79\n0::/\n";
	assert_int_equal(parse_proc_cgroup(v1, 1, p, sizeof(p)), 0);
	assert_string_equal(p, "/process_api/4c79");
	assert_int_equal(parse_proc_cgroup(v1, 2, p, sizeof(p)), 0);
	assert_string_equal(p, "/");
	assert_int_equal(parse_proc_cgroup("5:cpu,memory:/a:b\n", 1, p, sizeof(p)), 0);
	assert_string_equal(p, "/a:b");
	assert_int_equal(parse_proc_cgroup("0::/user.slice/x.scope", 2, p, sizeof(p)), 0);
	assert_string_equal(p, "/user.slice/x.scope");
	assert_int_equal(parse_proc_cgroup("0::/user.slice\n", 1, p, sizeof(p)), -1);
	assert_int_equal(parse_proc_cgroup("4:memoryx:/a\n10::/b\n", 1, p, sizeof(p)), -1);
	assert_int_equal(parse_proc_cgroup("10::/b\n", 2, p, sizeof(p)), -1);
	assert_int_equal(parse_proc_cgroup("", 2, p, sizeof(p)), -1);
	assert_int_equal(parse_proc_cgroup(":::\n0:\n::\n0::x\n", 2, p, sizeof(p)), -1);
	assert_int_equal(parse_proc_cgroup("0::/a-long-path\n", 2, p, 8), -1);
}

static void find_hierarchy(void **state)
{
	(void)state;
	char mount[PATH_MAX], root[PATH_MAX], text[4 * PATH_MAX];
	/* this machine: v1 memory beside a cgroup2 without it */
	const char *v1 = "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
			 "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
			 "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup "
			 "rw,memory\n"
			 "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
	assert_int_equal(cg_find(v1, mount, sizeof(mount), root, sizeof(root)), 1);
	assert_string_equal(mount, "/sys/fs/cgroup/memory");
	assert_string_equal(root, "/");
	/* a container's: its cgroup mounted, optional fields */
	const char *box = "600 590 0:32 /docker/abc /sys/fs/cgroup/memory ro,nosuid shared:12 "
			  "master:3 - cgroup cgroup rw,cpuset,memory\n";
	assert_int_equal(cg_find(box, mount, sizeof(mount), root, sizeof(root)), 1);
	assert_string_equal(root, "/docker/abc");
	/* cgroup2 with memory among its controllers (the tree), at an escaped path */
	char spaced[PATH_MAX + 8], esc[PATH_MAX + 8];
	snprintf(spaced, sizeof(spaced), "%s/a b", tree);
	snprintf(esc, sizeof(esc), "%s/a\\040b", tree);
	assert_int_equal(mkdir(spaced, 0755), 0);
	put("/a b/cgroup.controllers", "cpu io pids\n");
	snprintf(text, sizeof(text),
		 "25 1 0:22 / %s rw - cgroup2 cgroup2 rw,nsdelegate\n"
		 "26 1 0:23 / %s rw - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n",
		 esc, tree);
	assert_int_equal(cg_find(text, mount, sizeof(mount), root, sizeof(root)), 2);
	assert_string_equal(mount, tree);
	/* only the one without memory: none */
	snprintf(text, sizeof(text), "25 1 0:22 / %s rw - cgroup2 cgroup2 rw\n", esc);
	assert_int_equal(cg_find(text, mount, sizeof(mount), root, sizeof(root)), 0);
	put("/a b/cgroup.controllers", "cpu io memory pids\n");
	assert_int_equal(cg_find(text, mount, sizeof(mount), root, sizeof(root)), 2);
	assert_string_equal(mount, spaced);
	/* junk */
	assert_int_equal(cg_find("", mount, sizeof(mount), root, sizeof(root)), 0);
	assert_int_equal(cg_find("1 2 3 4 5 6 - cgroup\n- - -\n\n\n1 2\n", mount, sizeof(mount),
				 root, sizeof(root)),
			 0);
	assert_int_equal(cg_find("1 2 3 / /m rw - cgroup cgroup rw,memory_x\n", mount,
				 sizeof(mount), root, sizeof(root)),
			 0);
}

/* A v1 tree in the kernel's file formats (as this machine's v1 writes them) */
static void v1_tree(void **state)
{
	(void)state;
	const char *huge = "9223372036854771712\n";
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/v1", tree);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/v1/box", tree);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/v1/box/job", tree);
	assert_int_equal(mkdir(dir, 0755), 0);
	put("/v1/memory.usage_in_bytes", "556830720\n");
	put("/v1/memory.limit_in_bytes", huge);
	put("/v1/memory.memsw.usage_in_bytes", "556830720\n");
	put("/v1/memory.memsw.limit_in_bytes", huge);
	put("/v1/memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n");
	put("/v1/cgroup.procs", "1\n2\n");
	put("/v1/box/memory.usage_in_bytes", "67108864\n");
	put("/v1/box/memory.limit_in_bytes", "134217728\n");
	put("/v1/box/memory.soft_limit_in_bytes", huge);
	put("/v1/box/memory.memsw.usage_in_bytes", "75497472\n");
	put("/v1/box/memory.memsw.limit_in_bytes", "201326592\n");
	put("/v1/box/memory.kmem.usage_in_bytes", "1310720\n");
	put("/v1/box/memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
	put("/v1/box/memory.stat", "cache 4096\nrss 8192\nworkingset_refault_anon 1\n"
				   "workingset_refault_file 2\nswap 0\n"
				   "hierarchical_memory_limit 134217728\n"
				   "total_cache 12582912\ntotal_rss 52428800\n"
				   "total_workingset_refault_anon 181\n"
				   "total_workingset_refault_file 2521\ntotal_swap 8388608\n");
	put("/v1/box/cgroup.procs", "");
	put("/v1/box/job/memory.usage_in_bytes", "62914560\n");
	put("/v1/box/job/memory.limit_in_bytes", huge);
	put("/v1/box/job/memory.soft_limit_in_bytes", "33554432\n");
	put("/v1/box/job/memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
	put("/v1/box/job/cgroup.procs", "300\n301\n302\n");
	snprintf(dir, sizeof(dir), "%s/v1", tree);
	struct cg_reader *r = cg_open_at(1, dir, "/");
	struct snapshot s;
	snapshot_init(&s);
	cg_list(r, &s);
	cg_read(r, &s, all);
	assert_int_equal(s.ncgroups, 3);
	const struct cg_sample *root = find(&s, "/"), *box = find(&s, "/box");
	const struct cg_sample *job = find(&s, "/box/job");
	assert_true(unlimited(root, CGCOL_LIMIT) && unlimited(root, CGCOL_SWAP_LIMIT));
	assert_int_equal(root->v[CGCOL_SWAP], 0);
	assert_int_equal(box->v[CGCOL_LIMIT], 128 * 1024);
	assert_int_equal(box->v[CGCOL_SWAP], 8 * 1024); /* memsw less usage */
	assert_int_equal(box->v[CGCOL_SWAP_LIMIT], 64 * 1024);
	assert_true(unlimited(box, CGCOL_LOW));
	assert_int_equal(box->v[CGCOL_ANON], 50 * 1024); /* total_ keys */
	assert_int_equal(box->v[CGCOL_FILE], 12 * 1024);
	assert_int_equal(box->v[CGCOL_KERNEL], 1280);
	assert_int_equal(box->v[CGCOL_REFAULTS], 181 + 2521);
	assert_false(has(box, CGCOL_HIGH) || has(box, CGCOL_MIN) || has(box, CGCOL_PSI_SOME));
	/* each cgroup's own kills and processes, summed over the subtree */
	assert_int_equal(job->v[CGCOL_OOM_KERNEL], 2);
	assert_int_equal(box->v[CGCOL_OOM_KERNEL], 3);
	assert_int_equal(root->v[CGCOL_OOM_KERNEL], 3);
	assert_int_equal(box->v[CGCOL_NPROCS], 3);
	assert_int_equal(root->v[CGCOL_NPROCS], 5);
	/* no memsw files (swap accounting off): no swap figures */
	assert_false(has(job, CGCOL_SWAP) || has(job, CGCOL_SWAP_LIMIT) || has(job, CGCOL_ANON));
	assert_int_equal(job->v[CGCOL_LOW], 32 * 1024);
	snapshot_free(&s);
	cg_close(r);
}

static void no_hierarchy(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(0, "/nonexistent", "/");
	struct snapshot s;
	snapshot_init(&s);
	cg_collect(r, &s, all, true);
	assert_int_equal(s.ncgroups, 0);
	assert_int_equal(s.cg_version, 0);
	assert_false(s.cg_self.present);
	snapshot_free(&s);
	cg_close(r);
	cg_close(NULL);
}

UNIT_GROUP(cgroup)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(v2_tree_order, copy_tree, remove_tree),
		cmocka_unit_test_setup_teardown(v2_figures, copy_tree, remove_tree),
		cmocka_unit_test_setup_teardown(v2_only_asked, copy_tree, remove_tree),
		cmocka_unit_test_setup_teardown(v2_removed, copy_tree, remove_tree),
		cmocka_unit_test_setup_teardown(v2_corrupt, copy_tree, remove_tree),
		cmocka_unit_test_setup_teardown(v2_mounted_below_root, copy_tree, remove_tree),
		cmocka_unit_test_setup_teardown(self_cgroup, copy_tree, remove_tree),
		cmocka_unit_test(proc_cgroup_path),
		cmocka_unit_test_setup_teardown(find_hierarchy, copy_tree, remove_tree),
		cmocka_unit_test_setup_teardown(v1_tree, copy_tree, remove_tree),
		cmocka_unit_test(no_hierarchy),
	};
	return cmocka_run_group_tests_name("cgroup", tests, NULL, NULL);
}
