/* The batch text, the JSON, the sort orders and the screen's table of one fixed set of
 * processes, compared byte for byte with the files in tests/unit/views/. Those files were
 * written by memtop's views as they were before their formatting was rewritten for speed
 * (snprintf, fprintf and qsort throughout): a byte changed in any of these outputs fails
 * here. MEMTOP_WRITE_VIEWS=1 writes the files again from the code as it is, for a change of
 * output that is meant.
 *
 * The processes are made up, from a fixed seed, to reach what the formatting has to get
 * right: sizes at the edges of each unit and rounding, rates and shares at the edges of
 * their decimals, names and command lines that need escaping (UTF-8, invalid bytes,
 * controls, invisible characters, wide characters), command lines longer than a cell,
 * where the cut falls inside a character, a tree deeper than 64 levels, a parent loop,
 * kernel threads, figures a collector did not read, processes new in the second refresh
 * and a reused pid. */
#include <curses.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "draw_table.h"
#include "growth.h"
#include "main_view.h"
#include "theme.h"
#include "unit.h"
#include "views.h"

#define NFAKE	  120
#define MEM_TOTAL 24598212ull

static uint64_t seed;

static uint64_t rnd(void)
{
	seed ^= seed >> 12;
	seed ^= seed << 25;
	seed ^= seed >> 27;
	return seed * 2685821657736338717ull;
}

/* a value of 0 to bits bits, each length as likely */
static uint64_t rnd_bits(unsigned bits)
{
	unsigned b = (unsigned)(rnd() % (bits + 1));
	return b ? rnd() >> (64 - b) : 0;
}

struct fake {
	int32_t pid, ppid;
	uint64_t start[2]; /* start_ticks in each refresh (a reused pid differs) */
	bool in[2];	   /* seen in the first, the second refresh */
	bool kthread;
	uint32_t uid;
	const char *comm, *cmd, *user, *cgroup;
	uint64_t v[2][COL_COUNT];
	unsigned valid;
};

static struct fake fakes[NFAKE];
static char long_cmds[6][1100];

/* Where fmt_kb changes unit or rounding, and the shares where %MEM changes decimals */
static uint64_t kb_value(void)
{
	static const uint64_t edges[] = {0,
					 1,
					 999,
					 1000,
					 1023,
					 1024,
					 1075,
					 1076,
					 10188,
					 10189,
					 102348,
					 102349,
					 1023487,
					 1023488,
					 1023999,
					 1024000,
					 10433331,
					 10433332,
					 1048575999,
					 1048576000,
					 1073741823999ull,
					 1073741824000ull,
					 1099511627776000ull,
					 MEM_TOTAL,
					 MEM_TOTAL * 9995 / 10000,
					 MEM_TOTAL * 9995 / 10000 + 1,
					 MEM_TOTAL * 995 / 10000,
					 MEM_TOTAL * 995 / 10000 + 1,
					 MEM_TOTAL * 5 / 10000,
					 MEM_TOTAL * 5 / 10000 + 1,
					 MEM_TOTAL * 3};
	uint64_t r = rnd();
	if (r % 3 == 0)
		return edges[(r >> 8) % (sizeof(edges) / sizeof(edges[0]))];
	return rnd_bits(44);
}

/* a counter's growth over the interval: mostly none, else small or any size */
static uint64_t growth(void)
{
	uint64_t r = rnd() % 8;
	if (r < 4)
		return 0;
	if (r < 6)
		return 1 + rnd() % 40;
	return rnd_bits(44);
}

static void make_long_cmds(void)
{
	/* é (2 bytes), 名 (3), U+202E (3, escaped as 6), ESC (escaped as 2), a tag (4,
	 * escaped as 10): the 1023-byte cut falls on each kind of boundary in one of them */
	static const char *const pieces[] = {
		"\xc3\xa9", "\xe5\x90\x8d", "\xe2\x80\xae", "\x1b", "\xf3\xa0\x80\x81", "ab",
		"/",	    " -x"};
	for (size_t k = 0; k < 6; k++) {
		char *c = long_cmds[k];
		size_t n = (size_t)snprintf(c, sizeof(long_cmds[k]), "/opt/%.*s/long", (int)k,
					    "xxxxx");
		while (n + 8 < sizeof(long_cmds[k])) {
			const char *p = pieces[rnd() % 8];
			memcpy(c + n, p, strlen(p));
			n += strlen(p);
		}
		c[n] = '\0';
	}
}

