#include "cgcolumns.h"

#include <strings.h>

/* JSON keys as the process columns': the name, then the unit (_kb, _pct, _per_s,
 * _us_per_s); none for counts and text. Limits read "max" are null in JSON. */
const struct cg_column cg_columns[CGCOL_COUNT] = {
	[CGCOL_PATH] = {.name = "path",
			.title = "CGROUP",
			.json = "path",
			.desc = "path below the hierarchy's root, as /proc/PID/cgroup gives it",
			.width = 0,
			.unit = UNIT_TEXT,
			.kind = KIND_TEXT,
			.needs = CGNEED_LIST,
			.ascending = true,
			.on = true,
			.label = true},
	[CGCOL_USAGE] = {.name = "usage",
			 .title = "USAGE",
			 .json = "usage_kb",
			 .desc = "memory charged to it and its descendants (memory.current; v1 "
				 "memory.usage_in_bytes)",
			 .width = 6,
			 .unit = UNIT_KB,
			 .kind = KIND_SAMPLE,
			 .needs = CGNEED_FILE,
			 .on = true,
			 .metric = "usage"},
	[CGCOL_LIMIT] = {.name = "limit",
			 .title = "LIMIT",
			 .json = "limit_kb",
			 .desc = "hard limit, max when none (memory.max; v1 memory.limit_in_bytes)",
			 .width = 6,
			 .unit = UNIT_KB,
			 .kind = KIND_SAMPLE,
			 .needs = CGNEED_FILE,
			 .ascending = true,
			 .on = true,
			 .metric = "limit"},
	[CGCOL_HIGH] = {.name = "high",
			.title = "HIGH",
			.json = "high_kb",
			.desc = "throttling limit, max when none (memory.high; v2 only)",
			.width = 6,
			.unit = UNIT_KB,
			.kind = KIND_SAMPLE,
			.needs = CGNEED_FILE,
			.ascending = true,
			.on = true,
			.drop = 3,
			.metric = "high"},
	[CGCOL_LOW] =
		{.name = "low",
		 .title = "LOW",
		 .json = "low_kb",
		 .desc = "best-effort protection from reclaim (memory.low; v1 "
			 "memory.soft_limit_in_bytes, above which reclaim takes from it first)",
		 .width = 6,
		 .unit = UNIT_KB,
		 .kind = KIND_SAMPLE,
		 .needs = CGNEED_FILE,
		 .drop = 3,
		 .metric = "low"},
	[CGCOL_MIN] = {.name = "min",
		       .title = "MIN",
		       .json = "min_kb",
		       .desc = "protection from reclaim (memory.min; v2 only)",
		       .width = 6,
		       .unit = UNIT_KB,
		       .kind = KIND_SAMPLE,
		       .needs = CGNEED_FILE,
		       .drop = 3,
		       .metric = "min"},
	[CGCOL_USAGE_PCT] = {.name = "lim",
			     .title = "%LIM",
			     .json = "usage_pct",
			     .desc = "usage as a percentage of its limit",
			     .width = 5,
			     .unit = UNIT_PCT,
			     .kind = KIND_SHARE,
			     .needs = CGNEED_FILE,
			     .on = true,
			     .of = CGCOL_USAGE,
			     .per = CGCOL_LIMIT},
	[CGCOL_ANON] = {.name = "anon",
			.title = "ANON",
			.json = "anon_kb",
			.desc = "anonymous memory (memory.stat anon; v1 total_rss)",
			.width = 6,
			.unit = UNIT_KB,
			.kind = KIND_SAMPLE,
			.needs = CGNEED_STAT,
			.on = true,
			.drop = 2,
			.metric = "anon"},
	[CGCOL_FILE] =
		{.name = "file",
		 .title = "FILE",
		 .json = "file_kb",
		 .desc = "page cache, tmpfs and shared memory included (memory.stat file; v1 "
			 "total_cache)",
		 .width = 6,
		 .unit = UNIT_KB,
		 .kind = KIND_SAMPLE,
		 .needs = CGNEED_STAT,
		 .on = true,
		 .drop = 2,
		 .metric = "file"},
	[CGCOL_KERNEL] = {.name = "kernel",
			  .title = "KERNEL",
			  .json = "kernel_kb",
			  .desc = "kernel memory: slab, page tables, stacks, sockets (memory.stat "
				  "kernel + sock; v1 memory.kmem.usage_in_bytes)",
			  .width = 6,
			  .unit = UNIT_KB,
			  .kind = KIND_SAMPLE,
			  .needs = CGNEED_STAT,
			  .on = true,
			  .drop = 2,
			  .metric = "kernel"},
	[CGCOL_SWAP] = {.name = "swap",
			.title = "SWAP",
			.json = "swap_kb",
			.desc = "swapped out (memory.swap.current; v1 memory.memsw.usage_in_bytes "
				"less usage)",
			.width = 6,
			.unit = UNIT_KB,
			.kind = KIND_SAMPLE,
			.needs = CGNEED_FILE,
			.on = true,
			.drop = 2,
			.metric = "swap"},
	[CGCOL_SWAP_LIMIT] = {.name = "swap_limit",
			      .title = "SWLIM",
			      .json = "swap_limit_kb",
			      .desc = "swap limit, max when none (memory.swap.max; v1 "
				      "memory.memsw.limit_in_bytes less the limit)",
			      .width = 6,
			      .unit = UNIT_KB,
			      .kind = KIND_SAMPLE,
			      .needs = CGNEED_FILE,
			      .ascending = true,
			      .on = true,
			      .drop = 3,
			      .metric = "swap_limit"},
	[CGCOL_NPROCS] = {.name = "nprocs",
			  .title = "PROCS",
			  .json = "nprocs",
			  .desc = "processes in it and its descendants (cgroup.procs)",
			  .width = 5,
			  .unit = UNIT_ID,
			  .kind = KIND_SAMPLE,
			  .needs = CGNEED_PROCS,
			  .on = true,
			  .drop = 4,
			  .metric = "processes"},
	[CGCOL_OOM_KILLS] = {.name = "oom",
			     .title = "OOM",
			     .json = "oom_kills",
			     .desc = "OOM kills in it and below since memtop started (BPF)",
			     .width = 4,
			     .unit = UNIT_ID,
			     .kind = KIND_SAMPLE,
			     .needs = CGNEED_BPF_OOM,
			     .on = true,
			     .drop = 1,
			     .metric = "oom_kills",
			     .counter = true},
	[CGCOL_OOM_KERNEL] = {.name = "koom",
			      .title = "KOOM",
			      .json = "oom_kills_kernel",
			      .desc = "OOM kills in it and below as the kernel counts them "
				      "(memory.events oom_kill; v1 memory.oom_control, each "
				      "cgroup's own, summed over the cgroups listed below it)",
			      .width = 4,
			      .unit = UNIT_ID,
			      .kind = KIND_SAMPLE,
			      .needs = CGNEED_FILE,
			      .on = true,
			      .drop = 1,
			      .metric = "oom_kills_kernel",
			      .counter = true},
	[CGCOL_STALL] = {.name = "reclaim",
			 .title = "STALL",
			 .json = "reclaim_stall_us_per_s",
			 .desc = "microseconds per second its tasks stalled in direct or memcg "
				 "reclaim (BPF)",
			 .width = 6,
			 .unit = UNIT_US_RATE,
			 .kind = KIND_RATE,
			 .needs = CGNEED_BPF_RECLAIM,
			 .on = true,
			 .drop = 1,
			 .scale = 1e-3,
			 .since_start = true,
			 .total = "reclaim_stall_ns",
			 .metric = "reclaim_stall",
			 .help = "time its tasks stalled in direct or memcg reclaim since memtop "
				 "started (BPF)"},
	[CGCOL_REFAULTS] = {.name = "refaults",
			    .title = "RFLT/s",
			    .json = "refaults_per_s",
			    .desc = "pages refaulted per second, evicted and soon needed again: "
				    "thrashing (memory.stat workingset_refault_anon + _file)",
			    .width = 6,
			    .unit = UNIT_RATE,
			    .kind = KIND_RATE,
			    .needs = CGNEED_STAT,
			    .on = true,
			    .drop = 1,
			    .total = "refaults",
			    .metric = "refaults",
			    .help = "pages refaulted, evicted and soon needed again: thrashing "
				    "(memory.stat workingset_refault_anon + _file)"},
	[CGCOL_PSI_SOME] = {.name = "psi_some",
			    .title = "PSI-S",
			    .json = "psi_some_avg10",
			    .desc = "share of the last 10 s in which some of its tasks stalled on "
				    "memory (memory.pressure; v2 only)",
			    .width = 5,
			    .unit = UNIT_PCT,
			    .kind = KIND_SAMPLE,
			    .needs = CGNEED_FILE,
			    .on = true,
			    .drop = 1,
			    .scale = 0.01,
			    .metric = "pressure_some_avg10"},
	[CGCOL_PSI_FULL] = {.name = "psi_full",
			    .title = "PSI-F",
			    .json = "psi_full_avg10",
			    .desc = "share of the last 10 s in which all of its tasks stalled on "
				    "memory (memory.pressure; v2 only)",
			    .width = 5,
			    .unit = UNIT_PCT,
			    .kind = KIND_SAMPLE,
			    .needs = CGNEED_FILE,
			    .on = true,
			    .drop = 1,
			    .scale = 0.01,
			    .metric = "pressure_full_avg10"},
};

int cg_column_by_name(const char *name)
{
	for (int i = 0; i < CGCOL_COUNT; i++)
		if (!strcasecmp(name, cg_columns[i].name) || !strcasecmp(name, cg_columns[i].title))
			return i;
	return -1;
}

unsigned cg_columns_default(void)
{
	unsigned set = 0;

	for (int c = 0; c < CGCOL_COUNT; c++)
		if (cg_columns[c].on)
			set |= CGCOL_BIT(c);
	return set;
}

unsigned cg_columns_cheap(void)
{
	unsigned set = 0;

	for (int c = 0; c < CGCOL_COUNT; c++)
		if (!(cg_columns[c].needs & CGNEED_COSTLY))
			set |= CGCOL_BIT(c);
	return set;
}

unsigned cg_columns_reads(unsigned set)
{
	unsigned reads = set;

	for (int c = 0; c < CGCOL_COUNT; c++)
		if ((set & CGCOL_BIT(c)) && cg_columns[c].kind == KIND_SHARE)
			reads |= CGCOL_BIT(cg_columns[c].of) | CGCOL_BIT(cg_columns[c].per);
	return reads;
}
