#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"

/* --stacks PID[:SECS] */
static int parse_stacks(const char *arg, struct options *o, char *err, size_t errlen)
{
	char *pid = strdup(arg), *secs, why[200];
	int rc = -1;

	if (!pid) {
		snprintf(err, errlen, "--stacks: out of memory");
		return -1;
	}
	if ((secs = strchr(pid, ':')))
		*secs++ = '\0';
	o->stacks_secs = 0;
	if (parse_pid(pid, &o->stacks_pid, why, sizeof(why)))
		snprintf(err, errlen, "--stacks needs %s", why);
	else if (secs && parse_delay(secs, &o->stacks_secs, why, sizeof(why)))
		snprintf(err, errlen, "--stacks PID:SECS needs %s", why);
	else
		rc = 0;
	free(pid);
	return rc;
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{"batch", no_argument, NULL, 'b'},
		{"json", no_argument, NULL, 'J'},
		{"iterations", required_argument, NULL, 'n'},
		{"delay", required_argument, NULL, 'd'},
		{"pid", required_argument, NULL, 'p'},
		{"user", required_argument, NULL, 'u'},
		{"sort", required_argument, NULL, 'o'},
		{"columns", required_argument, NULL, 'C'},
		{"tree", no_argument, NULL, 't'},
		{"no-kernel-threads", no_argument, NULL, 'K'},
		{"no-bpf", no_argument, NULL, 'B'},
		{"bpf-stats", no_argument, NULL, 'R'},
		{"cgroups", no_argument, NULL, 'g'},
		{"cgroup", required_argument, NULL, 'G'},
		{"stacks", required_argument, NULL, 'S'},
		{"unwind", required_argument, NULL, 'W'},
		{"stack-bytes", required_argument, NULL, 'Y'},
		{"theme", required_argument, NULL, 'T'},
		{"verbose", no_argument, NULL, 'v'},
		{"oom-score-adj", required_argument, NULL, 'A'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0},
	};
	memset(o, 0, sizeof(*o));
	prefs_init(&o->prefs);
	o->theme = "default";
	o->oom_score_adj = GUARD_OOM_ADJ_DEFAULT;
	o->stack_bytes = STACKS_DEFAULT_BYTES;
	optind = 1;
	opterr = 0;
	char q[PARSE_QUOTE_SIZE], why[200];
	int c;
	while ((c = getopt_long(argc, argv, ":bn:d:p:u:o:tKhV", longopts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'b':
			if (o->mode == OUT_TUI)
				o->mode = OUT_BATCH;
			break;
		case 'J':
			o->mode = OUT_JSON;
			break;
		case 'n':
			errno = 0;
			o->iterations = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || o->iterations < 1) {
				snprintf(err, errlen,
					 "-n needs a positive number of refreshes, not '%s'",
					 parse_quote(optarg, q, sizeof(q)));
				return -1;
			}
			break;
		case 'd':
			if (parse_delay(optarg, &o->prefs.delay, why, sizeof(why))) {
				snprintf(err, errlen, "-d needs %s", why);
				return -1;
			}
			o->given |= GIVEN_DELAY;
			break;
		case 'p': {
			int32_t pids[MAX_PIDS];
			int n;
			if (parse_pids(optarg, pids, MAX_PIDS, &n, why, sizeof(why))) {
				snprintf(err, errlen, "-p needs %s", why);
				return -1;
			}
			if (o->prefs.filter.npids + n >
			    MAX_PIDS) { /* -p given more than once adds up */
				snprintf(err, errlen, "-p needs at most %d PIDs in all", MAX_PIDS);
				return -1;
			}
			memcpy(o->prefs.filter.pids + o->prefs.filter.npids, pids,
			       (size_t)n * sizeof(*pids));
			o->prefs.filter.npids += n;
			break;
		}
		case 'u':
			if (parse_user(optarg, &o->prefs.filter.uid, why, sizeof(why))) {
				snprintf(err, errlen, "-u: %s", why);
				return -1;
			}
			o->prefs.filter.by_user = true;
			break;
		case 'o':
			if (parse_column(optarg, &o->prefs.sort, why, sizeof(why))) {
				int n = snprintf(err, errlen, "-o: %s (try", why);
				for (int i = 0; i < COL_COUNT && n > 0 && (size_t)n < errlen; i++)
					n += snprintf(err + n, errlen - (size_t)n, "%s %s",
						      i ? "," : "", columns[i].name);
				if (n > 0 && (size_t)n < errlen)
					snprintf(err + n, errlen - (size_t)n, ")");
				return -1;
			}
			o->given |= GIVEN_SORT;
			break;
		case 'C':
			if (parse_columns(optarg, &o->prefs.cols, why, sizeof(why))) {
				snprintf(err, errlen, "--columns: %s", why);
				return -1;
			}
			o->given |= GIVEN_COLUMNS;
			break;
		case 't':
			o->prefs.tree = true;
			o->given |= GIVEN_TREE;
			break;
		case 'K':
			o->prefs.filter.hide_kthreads = true;
			o->given |= GIVEN_KTHREADS;
			break;
		case 'B':
			o->no_bpf = true;
			break;
		case 'G':
			if (prefs_set_cgroup(&o->prefs.filter, optarg, why, sizeof(why))) {
				snprintf(err, errlen, "--cgroup needs %s", why);
				return -1;
			}
			break;
		case 'R':
			o->bpf_stats = true;
			break;
		case 'g':
			o->cgroups = true;
			break;
		case 'S':
			if (parse_stacks(optarg, o, err, errlen))
				return -1;
			break;
		case 'W':
			if (strcmp(optarg, "dwarf") && strcmp(optarg, "fp")) {
				snprintf(err, errlen, "--unwind needs dwarf or fp, not '%s'",
					 parse_quote(optarg, q, sizeof(q)));
				return -1;
			}
			o->unwind_fp = !strcmp(optarg, "fp");
			break;
		case 'Y': {
			errno = 0;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end == 'k' || *end == 'K')
				n *= 1024, end++;
			if (errno || *end || end == optarg || optarg[0] == '-' ||
			    n < STACKS_MIN_BYTES || n > STACKS_MAX_BYTES) {
				snprintf(err, errlen,
					 "--stack-bytes needs %d to %d (or 1K to 64K), not '%s'",
					 STACKS_MIN_BYTES, STACKS_MAX_BYTES,
					 parse_quote(optarg, q, sizeof(q)));
				return -1;
			}
			o->stack_bytes = (unsigned)n;
			break;
		}
		case 'T':
			o->theme = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'A':
			if (parse_oom_adj(optarg, &o->oom_score_adj, why, sizeof(why))) {
				snprintf(err, errlen, "--oom-score-adj needs %s", why);
				return -1;
			}
			o->given_adj = true;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value",
				 parse_quote(argv[optind - 1], q, sizeof(q)));
			return -1;
		default: {
			const char *arg = argv[optind - 1];
			const char *eq = strchr(arg, '=');
			bool is_long = !strncmp(arg, "--", 2);
			char name[PARSE_QUOTE_SIZE];
			if (is_long) /* the option as given, without any "=value" */
				snprintf(name, sizeof(name), "%.*s",
					 eq ? (int)(eq - arg) : (int)strlen(arg), arg);
			else
				snprintf(name, sizeof(name), "-%c", optopt);
			parse_quote(name, q, sizeof(q));
			if (is_long && optopt && eq) /* a known long option, given a value */
				snprintf(err, errlen, "option '%s' takes no value", q);
			else
				snprintf(err, errlen, "unknown option '%s' (see memtop --help)", q);
			return -1;
		}
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see memtop --help)",
			 parse_quote(argv[optind], q, sizeof(q)));
		return -1;
	}
	if (o->stacks_pid && !o->stacks_secs)
		o->stacks_secs = o->prefs.delay; /* -d, as before --stacks PID:SECS */
	return 0;
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
	      "                        /proc/PID/cgroup names it) or below it\n"
	      "  -o, --sort FIELD      sort by FIELD: pid ppid user rss vsz shr txt data swap\n"
	      "                        pss uss oom mem minflt majflt swapin reclaim comm\n"
	      "                        cgroup cmd\n"
	      "                        (default rss)\n"
	      "      --columns LIST    show these columns (names as for -o, comma-separated);\n"
	      "                        +pss,uss adds to the default set, -txt removes\n"
	      "  -t, --tree            show processes under their parents (key t)\n"
	      "  -K, --no-kernel-threads  leave kernel threads out (key K)\n"
	      "      --no-bpf          load no BPF programs (OOM kills then come from the kernel "
	      "log)\n"
	      "      --bpf-stats       as root, turn the kernel's BPF statistics on while memtop\n"
	      "                        runs, to show its programs' run time (they cost every BPF\n"
	      "                        program on the machine; off again when memtop exits)\n"
	      "      --cgroups         the memory cgroups too: with -b their table after the\n"
	      "                        processes, with --json cgroups[]; the screen starts on\n"
	      "                        them\n"
	      "      --stacks PID[:SECS]\n"
	      "                        sample PID's page-fault, brk, mmap and munmap stacks\n"
	      "                        for SECS seconds (default 1, 0.1 to 86400), print the\n"
	      "                        top ones (text or --json); without :SECS, -d SECS\n"
	      "                        sets them, as it did before :SECS (kept for scripts)\n"
	      "      --unwind dwarf|fp how the drill-down (and --stacks) takes user stacks:\n"
	      "                        dwarf (default) copies the top of the stack and unwinds\n"
	      "                        it with the programs' CFI, for programs built without\n"
	      "                        frame pointers; fp walks frame pointers in the kernel\n"
	      "      --stack-bytes N   bytes of user stack copied per event (default 16K, 512\n"
	      "                        to 64K)\n"
	      "      --theme NAME      colors: default, mono, or a path to a .theme file\n"
	      "      --verbose         print libbpf's messages while loading (or MEMTOP_DEBUG=1)\n"
	      "      --oom-score-adj N as root, memtop's own oom_score_adj (default -900: the OOM\n"
	      "                        killer spares it); its memory is locked once steady\n"
	      "  -h, --help            show this help\n"
	      "  -V, --version         show the version\n",
	      f);
}