/* Memory cgroups, each process's by its index (not drawn from the seed, which the other
 * figures keep): container ids cut on screen, one a digit too long to be one, text that
 * needs escaping, a path longer than its cell whose cut falls inside a character */
static const char *const cgroup_paths[] = {
	"/",
	NULL,
	"/system.slice/docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	".scope",
	"/kubepods/burstable/pod6f1d2b7e-8c3a-4e5f-9a0b-1c2d3e4f5a6b/"
	"fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210",
	"/not-an-id/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0",
	"/user.slice/caf\xc3\xa9\x1b[31m\xe2\x80\xae.scope",
	"/a/very/long/path/of/many/levels/\xe5\x90\x8d\xe5\x89\x8d",
};

static void make_fakes(void)
{
	static const char *const comms[] = {
		"bash",
		"ev\x1bil",
		"tab\there",
		"caf\xc3\xa9",
		"\xe5\x90\x8d\xe5\x89\x8d\xe3\x81\xae\xe3\x83\x97\xe3\x83\xad",
		"\xe2\x80\xae"
		"exe.txt",
		"\xff\xfe"
		"bad",
		"back\\slash",
		"C1\xc2\x9bx",
		"a-name-of-15-ch",
		"",
		"sleep",
	};
	static const char *const users[] = {"root",
					    "www-data",
					    "postgres",
					    "averyverylongusername",
					    "\xe3\x83\xa6\xe3\x83\xbc\xe3\x82\xb6\xe3\x83\xbc",
					    "bad\x1bname",
					    "",
					    "caf\xc3\xa9user"};
	static const char *const cmds[] = {"/usr/bin/foo -x /a/b",
					   "bash",
					   "",
					   "python3 \xe2\x80\xae evil",
					   "a\nb\tc\\d",
					   "sleep 1000",
					   "/usr/lib/systemd/systemd --user",
					   "\xe5\x90\x8d\xe5\x89\x8d --\xe3\x82\xaa\xe3\x83\x97",
					   "\xf3\xa0\x80\x81tag \xff\xfe",
					   "./rel/path/x",
					   "/dir/",
					   "C1 \xc2\x9b[2J"};
	seed = 0x9e3779b97f4a7c15ull;
	make_long_cmds();
	int32_t pid = 1;
	for (int i = 0; i < NFAKE; i++) {
		memset(&fakes[i], 0, sizeof(fakes[i]));
		fakes[i].pid = pid;
		pid += 1 + (int32_t)(rnd() % 60);
	}
	for (int i = 0; i < NFAKE; i++) {
		struct fake *f = &fakes[i];
		bool chain = i >= 10 && i < 90;
		f->in[0] = chain || i % 7 != 3;	 /* new in the second refresh */
		f->in[1] = chain || i % 11 != 5; /* gone in the second */
		/* uptime is 5000 s, 100 ticks a second: ages from a millisecond to all of it */
		f->start[0] = f->start[1] = 500000 - rnd_bits(19) % 500000;
		if (i == 110)
			f->start[1] = 499990; /* the pid taken by a new process */
		if (!f->in[0])
			f->start[1] = 500000 - rnd() % 300; /* started within the interval */
		f->uid = (uint32_t)(rnd() % 3) * 1000;
		f->user = users[rnd() % (sizeof(users) / sizeof(users[0]))];
		f->comm = comms[rnd() % (sizeof(comms) / sizeof(comms[0]))];
		f->cmd = i % 27 == 4 ? long_cmds[(i / 27) % 6]
				     : cmds[rnd() % (sizeof(cmds) / sizeof(cmds[0]))];
		f->cgroup = cgroup_paths[i % (sizeof(cgroup_paths) / sizeof(cgroup_paths[0]))];
		if (i == 0)
			f->ppid = 0;
		else if (i == 1 || i == 2)
			f->ppid = i == 1 ? 0 : fakes[0].pid;
		else if (chain)
			f->ppid = fakes[i - 1].pid; /* a chain 80 deep */
		else if (i == 100 || i == 101)
			f->ppid = fakes[i == 100 ? 101 : 100].pid; /* a loop */
		else if (i == 102)
			f->ppid = 99999999; /* a parent never seen */
		else
			f->ppid = fakes[rnd() % (uint64_t)i].pid;
		if (i > 2 && i % 13 == 1 && !chain) {
			f->kthread = true;
			f->ppid = fakes[1].pid;
			f->cmd = "[kworker/0:1-events]";
			f->user = "root";
			f->uid = 0;
		}
		for (int c = COL_RSS; c <= COL_USS; c++)
			if (c != COL_USED) /* RSS + swap, made by the model */
				f->v[0][c] = f->v[1][c] = f->kthread ? 0 : kb_value();
		f->v[1][COL_RSS] = i % 4 ? f->v[0][COL_RSS] : kb_value();
		for (int k = 0; k < 2; k++) { /* huge pages: a share of RSS, and a few hugetlb */
			f->v[k][COL_AHP] = f->v[k][COL_RSS] / 3 / 2048 * 2048;
			f->v[k][COL_HUGETLB] =
				f->kthread || i % 7 ? 0 : 2048ull * (uint64_t)(i % 5);
		}
		f->v[0][COL_OOM] = f->v[1][COL_OOM] = rnd() % 2001;
		for (int c = COL_MINFLT; c <= COL_RECLAIM; c++) {
			f->v[0][c] = rnd_bits(40);
			f->v[1][c] = f->v[0][c] + growth();
		}
		if (i == 110)
			f->v[1][COL_MINFLT] =
				7;	/* the new process's own, fewer than the old one's */
		if (i == 5 || i == 6) { /* figures wider than their columns */
			f->v[0][COL_RSS] = f->v[1][COL_RSS] = 1ull << 50;
			f->v[1][COL_MINFLT] = f->v[0][COL_MINFLT] + (1ull << 44);
			f->v[1][COL_RECLAIM] = f->v[0][COL_RECLAIM] + (1ull << 50);
		}
		f->valid = columns_filled_by(NEED_STAT | NEED_STATM | NEED_CMDLINE);
		if (i % 23 == 4) /* statm gone: the process was exiting */
			f->valid &= ~columns_with_need(NEED_STATM);
		if (i % 11 != 3)
			f->valid |= COL_BIT(COL_SWAPIN) | COL_BIT(COL_RECLAIM);
		if (i % 3)
			f->valid |= columns_filled_by(NEED_STATUS);
		if (i % 4 != 1)
			f->valid |= columns_filled_by(NEED_SMAPS);
		if (i % 5 != 2)
			f->valid |= columns_filled_by(NEED_OOM);
	}
}

