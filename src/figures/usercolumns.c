#include "usercolumns.h"

static const char *get_user(const void *s)
{
	const char *name = ((const struct user_total *)s)->name;

	return name ? name : "";
}

/* As smem -u counts them (users.h); JSON keys as users[]'s */
const struct column user_columns[USERCOL_COUNT] = {
	[USERCOL_USER] = {COLUMN("user", "USER", "user"), .width = 12, .unit = UNIT_TEXT,
			  .kind = KIND_TEXT, .ascending = true, .on = true, .text = get_user,
			  .desc = "the user's name (its uid where it has none)"},
	[USERCOL_NPROCS] = {COLUMN("count", "COUNT", "count"), .width = 6, .unit = UNIT_ID,
			    .kind = KIND_SAMPLE, .on = true,
			    .desc = "its processes with memory mapped (no kernel threads, no "
				    "zombies), as smem -u counts them"},
	[USERCOL_SWAP] = {COLUMN("swap", "SWAP", "swap_kb"), KB_SAMPLE(6, 0), .on = true,
			  .desc = "the sum of its processes' swap (VmSwap)"},
	[USERCOL_USS] = {COLUMN("uss", "USS", "uss_kb"), KB_SAMPLE(6, 0), .on = true,
			 .desc = "the sum of its processes' unique memory (smaps_rollup)"},
	[USERCOL_PSS] = {COLUMN("pss", "PSS", "pss_kb"), KB_SAMPLE(6, 0), .on = true,
			 .desc = "the sum of its processes' proportional share (smaps_rollup)"},
	[USERCOL_RSS] = {COLUMN("rss", "RSS", "rss_kb"), KB_SAMPLE(6, 0), .on = true,
			 .desc = "the sum of its processes' resident memory (VmRSS)"},
};
