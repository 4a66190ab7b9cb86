#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

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
		{"stacks", required_argument, NULL, 'S'},
		{"theme", required_argument, NULL, 'T'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0},
	};
	memset(o, 0, sizeof(*o));
	o->delay = 1.0;
	o->sort = COL_RSS;
	o->columns = columns_default();
	o->theme = "default";
	optind = 1;
	opterr = 0;
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
					 optarg);
				return -1;
			}
			break;
		case 'd':
			errno = 0;
			o->delay = strtod(optarg, &end);
			if (errno || *end || end == optarg || !isfinite(o->delay) ||
			    o->delay < DELAY_MIN || o->delay > DELAY_MAX) {
				snprintf(err, errlen,
					 "-d needs seconds between %g and %g, not '%s'", DELAY_MIN,
					 DELAY_MAX, optarg);
				return -1;
			}
			o->given |= GIVEN_DELAY;
			break;
		case 'p': {
			char *s = optarg;
			while (*s) {
				errno = 0;
				long v = strtol(s, &end, 10);
				if (errno || end == s || v < 1 || v > INT32_MAX ||
				    (*end && *end != ',')) {
					snprintf(err, errlen, "-p needs PID[,PID...], not '%s'",
						 optarg);
					return -1;
				}
				if (o->npids == MAX_PIDS) {
					snprintf(err, errlen, "-p takes at most %d pids", MAX_PIDS);
					return -1;
				}
				o->pids[o->npids++] = (int32_t)v;
				s = *end ? end + 1 : end;
			}
			if (!o->npids) {
				snprintf(err, errlen, "-p needs PID[,PID...]");
				return -1;
			}
			break;
		}
		case 'u': {
			struct passwd *pw = getpwnam(optarg);
			errno = 0;
			long v = strtol(optarg, &end, 10);
			if (pw) {
				o->uid = pw->pw_uid;
			} else if (!errno && *optarg && !*end && v >= 0 && v <= UINT32_MAX) {
				o->uid = (uint32_t)v;
			} else {
				snprintf(err, errlen, "-u: no such user '%s'", optarg);
				return -1;
			}
			o->by_user = true;
			break;
		}
		case 'o': {
			int col = column_by_name(optarg);
			if (col < 0) {
				int n = snprintf(err, errlen, "-o: no column '%.40s' (try", optarg);
				for (int i = 0; i < COL_COUNT && n > 0 && (size_t)n < errlen; i++)
					n += snprintf(err + n, errlen - (size_t)n, "%s %s",
						      i ? "," : "", columns[i].name);
				if (n > 0 && (size_t)n < errlen)
					snprintf(err + n, errlen - (size_t)n, ")");
				return -1;
			}
			o->sort = (enum col_id)col;
			o->given |= GIVEN_SORT;
			break;
		}
		case 'C':
			if (columns_parse(optarg, &o->columns, err, errlen))
				return -1;
			o->given |= GIVEN_COLUMNS;
			break;
		case 't':
			o->tree = true;
			o->given |= GIVEN_TREE;
			break;
		case 'K':
			o->hide_kthreads = true;
			o->given |= GIVEN_KTHREADS;
			break;
		case 'B':
			o->no_bpf = true;
			break;
		case 'S': {
			errno = 0;
			long v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 1 || v > INT32_MAX) {
				snprintf(err, errlen, "--stacks needs a PID, not '%s'", optarg);
				return -1;
			}
			o->stacks_pid = (int32_t)v;
			break;
		}
		case 'T':
			o->theme = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		default: {
			const char *arg = argv[optind - 1];
			const char *eq = strchr(arg, '=');
			int len = eq ? (int)(eq - arg) : (int)strlen(arg);
			if (strncmp(arg, "--", 2))
				snprintf(err, errlen, "unknown option '-%c' (see memtop --help)",
					 optopt);
			else if (optopt && eq) /* a known long option, given a value */
				snprintf(err, errlen, "option '%.*s' takes no value", len, arg);
			else
				snprintf(err, errlen, "unknown option '%.*s' (see memtop --help)",
					 len, arg);
			return -1;
		}
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see memtop --help)", argv[optind]);
		return -1;
	}
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
	      "  -d, --delay SECS      seconds between refreshes (default 1, at least 0.1)\n"
	      "  -p, --pid PID[,PID]   show only these processes\n"
	      "  -u, --user USER       show only processes of USER (name or uid)\n"
	      "  -o, --sort FIELD      sort by FIELD: pid ppid user rss vsz shr txt data swap\n"
	      "                        pss uss oom mem minflt majflt swapin reclaim comm cmd\n"
	      "                        (default rss)\n"
	      "      --columns LIST    show these columns (names as for -o, comma-separated);\n"
	      "                        +pss,uss adds to the default set, -txt removes\n"
	      "  -t, --tree            show processes under their parents (key t)\n"
	      "  -K, --no-kernel-threads  leave kernel threads out (key K)\n"
	      "      --no-bpf          load no BPF programs (OOM kills then come from the kernel "
	      "log)\n"
	      "      --stacks PID      sample PID's page-fault, brk, mmap and munmap stacks\n"
	      "                        for -d SECS, print the top ones (text or --json)\n"
	      "      --theme NAME      colors: default, mono, or a path to a .theme file\n"
	      "      --verbose         print libbpf's messages while loading (or MEMTOP_DEBUG=1)\n"
	      "  -h, --help            show this help\n"
	      "  -V, --version         show the version\n",
	      f);
}