static void fill(struct model *m, int k)
{
	struct snapshot *s = model_begin(m);
	s->mono = 100.0 + 2.0314 * k;
	s->mono_procs = 99.95 + 2.03765 * k;
	s->wall = 1763900000.25 + 2.0314 * k;
	s->uptime = 5000.0 + 2.0314 * k;
	s->hertz = 100;
	s->page_kb = 4;
	uint64_t mem[MI_COUNT] = {[MI_MEM_TOTAL] = MEM_TOTAL,
				  [MI_MEM_FREE] = 331234,
				  [MI_MEM_AVAILABLE] = 23123456,
				  [MI_BUFFERS] = 12345,
				  [MI_CACHED] = 4567890,
				  [MI_SRECLAIMABLE] = 234567,
				  [MI_SHMEM] = 3456,
				  [MI_SWAP_TOTAL] = 8388604,
				  [MI_SWAP_FREE] = 8000000 - 1234 * (uint64_t)k};
	uint64_t vm[VS_COUNT] = {[VS_PGFAULT] = 123456789 + 99999 * (uint64_t)k,
				 [VS_PGMAJFAULT] = 4567 + 13 * (uint64_t)k,
				 [VS_PSWPIN] = 1000 + (1ull << 50) * (uint64_t)k,
				 [VS_PSWPOUT] = 2000,
				 [VS_OOM_KILL] = 3};
	memcpy(s->mem, mem, sizeof(mem));
	memcpy(s->vm, vm, sizeof(vm));
	s->psi = (struct sys_psi){.present = true, .some_avg10 = 0.25, .full_avg10 = 0.125};
	s->self = (struct self_state){10240, -900, true};
	s->bpf.enabled = true;
	s->bpf.programs = 11;
	s->bpf.ring_drops = 2;
	s->bpf.oom_kills = 1 + (uint64_t)k;
	s->bpf.have_reclaim = true;
	s->bpf.have_swapin = true;
	snprintf(s->bpf.swapin_mode, sizeof(s->bpf.swapin_mode), "bio");
	s->bpf.swapins = 4242 + 17 * (uint64_t)k;
	for (int h = 0; h < 3; h++) {
		struct mt_hist *hi = h == 0   ? &s->bpf.reclaim.direct
				     : h == 1 ? &s->bpf.reclaim.memcg
					      : &s->bpf.reclaim.shrink_slab;
		for (int b = 0; b < MT_HIST_SLOTS; b += 3 + h) {
			hi->slots[b] = (uint64_t)(b + 1) * (uint64_t)(k + 1);
			hi->count += hi->slots[b];
			hi->total_us += hi->slots[b] << b;
		}
	}
	s->bpf.reclaim.nr_reclaimed = 1000 * (uint64_t)(k + 1);
	s->bpf.reclaim.kswapd_wakeups = 3 * (uint64_t)(k + 1);
	for (int i = 0; i < NFAKE; i++) {
		const struct fake *f = &fakes[i];
		if (!f->in[k])
			continue;
		struct proc_sample *p = snapshot_add_proc(s);
		p->pid = f->pid;
		p->ppid = f->ppid;
		p->uid = f->uid;
		p->start_ticks = f->start[k];
		p->kthread = f->kthread;
		snprintf(p->comm, sizeof(p->comm), "%s", f->comm);
		p->cmd = f->cmd;
		p->user = f->user;
		p->cgroup = f->cgroup;
		for (int c = 0; c < COL_COUNT; c++)
			if (pv_of[c] >= 0)
				PROC_FIG(p, c) = f->v[k][c];
		p->valid = f->valid | (f->cgroup ? COL_BIT(COL_CGROUP) : 0);
		p->tried = f->valid & columns_with_need(NEED_COSTLY);
	}
	s->ntasks = s->nprocs + 3;
	if (k == 1) {
		struct mt_event *e = snapshot_add_event(s);
		*e = (struct mt_event){.type = MT_EV_OOM_KILL,
				       .ts = 1763900001.5,
				       .pid = 4242,
				       .uid = 1000,
				       .total_vm_kb = 1234567,
				       .anon_rss_kb = 1023488,
				       .file_rss_kb = 999,
				       .shmem_rss_kb = 0,
				       .trigger_pid = 77};
		snprintf(e->comm, sizeof(e->comm), "hog\x1b[31m\xe2\x80\xae");
		snprintf(e->trigger_comm, sizeof(e->trigger_comm), "parent \"q\"");
		snprintf(e->memcg, sizeof(e->memcg), "/jobs/caf\xc3\xa9\n");
		e = snapshot_add_event(s);
		*e = (struct mt_event){.type = MT_EV_OOM_KILL,
				       .ts = 1763800000.25,
				       .earlier = true,
				       .pid = 99,
				       .anon_rss_kb = 65536};
		snprintf(e->comm, sizeof(e->comm), "old");
	}
	model_step(m);
	verdict_update(m, NULL); /* as monitor_refresh does after the cgroups */
}

