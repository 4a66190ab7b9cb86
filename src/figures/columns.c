#include "columns.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "snapshot.h"
#include "text.h"

static uint64_t get_pid(const struct proc_sample *p)
{
	return (uint64_t)p->pid;
}

static uint64_t get_ppid(const struct proc_sample *p)
{
	return (uint64_t)p->ppid;
}

static const char *get_user(const struct proc_sample *p)
{
	return p->user;
}

static const char *get_comm(const struct proc_sample *p)
{
	return p->comm;
}

static const char *get_cmd(const struct proc_sample *p)
{
	return p->cmd;
}

static const char *get_cgroup(const struct proc_sample *p)
{
	return p->cgroup;
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
	[COL_PID] = {.name = "pid",
		     .title = "PID",
		     .json = "pid",
		     .desc = "process id",
		     .width = 7,
		     .unit = UNIT_ID,
		     .kind = KIND_SAMPLE,
		     .needs = NEED_STAT,
		     .ascending = true,
		     .on = true,
		     .id = get_pid,
		     .label = true},
	[COL_PPID] = {.name = "ppid",
		      .title = "PPID",
		      .json = "ppid",
		      .desc = "parent process id",
		      .width = 7,
		      .unit = UNIT_ID,
		      .kind = KIND_SAMPLE,
		      .needs = NEED_STAT,
		      .ascending = true,
		      .drop = 9,
		      .id = get_ppid},
	[COL_USER] = {.name = "user",
		      .title = "USER",
		      .json = "user",
		      .desc = "effective user",
		      .width = 8,
		      .unit = UNIT_TEXT,
		      .kind = KIND_TEXT,
		      .needs = NEED_STAT,
		      .ascending = true,
		      .on = true,
		      .drop = 3,
		      .text = get_user,
		      .label = true},
	[COL_RSS] = {.name = "rss",
		     .title = "RSS",
		     .json = "rss_kb",
		     .desc = "resident set size",
		     .width = 5,
		     .unit = UNIT_KB,
		     .kind = KIND_SAMPLE,
		     .needs = NEED_STATM,
		     .on = true,
		     .history = true,
		     .metric = "resident"},
	[COL_VSZ] = {.name = "vsz",
		     .title = "VSZ",
		     .json = "vsz_kb",
		     .desc = "virtual size",
		     .width = 5,
		     .unit = UNIT_KB,
		     .kind = KIND_SAMPLE,
		     .needs = NEED_STATM,
		     .on = true,
		     .drop = 6,
		     .metric = "virtual"},
	[COL_SHR] = {.name = "shr",
		     .title = "SHR",
		     .json = "shr_kb",
		     .desc = "resident shared (file and shmem) pages",
		     .width = 5,
		     .unit = UNIT_KB,
		     .kind = KIND_SAMPLE,
		     .needs = NEED_STATM,
		     .on = true,
		     .drop = 5,
		     .metric = "shared"},
	[COL_TXT] = {.name = "txt",
		     .title = "TXT",
		     .json = "txt_kb",
		     .desc = "text (code) size",
		     .width = 5,
		     .unit = UNIT_KB,
		     .kind = KIND_SAMPLE,
		     .needs = NEED_STATM,
		     .on = true,
		     .drop = 8,
		     .metric = "text"},
	[COL_DATA] = {.name = "data",
		      .title = "DATA",
		      .json = "data_kb",
		      .desc = "data + stack size",
		      .width = 5,
		      .unit = UNIT_KB,
		      .kind = KIND_SAMPLE,
		      .needs = NEED_STATM,
		      .on = true,
		      .drop = 7,
		      .metric = "data"},
	[COL_SWAP] = {.name = "swap",
		      .title = "SWAP",
		      .json = "swap_kb",
		      .desc = "swapped-out memory (VmSwap, read for rows on screen)",
		      .width = 5,
		      .unit = UNIT_KB,
		      .kind = KIND_SAMPLE,
		      .needs = NEED_STATUS,
		      .on = true,
		      .drop = 2,
		      .history = true,
		      .metric = "swap"},
	[COL_LOCKED] = {.name = "locked",
			.title = "LOCKED",
			.json = "locked_kb",
			.desc = "memory locked in RAM, mlock() (VmLck, read for rows on screen)",
			.width = 6,
			.unit = UNIT_KB,
			.kind = KIND_SAMPLE,
			.needs = NEED_STATUS,
			.drop = 2,
			.metric = "locked"},
	[COL_PSS] = {.name = "pss",
		     .title = "PSS",
		     .json = "pss_kb",
		     .desc = "proportional set size: shared pages split among users "
			     "(smaps_rollup)",
		     .width = 5,
		     .unit = UNIT_KB,
		     .kind = KIND_SAMPLE,
		     .needs = NEED_SMAPS,
		     .drop = 2,
		     .metric = "pss"},
	[COL_USS] = {.name = "uss",
		     .title = "USS",
		     .json = "uss_kb",
		     .desc = "unique set size: private pages, freed on exit (smaps_rollup)",
		     .width = 5,
		     .unit = UNIT_KB,
		     .kind = KIND_SAMPLE,
		     .needs = NEED_SMAPS,
		     .drop = 2,
		     .metric = "uss"},
	[COL_OOM] = {.name = "oom",
		     .title = "OOM",
		     .json = "oom_score",
		     .desc = "OOM killer's badness score (oom_score): the highest is killed first",
		     .width = 4,
		     .unit = UNIT_ID,
		     .kind = KIND_SAMPLE,
		     .needs = NEED_OOM,
		     .drop = 2,
		     .metric = "oom_score"},
	[COL_MEM_PCT] = {.name = "mem",
			 .title = "%MEM",
			 .json = "mem_pct",
			 .desc = "RSS as share of RAM",
			 .width = 4,
			 .unit = UNIT_PCT,
			 .kind = KIND_SHARE,
			 .needs = NEED_STATM,
			 .on = true,
			 .drop = 4,
			 .of = COL_RSS},
	[COL_GROW] = {.name = "grow",
		      .title = "GROW",
		      .json = "growth_kb_per_min",
		      .desc = "RSS + swap growth per minute over the last minute",
		      .width = 6,
		      .unit = UNIT_KB_MIN,
		      .kind = KIND_GROWTH,
		      .needs = NEED_STATM,
		      .drop = 2,
		      .span = 60},
	[COL_GROW10] = {.name = "grow10",
			.title = "GROW10",
			.json = "growth10_kb_per_min",
			.desc = "RSS + swap growth per minute over the last ten minutes (a steady "
				"one marks a leak suspect)",
			.width = 6,
			.unit = UNIT_KB_MIN,
			.kind = KIND_GROWTH,
			.needs = NEED_STATM,
			.drop = 2,
			.span = 600},
	[COL_MINFLT] = {.name = "minflt",
			.title = "MINF/s",
			.json = "minflt_per_s",
			.desc = "minor page faults per second",
			.width = 6,
			.unit = UNIT_RATE,
			.kind = KIND_RATE,
			.needs = NEED_STAT,
			.on = true,
			.drop = 1,
			.total = "minflt",
			.history = true,
			.metric = "minor_faults",
			.help = "minor page faults since the process started"},
	[COL_MAJFLT] = {.name = "majflt",
			.title = "MAJF/s",
			.json = "majflt_per_s",
			.desc = "major page faults (disk reads) per second",
			.width = 6,
			.unit = UNIT_RATE,
			.kind = KIND_RATE,
			.needs = NEED_STAT,
			.on = true,
			.drop = 1,
			.total = "majflt",
			.history = true,
			.metric = "major_faults",
			.help = "major page faults (disk reads) since the process started"},
	[COL_SWAPIN] = {.name = "swapin",
			.title = "SWIN/s",
			.json = "swapin_per_s",
			.desc = "pages swapped in per second (BPF)",
			.width = 6,
			.unit = UNIT_RATE,
			.kind = KIND_RATE,
			.needs = NEED_BPF_SWAPIN,
			.on = true,
			.drop = 1,
			.since_start = true,
			.total = "swapins",
			.metric = "swapin_pages",
			.help = "pages swapped in since memtop started (BPF)"},
	[COL_RECLAIM] =
		{.name = "reclaim",
		 .title = "STALL",
		 .json = "reclaim_stall_us_per_s",
		 .desc = "microseconds per second stalled in direct or memcg reclaim "
			 "(BPF)",
		 .width = 6,
		 .unit = UNIT_US_RATE,
		 .kind = KIND_RATE,
		 .needs = NEED_BPF_RECLAIM,
		 .on = true,
		 .drop = 1,
		 .scale = 1e-3,
		 .since_start = true,
		 .total = "reclaim_stall_ns",
		 .metric = "reclaim_stall",
		 .help = "time stalled in direct or memcg reclaim since memtop started (BPF)"},
	[COL_COMM] = {.name = "comm",
		      .title = "NAME",
		      .json = "comm",
		      .desc = "process name",
		      .width = 15,
		      .unit = UNIT_TEXT,
		      .kind = KIND_TEXT,
		      .needs = NEED_STAT,
		      .ascending = true,
		      .drop = 9,
		      .text = get_comm,
		      .label = true},
	[COL_CGROUP] = {.name = "cgroup",
			.title = "CGROUP",
			.json = "cgroup",
			.desc = "memory cgroup, as /proc/PID/cgroup names it (container ids cut to "
				"12 characters on screen)",
			.width = 24,
			.unit = UNIT_TEXT,
			.kind = KIND_TEXT,
			.needs = NEED_CGROUP,
			.ascending = true,
			.drop = 6,
			.text = get_cgroup,
			.cell = cgroup_cell,
			.label = true},
	[COL_CMD] = {.name = "cmd",
		     .title = "COMMAND",
		     .json = "cmd",
		     .desc = "command line",
		     .width = 0,
		     .unit = UNIT_TEXT,
		     .kind = KIND_TEXT,
		     .needs = NEED_CMDLINE,
		     .ascending = true,
		     .on = true,
		     .text = get_cmd},
};

