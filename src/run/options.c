#include "options.h"

#include "metric.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"
/* long options without a letter */
enum { OPT_NO_MOUSE = 0x100 };

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

/* --serve [ADDR:]PORT: PORT alone listens on 127.0.0.1; ADDR is an IPv4 address or an
 * IPv6 one in brackets ([::1]:9100) */
static int parse_listen(const char *arg, struct sockaddr_storage *ss, char *err, size_t errlen)
{
	char addr[64] = "127.0.0.1", q[PARSE_QUOTE_SIZE];
	const char *given = arg, *colon = strrchr(arg, ':'), *port = colon ? colon + 1 : arg;
	char *end;

	memset(ss, 0, sizeof(*ss));
	errno = 0;
	long p = strtol(port, &end, 10);
	if (errno || *end || end == port || *port == '+' || *port == '-' || p < 1 || p > 65535)
		goto bad;
	if (colon) {
		size_t n = (size_t)(colon - arg);
		if (n >= 2 && arg[0] == '[' && arg[n - 1] == ']')
			arg++, n -= 2;
		if (n == 0 || n >= sizeof(addr))
			goto bad;
		memcpy(addr, arg, n);
		addr[n] = '\0';
	}
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, addr, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)p);
	} else if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1 && colon && colon[-1] == ']') {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)p);
	} else {
		goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "--serve needs [ADDR:]PORT, a port from 1 to 65535 and an IPv4 address or an "
		 "IPv6 one in brackets, not '%s'",
		 parse_quote(given, q, sizeof(q)));
	return -1;
}

/* --openmetrics and --serve print or serve, as --json prints: one of them */
static int set_mode(struct options *o, enum out_mode mode, const char *flag, char *err,
		    size_t errlen)
{
	if (o->mode != OUT_TUI && o->mode != mode) {
		snprintf(err, errlen, "%s: only one of -b, --json, --openmetrics and --serve",
			 flag);
		return -1;
	}
	o->mode = mode;
	return 0;
}