static char *tz_saved;

static int setup(void **state)
{
	(void)state;
	const char *tz = getenv("TZ");
	tz_saved = tz ? strdup(tz) : NULL;
	setenv("TZ", "UTC", 1);
	tzset();
	make_fakes();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (tz_saved)
		setenv("TZ", tz_saved, 1);
	else
		unsetenv("TZ");
	tzset();
	free(tz_saved);
	return 0;
}

/* Compares out with tests/unit/views/NAME, or writes it there with MEMTOP_WRITE_VIEWS=1 */
static void check(const char *name, const char *out, size_t len)
{
	char path[512];
	const char *file = __FILE__, *slash = strrchr(file, '/');
	snprintf(path, sizeof(path), "%.*sviews/%s", slash ? (int)(slash - file + 1) : 0, file,
		 name);
	const char *w = getenv("MEMTOP_WRITE_VIEWS");
	if (w && !strcmp(w, "1")) {
		FILE *f = fopen(path, "w");
		if (!f || fwrite(out, 1, len, f) != len || fclose(f))
			fail_msg("cannot write %s", path);
		return;
	}
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s (run the unit tests from the top directory)", path);
	char *want = malloc(len + 2);
	size_t got = fread(want, 1, len + 1, f);
	fclose(f);
	size_t at = 0, line = 1;
	while (at < len && at < got && out[at] == want[at])
		line += out[at++] == '\n';
	free(want);
	if (at == len && got == len)
		return;
	char actual[600];
	snprintf(actual, sizeof(actual), "/tmp/memtop-views-%s", name);
	f = fopen(actual, "w");
	if (f) {
		fwrite(out, 1, len, f);
		fclose(f);
	}
	fail_msg("%s: output differs at byte %zu (line %zu; %zu bytes, expected %zu); the output "
		 "is in %s",
		 name, at, line, len, got, actual);
}