int column_by_name(const char *name)
{
	for (int i = 0; i < COL_COUNT; i++)
		if (!strcasecmp(name, columns[i].name) || !strcasecmp(name, columns[i].title))
			return i;
	return -1;
}

unsigned columns_default(void)
{
	unsigned set = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if (columns[c].on)
			set |= COL_BIT(c);
	return set;
}

int columns_parse(const char *list, unsigned *set, char *err, size_t errlen)
{
	char buf[256];
	bool relative = list[0] == '+' || list[0] == '-';
	unsigned s = relative ? columns_default() : 0;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "--columns: list too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save = NULL, *name = strtok_r(buf, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		char op = relative ? '+' : 0;
		if (*name == '+' || *name == '-')
			op = *name++;
		if (op && !relative) {
			snprintf(err, errlen,
				 "--columns: '%c%s': begin the list with + or - to edit the "
				 "defaults",
				 op, name);
			return -1;
		}
		int c = column_by_name(name);
		if (c < 0) {
			snprintf(err, errlen, "--columns: unknown column '%.40s'", name);
			return -1;
		}
		if (op == '-')
			s &= ~COL_BIT(c);
		else
			s |= COL_BIT(c);
	}
	if (!s) {
		snprintf(err, errlen, "--columns: no column left");
		return -1;
	}
	*set = s;
	return 0;
}

unsigned columns_needs(unsigned set)
{
	unsigned needs = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if (set & COL_BIT(c))
			needs |= columns[c].needs;
	return needs;
}

unsigned columns_filled_by(unsigned needs)
{
	unsigned set = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if ((columns[c].needs & needs) == columns[c].needs)
			set |= COL_BIT(c);
	return set;
}

unsigned columns_with_need(unsigned needs)
{
	unsigned set = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if (columns[c].needs & needs)
			set |= COL_BIT(c);
	return set;
}

bool column_in_json(int c, unsigned set)
{
	return !(columns[c].needs & (NEED_COSTLY | NEED_CGROUP)) || (set & COL_BIT(c));
}
