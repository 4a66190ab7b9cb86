#include "cgcolumns.h"

#include <stdio.h>
#include <string.h>

#include "snapshot.h"
#include "text.h"

static const char *get_path(const void *s)
{
	return ((const struct cg_sample *)s)->path;
}

static const char *get_name(const void *s)
{
	return ((const struct cg_sample *)s)->name;
}

const char *cg_runtime_name(int runtime)
{
	static const char *const names[CG_RT_COUNT] = {
		[CG_RT_DOCKER] = "docker",
		[CG_RT_PODMAN] = "podman",
		[CG_RT_KUBERNETES] = "kubernetes",
		[CG_RT_SYSTEMD] = "systemd",
	};
	return runtime > 0 && runtime < CG_RT_COUNT ? names[runtime] : NULL;
}

static const char *get_runtime(const void *s)
{
	return cg_runtime_name(((const struct cg_sample *)s)->runtime);
}

size_t cg_display_name(const char *name, const char *path, char *buf, size_t size, size_t max)
{
	size_t n;

	if (name && *name)
		return fmt_cut(name, strlen(name), buf, size);
	path = path ? path : "";
	n = strlen(path);
	if (max > size - 1)
		max = size - 1;
	if (n <= max || max < 12)
		return fmt_cut(path, n, buf, size);
	/* a third from its start, the rest from its end, each of whole UTF-8 characters */
	size_t head = (max - 3) / 3, from = n - (max - 3 - head);
	while (head && (path[head] & 0xc0) == 0x80)
		head--;
	while (from < n && (path[from] & 0xc0) == 0x80)
		from++;
	int k = snprintf(buf, size, "%.*s...%s", (int)head, path, path + from);
	return k < 0 ? 0 : (size_t)k < size ? (size_t)k : size - 1;
}

/* JSON keys as the process columns': the name, then the unit (_kb, _pct, _per_s,
 * _us_per_s); none for counts and text. Limits read "max" are null in JSON. */