struct variant {
	const char *title;
	unsigned cols; /* 0: the default */
	enum col_id sort;
	bool invert, tree, hide_kthreads, utf8, bpf_off, first_only;
	bool json; /* in the JSON file too */
};

static const struct variant variants[] = {
	{"default", 0, COL_RSS, false, false, false, true, false, false, true},
	{"first refresh", 0, COL_RSS, false, false, false, true, false, true, true},
	{"all, tree, by name, C locale", ~0u, COL_COMM, false, true, false, false, false, false,
	 false},
	{"all, tree, by minflt inverted, no kernel threads, BPF off", ~0u, COL_MINFLT, true, true,
	 true, true, true, false, true},
	{"by command, -%MEM", 0, COL_CMD, false, false, false, true, false, false, false},
};

/* The model of a variant, from one refresh or two */
static void model_of(struct model *m, struct prefs *pr, const struct variant *v)
{
	prefs_init(pr);
	if (v->cols)
		pr->cols = v->cols & ((1u << COL_COUNT) - 1);
	if (!strcmp(v->title, "by command, -%MEM"))
		pr->cols &= ~COL_BIT(COL_MEM_PCT);
	pr->sort = v->sort;
	pr->invert = v->invert;
	pr->tree = v->tree;
	pr->filter.hide_kthreads = v->hide_kthreads;
	model_init(m, pr);
	fill(m, v->first_only ? 1 : 0);
	if (!v->first_only)
		fill(m, 1);
	if (v->bpf_off) {
		struct snapshot *s = model_current_mut(m);
		s->bpf.enabled = false;
		snprintf(s->bpf.reason, sizeof(s->bpf.reason), "BPF off: \x1b[1mnot root");
	}
}

static void run_views(bool json)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		const struct variant *v = &variants[i];
		struct model m;
		struct prefs pr;
		if (json && !v->json)
			continue;
		model_of(&m, &pr, v);
		struct view_info vi = {.delay = 2.5, .version = "9.8.7", .utf8 = v->utf8};
		fprintf(f, "=== %s\n", v->title);
		if (json)
			view_json(f, &m, &vi);
		else
			view_batch(f, &m, &vi);
		model_free(&m);
	}
	fclose(f);
	check(json ? "json.txt" : "batch.txt", out, len);
	free(out);
}

static void batch_text(void **state)
{
	(void)state;
	run_views(false);
}

static void json_lines(void **state)
{
	(void)state;
	run_views(true);
}

/* Each column's order both ways, then the tree's by some of them, and the filters' */
static void sort_orders(void **state)
{
	(void)state;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct model m;
	struct prefs pr;
	model_of(&m, &pr, &variants[0]);
	for (int k = 0; k < 2 * COL_COUNT + 4; k++) {
		static const enum col_id tree_sorts[] = {COL_RSS, COL_PID, COL_COMM, COL_MINFLT};
		pr.sort = k < 2 * COL_COUNT ? (enum col_id)(k % COL_COUNT)
					    : tree_sorts[k - 2 * COL_COUNT];
		pr.invert = k < 2 * COL_COUNT ? k / COL_COUNT : k % 2;
		pr.tree = k >= 2 * COL_COUNT;
		model_refilter(&m);
		fprintf(f, "%s%s%s:", columns[pr.sort].name, pr.invert ? " inverted" : "",
			pr.tree ? " tree" : "");
		for (size_t i = 0; i < m.nrows; i++)
			if (pr.tree) /* the depth, and L for a parent's last child */
				fprintf(f, " %d/%u%s", m.rows[i]->p->pid, m.rows[i]->depth,
					m.rows[i]->last ? "L" : "");
			else
				fprintf(f, " %d", m.rows[i]->p->pid);
		fputc('\n', f);
	}
	pr.sort = COL_RSS;
	pr.invert = false;
	for (int k = 0; k < 4; k++) {
		pr.tree = k % 2;
		pr.filter.hide_kthreads = k == 0;
		snprintf(pr.filter.text, sizeof(pr.filter.text), "%s", k == 1 ? "EV" : "");
		pr.filter.by_user = k == 2;
		pr.filter.uid = 1000;
		pr.filter.npids = k == 3 ? 5 : 0;
		for (size_t i = 0; i < 5; i++)
			pr.filter.pids[i] = fakes[i * 20 + 3].pid;
		model_refilter(&m);
		fprintf(f, "filter %d:", k);
		for (size_t i = 0; i < m.nrows; i++)
			fprintf(f, " %d", m.rows[i]->p->pid);
		fputc('\n', f);
	}
	model_free(&m);
	fclose(f);
	check("order.txt", out, len);
	free(out);
}

