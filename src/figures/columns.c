#include "columns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"
#include "text.h"

static uint64_t get_pid(const void *s)
{
	return (uint64_t)((const struct proc_sample *)s)->pid;
}

static uint64_t get_ppid(const void *s)
{
	return (uint64_t)((const struct proc_sample *)s)->ppid;
}

static uint64_t get_used(const void *s)
{
	const struct proc_sample *p = s;

	return p->fig[PV_RSS] + p->fig[PV_SWAP];
}

static const char *get_user(const void *s)
{
	return ((const struct proc_sample *)s)->user;
}

static const char *get_comm(const void *s)
{
	return ((const struct proc_sample *)s)->comm;
}

static const char *get_cmd(const void *s)
{
	return ((const struct proc_sample *)s)->cmd;
}

static const char *get_cgroup(const void *s)
{
	return ((const struct proc_sample *)s)->cgroup;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

size_t cgroup_cell(const char *path, char *buf, size_t size, bool utf8, int width)
{
	char cut[4096], esc[4096];
	size_t n = 0;

	/* a run of exactly 64 hex digits is a container id (Docker, containerd, CRI-O) */
	for (const char *p = path; *p && n < sizeof(cut) - 1;) {
		size_t run = 0;
		while (is_hex(p[run]))
			run++;
		size_t keep = run == 64 ? 12 : run ? run : 1;
		if (keep > sizeof(cut) - 1 - n)
			keep = sizeof(cut) - 1 - n;
		memcpy(cut + n, p, keep);
		n += keep;
		p += run ? run : 1;
	}
	cut[n] = '\0';
	size_t len = escape_display(cut, esc, sizeof(esc), utf8);
	if (width <= 2 || len <= (size_t)width)
		return fmt_cut(esc, len, buf, size);
	/* the longest end of whole characters whose escaped text takes width - 2 bytes at
	 * most (so as many columns): it starts no earlier than width - 2 bytes from the end */
	size_t room = (size_t)width - 2, from = n - room;
	for (;; from++) {
		while (utf8 && from < n && (cut[from] & 0xc0) == 0x80)
			from++;
		len = escape_display(cut + from, esc, sizeof(esc), utf8);
		if (len <= room)
			break;
	}
	char tail[4096];
	int t = snprintf(tail, sizeof(tail), "..%s", esc);
	return fmt_cut(tail, t > 0 ? (size_t)t : 0, buf, size);
}

/* JSON keys: the name, then the unit: _kb for sizes in KiB, _pct for percentages,
 * _per_s for rates, _us_per_s for microseconds per second; none for ids, counts, text. */
const struct column columns[COL_COUNT] = {
	[COL_PID] = {COLUMN("pid", "PID", "pid"), .width = 7, .unit = UNIT_ID, .kind = KIND_SAMPLE,
		     .needs = NEED_STAT, .ascending = true, .on = true, .id = get_pid,
		     .label = true, .desc = "process id"},
	[COL_PPID] = {COLUMN("ppid", "PPID", "ppid"), .width = 7, .unit = UNIT_ID,
		      .kind = KIND_SAMPLE, .needs = NEED_STAT, .ascending = true, .drop = 9,
		      .id = get_ppid, .desc = "parent process id"},
	[COL_USER] = {COLUMN("user", "USER", "user"), .width = 8, .unit = UNIT_TEXT,
		      .kind = KIND_TEXT, .needs = NEED_STAT, .ascending = true, .on = true,
		      .drop = 3, .min = 6, .text = get_user, .label = true,
		      .desc = "effective user"},
	[COL_RSS] = {COLUMN("rss", "RSS", "rss_kb"), KB_SAMPLE(5, NEED_STATM), .on = true,
		     .history = true, .metric = "resident", .desc = "resident set size"},
	[COL_VSZ] = {COLUMN("vsz", "VSZ", "vsz_kb"), KB_SAMPLE(5, NEED_STATM), .on = true,
		     .drop = 6, .metric = "virtual", .desc = "virtual size"},
	[COL_SHR] = {COLUMN("shr", "SHR", "shr_kb"), KB_SAMPLE(5, NEED_STATM), .on = true,
		     .drop = 5, .metric = "shared",
		     .desc = "resident shared (file and shmem) pages"},
	[COL_TXT] = {COLUMN("txt", "TXT", "txt_kb"), KB_SAMPLE(5, NEED_STATM), .on = true,
		     .drop = 8, .metric = "text", .desc = "text (code) size"},
	[COL_DATA] = {COLUMN("data", "DATA", "data_kb"), KB_SAMPLE(5, NEED_STATM), .on = true,
		      .drop = 7, .metric = "data", .desc = "data + stack size"},
	[COL_SWAP] = {COLUMN("swap", "SWAP", "swap_kb"), KB_SAMPLE(5, NEED_STATUS), .on = true,
		      .drop = 2, .idle_drop = 5, .history = true, .metric = "swap",
		      .desc = "swapped-out memory (VmSwap, read for rows on screen)"},
	[COL_USED] = {COLUMN("used", "USED", "used_kb"), KB_SAMPLE(5, NEED_STATM | NEED_STATUS),
		      .drop = 2, .id = get_used,
		      .desc = "RSS + swap, as top's USED (read for rows on screen)"},
	[COL_LOCKED] = {COLUMN("locked", "LOCKED", "locked_kb"), KB_SAMPLE(6, NEED_STATUS),
			.drop = 2, .metric = "locked",
			.desc = "memory locked in RAM, mlock() (VmLck, read for rows on screen)"},
	[COL_PSS] = {COLUMN("pss", "PSS", "pss_kb"), KB_SAMPLE(5, NEED_SMAPS), .drop = 2,
		     .metric = "pss",
		     .desc = "proportional set size: shared pages split among users "
			     "(smaps_rollup)"},
	[COL_USS] = {COLUMN("uss", "USS", "uss_kb"), KB_SAMPLE(5, NEED_SMAPS), .drop = 2,
		     .metric = "uss",
		     .desc = "unique set size: private pages, freed on exit (smaps_rollup)"},
	[COL_AHP] = {COLUMN("ahp", "AHP", "anon_huge_kb"), .width = 5, .unit = UNIT_KB,
		     .kind = KIND_SAMPLE, .needs = NEED_SMAPS, .drop = 2, .metric = "anon_huge",
		     .desc = "anonymous memory in transparent huge pages (smaps_rollup "
			     "AnonHugePages)"},
	[COL_HUGETLB] = {COLUMN("hugetlb", "HUGETLB", "hugetlb_kb"), .width = 7, .unit = UNIT_KB,
			 .kind = KIND_SAMPLE, .needs = NEED_SMAPS, .drop = 2, .metric = "hugetlb",
			 .desc = "hugetlbfs pages mapped (smaps_rollup Shared_Hugetlb + "
				 "Private_Hugetlb)"},
	[COL_OOM] = {COLUMN("oom", "OOM", "oom_score"), .width = 4, .unit = UNIT_ID,
		     .kind = KIND_SAMPLE, .needs = NEED_OOM, .drop = 2, .metric = "oom_score",
		     .desc = "OOM killer's badness score (oom_score): the highest is killed first"},
	[COL_MEM_PCT] = {COLUMN("mem", "%MEM", "mem_pct"), .width = 4, .unit = UNIT_PCT,
			 .kind = KIND_SHARE, .needs = NEED_STATM, .on = true, .drop = 4,
			 .of = COL_RSS, .desc = "RSS as share of RAM"},
	[COL_GROW] = {COLUMN("grow", "GROW", "growth_kb_per_min"), .width = 6, .unit = UNIT_KB_MIN,
		      .kind = KIND_GROWTH, .needs = NEED_STATM, .drop = 2, .span = 60,
		      .desc = "RSS + swap growth per minute over the last minute"},
	[COL_GROW10] = {COLUMN("grow10", "GROW10", "growth10_kb_per_min"), .width = 6,
			.unit = UNIT_KB_MIN, .kind = KIND_GROWTH, .needs = NEED_STATM, .drop = 2,
			.span = 600,
			.desc = "RSS + swap growth per minute over the last ten minutes (a steady "
				"one marks a leak suspect)"},
	[COL_MINFLT] = {COLUMN("minflt", "MINF/s", "minflt_per_s"), .width = 6, .unit = UNIT_RATE,
			.kind = KIND_RATE, .needs = NEED_STAT, .on = true, .drop = 1,
			.total = "minflt", .history = true, .metric = "minor_faults",
			.help = "minor page faults since the process started",
			.desc = "minor page faults per second"},
	[COL_MAJFLT] = {COLUMN("majflt", "MAJF/s", "majflt_per_s"), .width = 6, .unit = UNIT_RATE,
			.kind = KIND_RATE, .needs = NEED_STAT, .on = true, .drop = 1,
			.total = "majflt", .history = true, .metric = "major_faults",
			.help = "major page faults (disk reads) since the process started",
			.desc = "major page faults (disk reads) per second"},
	[COL_SWAPIN] = {COLUMN("swapin", "SWIN/s", "swapin_per_s"), .width = 6, .unit = UNIT_RATE,
			.kind = KIND_RATE, .needs = NEED_BPF_SWAPIN, .on = true, .drop = 1,
			.idle_drop = 10, .since_start = true, .total = "swapins",
			.metric = "swapin_pages",
			.help = "pages swapped in since memtop started (BPF)",
			.desc = "pages swapped in per second (BPF)"},
	[COL_RECLAIM] =
		{COLUMN("reclaim", "STALL", "reclaim_stall_us_per_s"), .width = 6,
		 .unit = UNIT_US_RATE, .kind = KIND_RATE, .needs = NEED_BPF_RECLAIM, .on = true,
		 .drop = 1, .idle_drop = 10, .scale = 1e-3, .since_start = true,
		 .total = "reclaim_stall_ns", .metric = "reclaim_stall",
		 .help = "time stalled in direct or memcg reclaim since memtop started (BPF)",
		 .desc = "microseconds per second stalled in direct or memcg reclaim "
			 "(BPF)"},
	[COL_COMM] = {COLUMN("comm", "NAME", "comm"), .width = 15, .unit = UNIT_TEXT,
		      .kind = KIND_TEXT, .needs = NEED_STAT, .ascending = true, .drop = 9, .min = 8,
		      .text = get_comm, .label = true, .desc = "process name"},
	[COL_CGROUP] = {COLUMN("cgroup", "CGROUP", "cgroup"), .width = 24, .unit = UNIT_TEXT,
			.kind = KIND_TEXT, .needs = NEED_CGROUP, .ascending = true, .drop = 6,
			.min = 12, .text = get_cgroup, .cell = cgroup_cell, .label = true,
			.desc = "memory cgroup, as /proc/PID/cgroup names it (container ids cut to "
				"12 characters on screen)"},
	[COL_CMD] = {COLUMN("cmd", "COMMAND", "cmd"), .width = 0, .unit = UNIT_TEXT,
		     .kind = KIND_TEXT, .needs = NEED_CMDLINE, .ascending = true, .on = true,
		     .text = get_cmd, .desc = "command line"},
};

void columns_ordered(const int8_t order[COL_COUNT], enum col_id by[COL_COUNT])
{
	int n = 0;

	for (int c = 0; c < COL_COUNT; c++) /* insertion by rank, stable */
		if (c != COL_CMD) {
			int i = n++;
			for (; i > 0 && order[by[i - 1]] > order[c]; i--)
				by[i] = by[i - 1];
			by[i] = (enum col_id)c;
		}
	by[n] = COL_CMD;
}

unsigned columns_needs(unsigned set)
{
	unsigned needs = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if (set & COL_BIT(c))
			needs |= columns[c].needs;
	return needs;
}

unsigned columns_read_with(unsigned set)
{
	const unsigned both = COL_BIT(COL_SWAP) | COL_BIT(COL_USED);

	return set & both ? set | both : set;
}

const int8_t pv_of[COL_COUNT] = {
#define PV_OF_(x)   [COL_##x] = PV_##x,
#define PV_NONE_(x) [COL_##x] = -1,
	MT_PROC_COLUMNS(PV_OF_, PV_NONE_)
#undef PV_OF_
#undef PV_NONE_
};

/* numbered in the table's order; a column table with more than COL_NUMS of them stops
 * memtop at its start (the unit tests run it) */
int8_t col_slot[COL_COUNT];

__attribute__((constructor)) static void number_slots(void)
{
	int8_t n = 0;

	for (int c = 0; c < COL_COUNT; c++)
		col_slot[c] =
			columns[c].kind == KIND_SAMPLE || columns[c].kind == KIND_TEXT ? -1 : n++;
	if (n > COL_NUMS) {
		fprintf(stderr, "memtop: %d computed process columns, more than COL_NUMS\n", n);
		abort();
	}
	/* a sample keeps the figures of the sampled columns without .id and of the rates */
	for (int c = 0; c < COL_COUNT; c++) {
		const struct column *col = &columns[c];
		bool kept = (col->kind == KIND_SAMPLE && !col->id) || col->kind == KIND_RATE;
		if (kept != (pv_of[c] >= 0)) {
			fprintf(stderr, "memtop: column %s is %s in MT_PROC_COLUMNS\n", col->name,
				kept ? "not F()" : "F()");
			abort();
		}
	}
}

void columns_derive(struct proc_sample *p)
{
	const unsigned parts = COL_BIT(COL_RSS) | COL_BIT(COL_SWAP);

	if ((p->valid & parts) == parts)
		p->valid |= COL_BIT(COL_USED);
	if (p->tried & COL_BIT(COL_SWAP))
		p->tried |= COL_BIT(COL_USED);
}

bool column_in_json(int c, unsigned set)
{
	return !(columns[c].needs & NEED_COSTLY) || (columns_read_with(set) & COL_BIT(c));
}