const struct column cg_columns[CGCOL_COUNT] = {
	[CGCOL_PATH] = {COLUMN("path", "CGROUP", "path"), .width = 0, .unit = UNIT_TEXT,
			.kind = KIND_TEXT, .needs = CGNEED_LIST, .ascending = true, .on = true,
			.text = get_path, .label = true,
			.desc = "its path, as /proc/PID/cgroup gives it"},
	[CGCOL_NAME] = {COLUMN("name", "NAME", "name"), .width = 20, .unit = UNIT_TEXT,
			.kind = KIND_TEXT, .needs = CGNEED_LIST, .ascending = true, .on = true,
			.drop = 2, .min = 12, .text = get_name, .label = true,
			.desc = "container, pod or unit"},
	[CGCOL_RUNTIME] = {COLUMN("runtime", "RUNTIME", "runtime"), .width = 10, .unit = UNIT_TEXT,
			   .kind = KIND_TEXT, .needs = CGNEED_LIST, .ascending = true, .drop = 3,
			   .text = get_runtime, .label = true, .desc = "what named it"},
	[CGCOL_USAGE] = {COLUMN("usage", "USAGE", "usage_kb"), KB_SAMPLE(6, CGNEED_FILE),
			 .on = true, .metric = "usage",
			 .desc = "memory charged to it and its descendants (memory.current; v1 "
				 "memory.usage_in_bytes)"},
	[CGCOL_LIMIT] =
		{COLUMN("limit", "LIMIT", "limit_kb"), KB_SAMPLE(6, CGNEED_FILE), .ascending = true,
		 .on = true, .metric = "limit",
		 .desc = "hard limit, max when none (memory.max; v1 memory.limit_in_bytes)"},
	[CGCOL_HIGH] = {COLUMN("high", "HIGH", "high_kb"), KB_SAMPLE(6, CGNEED_FILE),
			.ascending = true, .on = true, .drop = 3, .metric = "high",
			.desc = "throttling limit, max when none (memory.high; v2 only)"},
	[CGCOL_LOW] =
		{COLUMN("low", "LOW", "low_kb"), KB_SAMPLE(6, CGNEED_FILE), .drop = 3,
		 .metric = "low",
		 .desc = "best-effort protection from reclaim (memory.low; v1 "
			 "memory.soft_limit_in_bytes, above which reclaim takes from it first)"},
	[CGCOL_MIN] = {COLUMN("min", "MIN", "min_kb"), KB_SAMPLE(6, CGNEED_FILE), .drop = 3,
		       .metric = "min", .desc = "protection from reclaim (memory.min; v2 only)"},
	[CGCOL_USAGE_PCT] = {COLUMN("lim", "%LIM", "usage_pct"), .width = 5, .unit = UNIT_PCT,
			     .kind = KIND_SHARE, .needs = CGNEED_FILE, .on = true,
			     .of = CGCOL_USAGE, .per = CGCOL_LIMIT,
			     .desc = "usage as a percentage of its limit"},
	[CGCOL_GROWTH] = {COLUMN("growth", "GROW/min", "growth_kb_per_min"), .width = 8,
			  .unit = UNIT_KB_MIN, .kind = KIND_GROWTH, .needs = CGNEED_FILE,
			  .on = true, .drop = 1,
			  .desc = "usage growth per minute, fitted over the last minute (a "
				  "cgroup with a limit)"},
	[CGCOL_LIMIT_IN] = {COLUMN("limit_in", "LIMIT-IN", "limit_in_s"), .width = 8,
			    .unit = UNIT_SECS, .kind = KIND_GROWTH, .needs = CGNEED_FILE,
			    .ascending = true, .on = true, .drop = 1,
			    .desc = "time until usage reaches the limit (or memory.high) at "
				    "that growth; none while it does not grow"},
	[CGCOL_VICTIM] = {COLUMN("victim", "VICTIM", "victim_pid"), .width = 7, .unit = UNIT_ID,
			  .kind = KIND_GROWTH, .needs = CGNEED_FILE, .drop = 3,
			  .desc = "the process an OOM kill in it would take: the highest badness "
				  "among its tasks"},
	[CGCOL_ANON] = {COLUMN("anon", "ANON", "anon_kb"), KB_SAMPLE(6, CGNEED_STAT), .on = true,
			.drop = 2, .metric = "anon",
			.desc = "anonymous memory (memory.stat anon; v1 total_rss)"},
	[CGCOL_FILE] =
		{COLUMN("file", "FILE", "file_kb"), KB_SAMPLE(6, CGNEED_STAT), .on = true,
		 .drop = 2, .metric = "file",
		 .desc = "page cache, tmpfs and shared memory included (memory.stat file; v1 "
			 "total_cache)"},
	[CGCOL_KERNEL] = {COLUMN("kernel", "KERNEL", "kernel_kb"), KB_SAMPLE(6, CGNEED_STAT),
			  .on = true, .drop = 2, .metric = "kernel",
			  .desc = "kernel memory: slab, page tables, stacks, sockets (memory.stat "
				  "kernel + sock; v1 memory.kmem.usage_in_bytes)"},
	[CGCOL_SWAP] = {COLUMN("swap", "SWAP", "swap_kb"), KB_SAMPLE(6, CGNEED_FILE), .on = true,
			.drop = 2, .metric = "swap",
			.desc = "swapped out (memory.swap.current; v1 memory.memsw.usage_in_bytes "
				"less usage)"},
	[CGCOL_SWAP_LIMIT] = {COLUMN("swap_limit", "SWLIM", "swap_limit_kb"),
			      KB_SAMPLE(6, CGNEED_FILE), .ascending = true, .on = true, .drop = 3,
			      .metric = "swap_limit",
			      .desc = "swap limit, max when none (memory.swap.max; v1 "
				      "memory.memsw.limit_in_bytes less the limit)"},
	[CGCOL_NPROCS] = {COLUMN("nprocs", "PROCS", "nprocs"), .width = 5, .unit = UNIT_ID,
			  .kind = KIND_SAMPLE, .needs = CGNEED_PROCS, .on = true, .drop = 4,
			  .metric = "processes",
			  .desc = "processes in it and its descendants (cgroup.procs)"},
	[CGCOL_OOM_KILLS] = {COLUMN("oom", "OOM", "oom_kills"), .width = 4, .unit = UNIT_ID,
			     .kind = KIND_SAMPLE, .needs = CGNEED_BPF_OOM, .on = true, .drop = 1,
			     .metric = "oom_kills", .counter = true,
			     .desc = "OOM kills in it and below since memtop started (BPF)"},
	[CGCOL_OOM_KERNEL] = {COLUMN("koom", "KOOM", "oom_kills_kernel"), .width = 4,
			      .unit = UNIT_ID, .kind = KIND_SAMPLE, .needs = CGNEED_FILE,
			      .on = true, .drop = 1, .metric = "oom_kills_kernel", .counter = true,
			      .desc = "OOM kills in it and below as the kernel counts them "
				      "(memory.events oom_kill; v1 memory.oom_control, each "
				      "cgroup's own, summed over the cgroups listed below it)"},
	[CGCOL_STALL] = {COLUMN("reclaim", "STALL", "reclaim_stall_us_per_s"), .width = 6,
			 .unit = UNIT_US_RATE, .kind = KIND_RATE, .needs = CGNEED_BPF_RECLAIM,
			 .on = true, .drop = 1, .scale = 1e-3, .since_start = true,
			 .total = "reclaim_stall_ns", .metric = "reclaim_stall",
			 .help = "time its tasks stalled in direct or memcg reclaim since memtop "
				 "started (BPF)",
			 .desc = "microseconds per second its tasks stalled in direct or memcg "
				 "reclaim (BPF)"},
	[CGCOL_REFAULTS] = {COLUMN("refaults", "RFLT/s", "refaults_per_s"), .width = 6,
			    .unit = UNIT_RATE, .kind = KIND_RATE, .needs = CGNEED_STAT, .on = true,
			    .drop = 1, .total = "refaults", .metric = "refaults",
			    .help = "pages refaulted, evicted and soon needed again: thrashing "
				    "(memory.stat workingset_refault_anon + _file)",
			    .desc = "pages refaulted per second, evicted and soon needed again: "
				    "thrashing (memory.stat workingset_refault_anon + _file)"},
	[CGCOL_PSI_SOME] = {COLUMN("psi_some", "PSI-S", "psi_some_avg10"), .width = 5,
			    .unit = UNIT_PCT, .kind = KIND_SAMPLE, .needs = CGNEED_FILE, .on = true,
			    .drop = 1, .scale = 0.01, .metric = "pressure_some_avg10",
			    .desc = "share of the last 10 s in which some of its tasks stalled on "
				    "memory (memory.pressure; v2 only)"},
	[CGCOL_PSI_FULL] = {COLUMN("psi_full", "PSI-F", "psi_full_avg10"), .width = 5,
			    .unit = UNIT_PCT, .kind = KIND_SAMPLE, .needs = CGNEED_FILE, .on = true,
			    .drop = 1, .scale = 0.01, .metric = "pressure_full_avg10",
			    .desc = "share of the last 10 s in which all of its tasks stalled on "
				    "memory (memory.pressure; v2 only)"},
};

unsigned cg_columns_reads(unsigned set)
{
	unsigned reads = set;

	for (int c = 0; c < CGCOL_COUNT; c++)
		if ((set & CGCOL_BIT(c)) && cg_columns[c].kind == KIND_SHARE)
			reads |= CGCOL_BIT(cg_columns[c].of) | CGCOL_BIT(cg_columns[c].per);
	return reads;
}