/* The screen's lines as text, each followed by where its attributes change */
static void dump_screen(FILE *f, int rows, int cols)
{
	cchar_t *line = calloc((size_t)cols + 1, sizeof(*line));
	for (int y = 0; y < rows; y++) {
		char attrs[4096];
		size_t na = 0;
		attr_t last = (attr_t)-1;
		mvin_wchnstr(y, 0, line, cols);
		for (int x = 0; x < cols; x++) {
			wchar_t wc[CCHARW_MAX + 1] = {0};
			attr_t a = 0;
			short pair = 0;
			char mb[MB_LEN_MAX * (CCHARW_MAX + 1)];
			getcchar(&line[x], wc, &a, &pair, NULL);
			size_t n = wcstombs(mb, wc, sizeof(mb));
			fwrite(mb, 1, n == (size_t)-1 ? 0 : n, f);
			a = (a & ~A_COLOR) | (attr_t)COLOR_PAIR(pair);
			if (a != last && na + 40 < sizeof(attrs))
				na += (size_t)snprintf(attrs + na, sizeof(attrs) - na, " %d:%lx", x,
						       (unsigned long)a);
			last = a;
		}
		fprintf(f, "\n  attrs%s\n", attrs);
	}
	free(line);
}

/* The table as draw_table puts it on a terminal: wide and narrow, tree and not, UTF-8 and
 * ASCII, scrolled, a row selected */
static void screen_table(void **state)
{
	(void)state;
	static const struct {
		int rows, cols;
		size_t top, sel;
		int variant;
	} screens[] = {
		{30, 200, 0, 2, 0}, {24, 80, 5, 7, 2},	 {40, 160, 60, 75, 3},
		{20, 120, 0, 0, 4}, {12, 50, 80, 85, 3},
	};
	char *locale = strdup(setlocale(LC_ALL, NULL));
	if (!setlocale(LC_ALL, "C.UTF-8"))
		fail_msg("no C.UTF-8 locale");
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = newterm("xterm-256color", out, in);
	if (!scr)
		fail_msg("no xterm-256color terminal description");
	set_term(scr);
	char err[256];
	struct theme *theme = theme_load("default", err, sizeof(err), NULL, 0);
	assert_non_null(theme);
	theme_apply(theme);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	for (size_t i = 0; i < sizeof(screens) / sizeof(screens[0]); i++) {
		const struct variant *v = &variants[screens[i].variant];
		struct model m;
		struct prefs pr;
		model_of(&m, &pr, v);
		resize_term(screens[i].rows, screens[i].cols);
		erase();
		struct ui u = {
			.cv = {screens[i].rows, screens[i].cols, v->utf8, theme},
			.m = &m,
			.prefs = &pr,
		};
		main_state.tab = (struct table_view){.top = screens[i].top, .sel = screens[i].sel};
		draw_table(&u, 1, screens[i].rows - 2);
		fprintf(f, "=== %dx%d %s\n", screens[i].cols, screens[i].rows, v->title);
		dump_screen(f, screens[i].rows, screens[i].cols);
		model_free(&m);
	}
	fclose(f);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	theme_free(theme);
	setlocale(LC_ALL, locale);
	free(locale);
	check("screen.txt", text, len);
	free(text);
}

UNIT_GROUP(views)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(batch_text),
		cmocka_unit_test(json_lines),
		cmocka_unit_test(sort_orders),
		cmocka_unit_test(screen_table),
	};
	return cmocka_run_group_tests_name("views", tests, setup, teardown);
}
