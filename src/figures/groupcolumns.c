#include "groupcolumns.h"

static const char *get_name(const void *s)
{
	return ((const struct group_total *)s)->name;
}

/* The process columns' metrics (columns.c), summed over a group's members */
const struct column group_columns[GROUPCOL_COUNT] = {
	[GROUPCOL_NAME] = {COLUMN("groupname", "GROUP", "groupname"), .width = 20,
			   .unit = UNIT_TEXT, .kind = KIND_TEXT, .ascending = true, .on = true,
			   .text = get_name, .label = true,
			   .desc = "the group's name, from its rule's name template"},
	[GROUPCOL_PROCS] = {COLUMN("count", "COUNT", "count"), .width = 6, .unit = UNIT_ID,
			    .kind = KIND_SAMPLE, .on = true, .metric = "processes",
			    .desc = "the processes in the group"},
	[GROUPCOL_RSS] = {COLUMN("rss", "RSS", "rss_kb"), KB_SAMPLE(6, 0), .on = true,
			  .metric = "resident",
			  .desc = "the sum of its processes' resident set size (statm)"},
	[GROUPCOL_SWAP] = {COLUMN("swap", "SWAP", "swap_kb"), KB_SAMPLE(6, 0), .on = true,
			   .metric = "swap", .desc = "the sum of its processes' swap (VmSwap)"},
	[GROUPCOL_PSS] = {COLUMN("pss", "PSS", "pss_kb"), KB_SAMPLE(6, 0), .metric = "pss",
			  .desc = "the sum of its processes' proportional set size "
				  "(smaps_rollup), where read (--columns +pss)"},
	[GROUPCOL_MINFLT] = {COLUMN("minflt", "MINF/s", "minflt_per_s"), .width = 6,
			     .unit = UNIT_RATE, .kind = KIND_RATE, .on = true, .total = "minflt",
			     .metric = "minor_faults",
			     .help = "minor page faults of the group's processes, those that "
				     "exited included"},
	[GROUPCOL_MAJFLT] = {COLUMN("majflt", "MAJF/s", "majflt_per_s"), .width = 6,
			     .unit = UNIT_RATE, .kind = KIND_RATE, .on = true, .total = "majflt",
			     .metric = "major_faults",
			     .help = "major page faults of the group's processes, those that "
				     "exited included"},
	[GROUPCOL_SWAPIN] = {COLUMN("swapin", "SWIN/s", "swapin_per_s"), .width = 6,
			     .unit = UNIT_RATE, .kind = KIND_RATE, .on = true, .since_start = true,
			     .total = "swapins", .metric = "swapin_pages",
			     .help = "pages the group's processes swapped in since memtop started "
				     "(BPF), those that exited included"},
	[GROUPCOL_RECLAIM] = {COLUMN("reclaim", "STALL", "reclaim_stall_us_per_s"), .width = 6,
			      .unit = UNIT_US_RATE, .kind = KIND_RATE, .on = true, .scale = 1e-3,
			      .since_start = true, .total = "reclaim_stall_ns",
			      .metric = "reclaim_stall",
			      .help = "time the group's processes stalled in direct or memcg "
				      "reclaim since memtop started (BPF), those that exited "
				      "included"},
	[GROUPCOL_OOMS] = {COLUMN("ooms", "OOMS", "oom_kills"), .width = 5, .unit = UNIT_ID,
			   .kind = KIND_SAMPLE, .on = true, .counter = true, .metric = "oom_kills",
			   .desc = "the group's processes killed by the OOM killer since memtop "
				   "started"},
};
