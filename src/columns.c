#include "columns.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const struct column columns[COL_COUNT] = {
	[COL_PID] = {"pid", "PID", 7, UNIT_ID, NEED_STAT, true, 0, "process id"},
	[COL_PPID] = {"ppid", "PPID", 7, UNIT_ID, NEED_STAT, true, 9, "parent process id"},
	[COL_USER] = {"user", "USER", 8, UNIT_TEXT, NEED_STAT, true, 3, "effective user"},
	[COL_RSS] = {"rss", "RSS", 5, UNIT_KB, NEED_STATM, false, 0, "resident set size"},
	[COL_VSZ] = {"vsz", "VSZ", 5, UNIT_KB, NEED_STATM, false, 6, "virtual size"},
	[COL_SHR] = {"shr", "SHR", 5, UNIT_KB, NEED_STATM, false, 5,
		     "resident shared (file and shmem) pages"},
	[COL_TXT] = {"txt", "TXT", 5, UNIT_KB, NEED_STATM, false, 8, "text (code) size"},
	[COL_DATA] = {"data", "DATA", 5, UNIT_KB, NEED_STATM, false, 7, "data + stack size"},
	[COL_SWAP] = {"swap", "SWAP", 5, UNIT_KB, NEED_STATUS, false, 2,
		      "swapped-out memory (VmSwap, read for rows on screen)"},
	[COL_PSS] = {"pss", "PSS", 5, UNIT_KB, NEED_SMAPS, false, 2,
		     "proportional set size: shared pages split among users (smaps_rollup)"},
	[COL_USS] = {"uss", "USS", 5, UNIT_KB, NEED_SMAPS, false, 2,
		     "unique set size: private pages, freed on exit (smaps_rollup)"},
	[COL_OOM] = {"oom", "OOM", 4, UNIT_ID, NEED_OOM, false, 2,
		     "OOM killer's badness score (oom_score): the highest is killed first"},
	[COL_MEM_PCT] = {"mem", "%MEM", 4, UNIT_PCT, NEED_STATM, false, 4, "RSS as share of RAM"},
	[COL_MINFLT] = {"minflt", "MINF/s", 6, UNIT_RATE, NEED_STAT, false, 1,
			"minor page faults per second"},
	[COL_MAJFLT] = {"majflt", "MAJF/s", 6, UNIT_RATE, NEED_STAT, false, 1,
			"major page faults (disk reads) per second"},
	[COL_SWAPIN] = {"swapin", "SWIN/s", 6, UNIT_RATE, NEED_BPF_SWAPIN, false, 1,
			"pages swapped in per second (BPF)"},
	[COL_RECLAIM] = {"reclaim", "STALL", 6, UNIT_US_RATE, NEED_BPF_RECLAIM, false, 1,
			 "microseconds per second stalled in direct or memcg reclaim (BPF)"},
	[COL_COMM] = {"comm", "NAME", 15, UNIT_TEXT, NEED_STAT, true, 9, "process name"},
	[COL_CMD] = {"cmd", "COMMAND", 0, UNIT_TEXT, NEED_CMDLINE, true, 0, "command line"},
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
	return COL_BIT(COL_PID) | COL_BIT(COL_USER) | COL_BIT(COL_RSS) | COL_BIT(COL_VSZ) |
	       COL_BIT(COL_SHR) | COL_BIT(COL_TXT) | COL_BIT(COL_DATA) | COL_BIT(COL_SWAP) |
	       COL_BIT(COL_MEM_PCT) | COL_BIT(COL_MINFLT) | COL_BIT(COL_MAJFLT) |
	       COL_BIT(COL_SWAPIN) | COL_BIT(COL_RECLAIM) | COL_BIT(COL_CMD);
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
