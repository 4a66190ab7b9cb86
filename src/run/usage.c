/* memtop --help: the flags, one a line (man/mkman.c makes the manual's OPTIONS of it) */
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "screen.h"
#include "theme.h"

#define DESC_COL 24 /* where a flag's description starts, and its lines go on */
#define LINE_W	 80

/* Prints word after a space, or on a line of its own under the description where the line
 * has no room for it; returns the column after it */
static int word(FILE *f, int at, const char *word)
{
	int len = (int)strlen(word);

	if (at + 1 + len >= LINE_W)
		at = fprintf(f, "\n%*s", DESC_COL, "") - 1;
	else
		at += fprintf(f, " ");
	return at + fprintf(f, "%s", word);
}

/* -o's names: the column table's */
static void sort_names(FILE *f)
{
	int at = fprintf(f, "  -o, --sort FIELD      sort by FIELD (default %s):",
			 prefs_table[PREF_SORT].preset);

	for (int c = 0; c < COL_COUNT; c++)
		at = word(f, at, columns[c].name);
	fputc('\n', f);
}

/* --theme's names: the themes compiled in (themes/), the default first */
/* The key that cycles the themes, as the key table names it */
static const char *theme_key(void)
{
	static char name[16];

	for (const struct binding *b = common_bindings; b->act; b++)
		if (b->act == CK_THEME)
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(b->names, " "), b->names);
	return name;
}

static void theme_names(FILE *f)
{
	const char *first = theme_next(""), *t = first;
	char name[64], tail[128];
	int at = fprintf(f, "      --theme NAME      colors:");

	do {
		snprintf(name, sizeof(name), "%s,", t);
		at = word(f, at, name);
		t = theme_next(t);
	} while (strcmp(t, first));
	snprintf(tail, sizeof(tail),
		 "or a path to a .theme file (key %s cycles them; NO_COLOR set: mono)",
		 theme_key());
	for (const char *w = tail; *w; w += strcspn(w, " "), w += *w == ' ') {
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(w, " "), w);
		at = word(f, at, name);
	}
	fputc('\n', f);
}