/* --record-max SIZE: bytes, or with a suffix K, M, G (KiB, MiB, GiB) */
static int parse_size(const char *arg, uint64_t *out, char *err, size_t errlen)
{
	char *end, q[PARSE_QUOTE_SIZE];
	errno = 0;
	double v = strtod(arg, &end);
	const char *units = "KMG";
	const char *u = *end ? strchr(units, *end) : NULL;
	if (u)
		v *= (double)(1ull << (10 * (u - units + 1)));
	if (errno || end == arg || (*end && (!u || end[1])) || !(v >= 4096) || v > 1e18) {
		snprintf(err, errlen,
			 "--record-max needs a size of 4K or more (bytes, K, M, G), not '%s'",
			 parse_quote(arg, q, sizeof(q)));
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

/* What goes with what: recording, replaying */
static int check_record(struct options *o, char *err, size_t errlen)
{
	const char *why = NULL;
	if (o->rec.file && o->rec.dir)
		why = "--record and --record-dir: one or the other";
	else if ((o->rec.max || o->rec.keep) && !o->rec.file && !o->rec.dir)
		why = "--record-max and --keep go with --record or --record-dir";
	else if (o->rec.keep && !o->rec.dir)
		why = "--keep goes with --record-dir (one file a day)";
	else if (o->replay && (o->rec.file || o->rec.dir))
		why = "--replay and --record: one or the other";
	else if (o->replay && o->mode == OUT_SERVE)
		why = "--serve shows the live machine, not a --replay (--openmetrics prints a "
		      "replay's last sample)";
	else if ((o->rec.file || o->rec.dir) &&
		 (o->mode == OUT_OPENMETRICS || o->mode == OUT_SERVE))
		why = "--record goes with the screen, -b or --json, not --openmetrics or --serve";
	else if ((o->begin || o->end) && !o->replay)
		why = "--begin and --end go with --replay";
	if (why)
		snprintf(err, errlen, "%s", why);
	return why ? -1 : 0;
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
		{"stack-bytes", required_argument, NULL, 'Z'},
		{"theme", required_argument, NULL, 'T'},
		{"no-mouse", no_argument, NULL, OPT_NO_MOUSE},
		{"verbose", no_argument, NULL, 'v'},
		{"oom-score-adj", required_argument, NULL, 'A'},
		{"openmetrics", no_argument, NULL, 'M'},
		{"serve", required_argument, NULL, 'L'},
		{"top", required_argument, NULL, 'k'},
		{"record", required_argument, NULL, 'r'},
		{"record-dir", required_argument, NULL, 'D'},
		{"record-max", required_argument, NULL, 'X'},
		{"keep", required_argument, NULL, 'Y'},
		{"replay", required_argument, NULL, 'P'},
		{"begin", required_argument, NULL, 'e'},
		{"end", required_argument, NULL, 'E'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0},
	};
	memset(o, 0, sizeof(*o));
	prefs_init(&o->prefs);
	o->oom_score_adj = GUARD_OOM_ADJ_DEFAULT;
	o->top = METRIC_TOP_DEFAULT;
	o->stack_bytes = STACKS_DEFAULT_BYTES;
	optind = 1;
	opterr = 0;
	char q[PARSE_QUOTE_SIZE], why[200];
	int c;
	while ((c = getopt_long(argc, argv, ":bn:d:p:u:o:tKhV", longopts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'b':
			if (o->mode == OUT_OPENMETRICS || o->mode == OUT_SERVE) {
				snprintf(err, errlen,
					 "-b: only one of -b, --json, --openmetrics and --serve");
				return -1;
			}
			if (o->mode == OUT_TUI)
				o->mode = OUT_BATCH;
			break;
		case 'J':
			if (o->mode == OUT_OPENMETRICS || o->mode == OUT_SERVE) {
				snprintf(err, errlen,
					 "--json: only one of -b, --json, --openmetrics and "
					 "--serve");
				return -1;
			}
			o->mode = OUT_JSON;
			break;
		case 'M':
			if (set_mode(o, OUT_OPENMETRICS, "--openmetrics", err, errlen))
				return -1;
			break;
		case 'L':
			if (set_mode(o, OUT_SERVE, "--serve", err, errlen) ||
			    parse_listen(optarg, &o->listen, err, errlen))
				return -1;
			break;
		case 'k': {
			errno = 0;
			long k = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || k < 1 || k > METRIC_TOP_MAX) {
				snprintf(err, errlen,
					 "--top needs a number of processes from 1 to %d, not '%s'",
					 METRIC_TOP_MAX, parse_quote(optarg, q, sizeof(q)));
				return -1;
			}
			o->top = (size_t)k;
			break;
		}
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
		case 'Z': {
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
			if (!optarg[0] || strlen(optarg) >= sizeof(o->prefs.theme)) {
				snprintf(err, errlen,
					 "--theme needs a name or a path of 1 to %zu bytes",
					 sizeof(o->prefs.theme) - 1);
				return -1;
			}
			snprintf(o->prefs.theme, sizeof(o->prefs.theme), "%s", optarg);
			o->given |= GIVEN_THEME;
			break;
		case OPT_NO_MOUSE:
			o->prefs.mouse = false;
			o->given |= GIVEN_MOUSE;
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
		case 'r':
			o->rec.file = optarg;
			break;
		case 'D':
			o->rec.dir = optarg;
			break;
		case 'X':
			if (parse_size(optarg, &o->rec.max, err, errlen))
				return -1;
			break;
		case 'Y':
			errno = 0;
			o->rec.keep = (int)strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || o->rec.keep < 1 ||
			    o->rec.keep > 100000) {
				snprintf(err, errlen,
					 "--keep needs a number of days from 1, not '%s'",
					 parse_quote(optarg, q, sizeof(q)));
				return -1;
			}
			break;
		case 'P':
			o->replay = optarg;
			break;
		case 'e':
			o->begin = optarg;
			break;
		case 'E':
			o->end = optarg;
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
	if (o->mode == OUT_SERVE && !(o->given & GIVEN_DELAY))
		o->prefs.delay = 5; /* a scrape every 15 s or more wants no more */
	if (check_record(o, err, errlen))
		return -1;
	o->rec.cols = o->prefs.cols;
	if (o->stacks_pid && !o->stacks_secs)
		o->stacks_secs = o->prefs.delay; /* -d, as before --stacks PID:SECS */
	return 0;
}