void options_usage(FILE *f)
{
	fputs("Usage: memtop [options]\n"
	      "A top-like monitor for memory: who uses it, who faults, who swaps, who was killed.\n"
	      "\n"
	      "  -b, --batch           print refreshes as text, like top -b\n"
	      "      --json            print one JSON object per line per refresh\n"
	      "  -n, --iterations N    stop after N refreshes\n"
	      "  -d, --delay SECS      seconds between refreshes (default 1, 0.1 to 86400)\n"
	      "  -p, --pid PID[,PID]   show only these processes\n"
	      "  -u, --user USER       show only processes of USER (name or uid)\n"
	      "      --cgroup PATH     show only processes in memory cgroup PATH (as\n"
	      "                        /proc/PID/cgroup names it) or below it\n",
	      f);
	sort_names(f);
	fputs("      --columns LIST    show these columns (names as for -o, comma-separated);\n"
	      "                        +pss,uss adds to the default set, -txt removes\n"
	      "  -t, --tree            show processes under their parents (key t)\n"
	      "  -K, --no-kernel-threads  leave kernel threads out (key K)\n"
	      "      --no-bpf          load no BPF programs (OOM kills then come from the kernel "
	      "log)\n"
	      "      --no-wait         -b, --json: print the first refresh from /proc while the\n"
	      "                        BPF programs load (BPF figures null till then; with -n 1\n"
	      "                        none load); -b -n 1 loads none anyway\n"
	      "      --pin             with --record or --serve: pin the BPF programs (in\n"
	      "                        /sys/fs/bpf/memtop) for other memtops to use, with the\n"
	      "                        recording's last hour\n"
	      "      --bpf-stats       as root, turn the kernel's BPF statistics on while memtop\n"
	      "                        runs, to show its programs' run time (they cost every BPF\n"
	      "                        program on the machine; off again when memtop exits)\n"
	      "      --openmetrics     print one exposition of the Prometheus text format 0.0.4\n"
	      "                        (for node_exporter's textfile collector) and exit\n"
	      "      --serve [ADDR:]PORT\n"
	      "                        no screen: serve the last refresh's metrics at\n"
	      "                        http://ADDR:PORT/metrics (ADDR 127.0.0.1 unless given;\n"
	      "                        [::1]:PORT for IPv6); -d defaults to 5 s\n"
	      "      --web-config FILE with --serve: TLS and basic authentication, from a\n"
	      "                        file in node_exporter's format (tls_server_config\n"
	      "                        cert_file and key_file, basic_auth_users with bcrypt\n"
	      "                        hashes)\n"
	      "      --groups FILE     with --serve, --openmetrics: export process groups\n"
	      "                        (process-exporter's process_names: by comm, exe,\n"
	      "                        cmdline, user or cgroup) in place of the processes;\n"
	      "                        with --json groups[]\n"
	      "      --top K           export the top K processes by each of RSS, fault rate,\n"
	      "                        swap-in rate and reclaim stall (default 20)\n"
	      "      --users           the totals per user too (smem -u: count, swap, USS,\n"
	      "                        PSS, RSS; smaps_rollup read for every process): with\n"
	      "                        -b a table after the processes, with --json users[]\n"
	      "      --cgroups         the memory cgroups too: with -b their table after the\n"
	      "                        processes, with --json cgroups[]; the screen starts on\n"
	      "                        them\n"
	      "      --slab            the kernel's slab caches too (/proc/slabinfo, root's):\n"
	      "                        with -b their table after the processes, with --json\n"
	      "                        slabs[]; the screen starts on them\n"
	      "      --account         MemTotal split into parts that sum to it (processes,\n"
	      "                        page cache, shmem, slab, kernel, free...): with -b its\n"
	      "                        table after the processes, with --json account{}; the\n"
	      "                        screen starts on it\n"
	      "      --stacks PID[:SECS]\n"
	      "                        sample PID's page-fault, brk, mmap and munmap stacks\n"
	      "                        for SECS seconds (default -d's, else 1; 0.1 to 86400),\n"
	      "                        print the top ones (text or --json); a thread id\n"
	      "                        stands for its process\n"
	      "      --stacks -- CMD ARGS...\n"
	      "                        start CMD (as $SUDO_USER under sudo) and sample it from\n"
	      "                        its first instruction until it exits (or -d SECS, given\n"
	      "                        before --stacks); exits with CMD's status\n"
	      "      --folded          --stacks prints the stacks in the folded format of\n"
	      "                        flame graphs: frame;frame;frame COUNT, root first\n"
	      "      --leaks PID[:SECS]\n"
	      "                        PID's allocations (libc malloc and its kin, mmap)\n"
	      "                        not freed within SECS seconds (default 10), by\n"
	      "                        stack, with bytes, counts and the oldest's age (text\n"
	      "                        or --json); small ones sampled, see doc/stacks.md\n",
	      f);
	theme_names(f);
	fputs("      --no-mouse        leave the mouse to the terminal (its own selection)\n"
	      "      --read-only       the screen changes nothing: its keys that signal a\n"
	      "                        process, set an oom_score_adj or act on a cgroup\n"
	      "                        (limits, reclaim, kill) refuse, saying so\n"
	      "      --unwind dwarf|fp how the drill-down (and --stacks) takes user stacks:\n"
	      "                        dwarf (default) copies the top of the stack and unwinds\n"
	      "                        it with the programs' CFI, for programs built without\n"
	      "                        frame pointers; fp walks frame pointers in the kernel\n"
	      "      --stack-bytes N   bytes of user stack copied per event (default 16K, 512\n"
	      "                        to 64K)\n"
	      "      --verbose         print libbpf's messages while loading (or MEMTOP_DEBUG=1)\n"
	      "      --oom-score-adj N as root, memtop's own oom_score_adj (default -900: the OOM\n"
	      "                        killer spares it); its memory is locked once steady\n"
	      "      --lock-max SIZE   as root, lock at most SIZE of memtop's working set once\n"
	      "                        steady: its code, data and stack as touched (default 16M;\n"
	      "                        0: none); never its heap, which grows with the processes\n"
	      "      --record FILE     no screen: append each refresh to FILE (with -b or\n"
	      "                        --json, print it too)\n"
	      "      --record-dir DIR  the same, one file a day in DIR (memtop-YYYYMMDD.rec)\n"
	      "      --record-max SIZE keep the recording under SIZE bytes (K, M, G)\n"
	      "      --keep DAYS       with --record-dir, remove the files of older days\n"
	      "      --replay FILE|DIR replay a recording: the screen, -b or --json\n"
	      "      --begin TIME      replay from TIME: HH:MM[:SS] (the first sample's day)\n"
	      "                        or YYYY-MM-DD HH:MM[:SS]\n"
	      "      --end TIME        replay to TIME (the same forms)\n"
	      "  -h, --help            show this help\n"
	      "  -V, --version         show the version\n",
	      f);
}
