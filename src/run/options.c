#include "options.h"

#include "metric.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "stacks.h"

/* --stacks PID[:SECS], --leaks PID[:SECS]: the pid, and the seconds when given (else 0) */
static int parse_pid_secs(const char *flag, const char *arg, int32_t *pidp, double *secsp,
			  char *err, size_t errlen)
{
	char *pid = strdup(arg), *secs, why[200];
	int rc = -1;

	if (!pid) {
		snprintf(err, errlen, "%s: out of memory", flag);
		return -1;
	}
	if ((secs = strchr(pid, ':')))
		*secs++ = '\0';
	*secsp = 0;
	if (parse_pid(pid, pidp, why, sizeof(why)))
		snprintf(err, errlen, "%s needs %s", flag, why);
	else if (secs && parse_delay(secs, secsp, why, sizeof(why)))
		snprintf(err, errlen, "%s PID:SECS needs %s", flag, why);
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

/* -b, --json, --openmetrics and --serve: one of them, but for -b with --json (JSON) */
static int set_mode(struct options *o, enum out_mode mode, const char *flag, char *err,
		    size_t errlen)
{
	bool text = mode == OUT_BATCH || mode == OUT_JSON;
	bool was_text = o->mode == OUT_BATCH || o->mode == OUT_JSON;

	if (o->mode != OUT_TUI && o->mode != mode && !(text && was_text)) {
		snprintf(err, errlen, "%s: only one of -b, --json, --openmetrics and --serve",
			 flag);
		return -1;
	}
	if (mode != OUT_BATCH || o->mode != OUT_JSON)
		o->mode = mode;
	return 0;
}

/* A whole number from lo to hi, all of s */
static bool whole_number(const char *s, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return !errno && !*end && end != s && *v >= lo && *v <= hi;
}

/* --stack-bytes N: bytes, or with a suffix K (KiB) */
static int parse_stack_bytes(const char *arg, unsigned *out, char *err, size_t errlen)
{
	char *end, q[PARSE_QUOTE_SIZE];

	errno = 0;
	unsigned long n = strtoul(arg, &end, 10);
	if (*end == 'k' || *end == 'K')
		n *= 1024, end++;
	if (errno || *end || end == arg || arg[0] == '-' || n < STACKS_MIN_BYTES ||
	    n > STACKS_MAX_BYTES) {
		snprintf(err, errlen, "--stack-bytes needs %d to %d (or 1K to 64K), not '%s'",
			 STACKS_MIN_BYTES, STACKS_MAX_BYTES, parse_quote(arg, q, sizeof(q)));
		return -1;
	}
	*out = (unsigned)n;
	return 0;
}

/* --record-max SIZE, --lock-max SIZE: bytes, or with a suffix K, M, G (KiB, MiB, GiB);
 * min or more, or 0 where min is 0 */
static int parse_size(const char *flag, uint64_t min, const char *arg, uint64_t *out, char *err,
		      size_t errlen)
{
	char *end, q[PARSE_QUOTE_SIZE];
	errno = 0;
	double v = strtod(arg, &end);
	const char *units = "KMG";
	const char *u = *end ? strchr(units, *end) : NULL;
	if (u)
		v *= (double)(1ull << (10 * (u - units + 1)));
	if (errno || end == arg || (*end && (!u || end[1])) || !(v >= (double)min) || v > 1e18) {
		snprintf(err, errlen, "--%s needs a size of %s or more (bytes, K, M, G), not '%s'",
			 flag, min ? "4K" : "0", parse_quote(arg, q, sizeof(q)));
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
	else if (o->pin && !o->rec.file && !o->rec.dir && o->mode != OUT_SERVE)
		why = "--pin goes with --record, --record-dir or --serve (a service)";
	else if (o->pin && o->no_bpf)
		why = "--pin and --no-bpf: one or the other";
	else if ((o->begin || o->end) && !o->replay)
		why = "--begin and --end go with --replay";
	if (why)
		snprintf(err, errlen, "%s", why);
	return why ? -1 : 0;
}

/* --begin and --end: times that exist, checked before the recording is opened (the day
 * of a time of day alone is the recording's first) */
static int check_times(const struct options *o, char *err, size_t errlen)
{
	char why[200];

	if (o->begin && replay_check_time(o->begin, why, sizeof(why)))
		snprintf(err, errlen, "--begin needs %s", why);
	else if (o->end && replay_check_time(o->end, why, sizeof(why)))
		snprintf(err, errlen, "--end needs %s", why);
	else
		return 0;
	return -1;
}

/* The flags that are not preferences, by getopt's value (a letter; the short flag too
 * where SHORT_FLAGS has it). A plain flag sets its field of struct options as it is: a
 * switch to true, a text flag to its value (a path, a time) for the code that reads it;
 * the others are cases of own_flag. */
struct flag {
	const char *name;
	char val;
	bool value; /* it takes one */
	size_t at;  /* a plain flag's field: OPTION_AT(); 0 for the others */
};

#define OPTION_AT(f) offsetof(struct options, f)
#define SHORT_FLAGS  ":bn:hV" /* ':' first: a missing value is told apart */

static const struct flag plain_flags[] = {
	{"no-bpf", 'B', false, OPTION_AT(no_bpf)},
	{"no-wait", 'N', false, OPTION_AT(no_wait)},
	{"pin", 'H', false, OPTION_AT(pin)},
	{"bpf-stats", 'R', false, OPTION_AT(bpf_stats)},
	{"cgroups", 'g', false, OPTION_AT(cgroups)},
	{"users", 'y', false, OPTION_AT(users)},
	{"slab", 'l', false, OPTION_AT(slab)},
	{"account", 'a', false, OPTION_AT(account)},
	{"verbose", 'v', false, OPTION_AT(verbose)},
	{"read-only", 'O', false, OPTION_AT(read_only)},
	{"folded", 'F', false, OPTION_AT(folded)},
	{"help", 'h', false, OPTION_AT(help)},
	{"version", 'V', false, OPTION_AT(version)},
	{"record", 'r', true, OPTION_AT(rec.file)},
	{"record-dir", 'D', true, OPTION_AT(rec.dir)},
	{"replay", 'P', true, OPTION_AT(replay)},
	{"begin", 'e', true, OPTION_AT(begin)},
	{"end", 'E', true, OPTION_AT(end)},
	{"web-config", 'w', true, OPTION_AT(web_config)},
	{"groups", 'G', true, OPTION_AT(groups)},
};

static const struct flag own_flags[] = {
	{"batch", 'b', false, 0},	 {"json", 'J', false, 0},
	{"iterations", 'n', true, 0},	 {"stacks", 'S', true, 0},
	{"unwind", 'W', true, 0},	 {"stack-bytes", 'Z', true, 0},
	{"oom-score-adj", 'A', true, 0}, {"openmetrics", 'M', false, 0},
	{"serve", 'L', true, 0},	 {"top", 'k', true, 0},
	{"record-max", 'X', true, 0},	 {"keep", 'Y', true, 0},
	{"lock-max", 'm', true, 0},	 {"leaks", 'Q', true, 0},
};

#define NPLAIN (sizeof(plain_flags) / sizeof(plain_flags[0]))
#define NOWN   (sizeof(own_flags) / sizeof(own_flags[0]))

/* getopt's value for a preference's flag: its letter, else this and its id */
enum { VAL_PREF = 0x100 };

static int pref_val(int i)
{
	return prefs_table[i].letter ? prefs_table[i].letter : VAL_PREF + i;
}

static struct option long_flag(const char *name, bool value, int val)
{
	return (struct option){name, value ? required_argument : no_argument, NULL, val};
}

/* getopt_long's tables: the options and the letters */
static void flag_tables(struct option *longopts, char *letters)
{
	size_t n = 0, k = strlen(SHORT_FLAGS);

	memcpy(letters, SHORT_FLAGS, k);
	for (size_t i = 0; i < NOWN; i++)
		longopts[n++] = long_flag(own_flags[i].name, own_flags[i].value, own_flags[i].val);
	for (size_t i = 0; i < NPLAIN; i++)
		longopts[n++] =
			long_flag(plain_flags[i].name, plain_flags[i].value, plain_flags[i].val);
	for (int i = 0; i < PREF_COUNT; i++) {
		const struct pref *r = &prefs_table[i];
		bool value = r->kind != PK_SWITCH;
		if (!r->flag)
			continue;
		longopts[n++] = long_flag(r->flag, value, pref_val(i));
		if (r->letter) {
			letters[k++] = r->letter;
			if (value)
				letters[k++] = ':';
		}
	}
	longopts[n] = (struct option){0};
	letters[k] = '\0';
}

/* A preference's flag or a plain flag, by getopt's value: 1 if c is neither */
static int table_flag(struct options *o, int c, char *err, size_t errlen)
{
	char why[512], name[64];

	for (int i = 0; i < PREF_COUNT; i++) {
		const struct pref *r = &prefs_table[i];
		if (!r->flag || pref_val(i) != c)
			continue;
		if (pref_parse(r, &o->prefs, optarg, true, why, sizeof(why))) {
			snprintf(err, errlen, "%s%s%s", pref_flag_name(r, name, sizeof(name)),
				 pref_flag_joint(r), why);
			return -1;
		}
		o->given |= PREF_BIT(i);
		return 0;
	}
	for (const struct flag *f = plain_flags; f < plain_flags + NPLAIN; f++) {
		if (f->val != c)
			continue;
		if (f->value)
			*(const char **)((char *)o + f->at) = optarg;
		else
			*(bool *)((char *)o + f->at) = true;
		return 0;
	}
	return 1;
}

/* An option that getopt_long did not take: unknown, without its value, or given one */
static void bad_flag(int c, char **argv, char *err, size_t errlen)
{
	const char *arg = argv[optind - 1];
	const char *eq = strchr(arg, '=');
	bool is_long = !strncmp(arg, "--", 2);
	char name[PARSE_QUOTE_SIZE], q[PARSE_QUOTE_SIZE];

	if (c == ':') {
		snprintf(err, errlen, "option '%s' needs a value", parse_quote(arg, q, sizeof(q)));
		return;
	}
	if (is_long) /* the option as given, without any "=value" */
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
	else
		snprintf(name, sizeof(name), "-%c", optopt);
	parse_quote(name, q, sizeof(q));
	if (is_long && optopt && eq) /* a known long option, given a value */
		snprintf(err, errlen, "option '%s' takes no value", q);
	else
		snprintf(err, errlen, "unknown option '%s' (see memtop --help)", q);
}

/* A flag of own_flags: 0, or -1 with the reason in err; 1 if c is none of them */
static int own_flag(struct options *o, int c, char *err, size_t errlen)
{
	char q[PARSE_QUOTE_SIZE], why[200];
	long v;

	switch (c) {
	case 'b':
		return set_mode(o, OUT_BATCH, "-b", err, errlen);
	case 'J':
		return set_mode(o, OUT_JSON, "--json", err, errlen);
	case 'M':
		return set_mode(o, OUT_OPENMETRICS, "--openmetrics", err, errlen);
	case 'L':
		if (set_mode(o, OUT_SERVE, "--serve", err, errlen))
			return -1;
		return parse_listen(optarg, &o->listen, err, errlen);
	case 'k':
		if (!whole_number(optarg, 1, METRIC_TOP_MAX, &v)) {
			snprintf(err, errlen,
				 "--top needs a number of processes from 1 to %d, not '%s'",
				 METRIC_TOP_MAX, parse_quote(optarg, q, sizeof(q)));
			return -1;
		}
		o->top = (size_t)v;
		return 0;
	case 'n':
		if (!whole_number(optarg, 1, LONG_MAX, &o->iterations)) {
			snprintf(err, errlen, "-n needs a positive number of refreshes, not '%s'",
				 parse_quote(optarg, q, sizeof(q)));
			return -1;
		}
		return 0;
	case 'S':
		return parse_pid_secs("--stacks", optarg, &o->stacks_pid, &o->stacks_secs, err,
				      errlen);
	case 'Q':
		return parse_pid_secs("--leaks", optarg, &o->leaks_pid, &o->leaks_secs, err,
				      errlen);
	case 'W':
		if (strcmp(optarg, "dwarf") && strcmp(optarg, "fp")) {
			snprintf(err, errlen, "--unwind needs dwarf or fp, not '%s'",
				 parse_quote(optarg, q, sizeof(q)));
			return -1;
		}
		o->unwind_fp = !strcmp(optarg, "fp");
		return 0;
	case 'Z':
		return parse_stack_bytes(optarg, &o->stack_bytes, err, errlen);
	case 'A':
		if (parse_oom_adj(optarg, &o->oom_score_adj, why, sizeof(why))) {
			snprintf(err, errlen, "--oom-score-adj needs %s", why);
			return -1;
		}
		o->given_adj = true;
		return 0;
	case 'X':
		return parse_size("record-max", 4096, optarg, &o->rec.max, err, errlen);
	case 'm':
		return parse_size("lock-max", 0, optarg, &o->lock_max, err, errlen);
	case 'Y':
		/* the number as an int, as --keep has always read it */
		if (!whole_number(optarg, LONG_MIN, LONG_MAX, &v) || (int)v < 1 ||
		    (int)v > 100000) {
			snprintf(err, errlen, "--keep needs a number of days from 1, not '%s'",
				 parse_quote(optarg, q, sizeof(q)));
			return -1;
		}
		o->rec.keep = (int)v;
		return 0;
	}
	return 1;
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	struct option longopts[NOWN + PREF_COUNT + NPLAIN + 1];
	char letters[sizeof(SHORT_FLAGS) + 2 * PREF_COUNT], q[PARSE_QUOTE_SIZE];
	bool stacks_cmd = false; /* --stacks without a PID: a command follows -- */
	int c;

	memset(o, 0, sizeof(*o));
	prefs_init(&o->prefs);
	o->oom_score_adj = GUARD_OOM_ADJ_DEFAULT;
	o->lock_max = GUARD_LOCK_MAX_DEFAULT;
	o->top = METRIC_TOP_DEFAULT;
	o->stack_bytes = STACKS_DEFAULT_BYTES;
	flag_tables(longopts, letters);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, letters, longopts, NULL)) != -1) {
		if (c == 'S' && !strcmp(optarg, "--")) {
			/* --stacks -- CMD ARGS...: the rest is the command's, options too */
			stacks_cmd = true;
			break;
		}
		if (c == 'S' && !strncmp(optarg, "--", 2)) {
			/* --stacks --folded -- CMD: that was the next option, not a PID */
			stacks_cmd = true;
			optind--;
			continue;
		}
		int rc = table_flag(o, c, err, errlen);
		if (rc > 0)
			rc = own_flag(o, c, err, errlen);
		if (rc > 0)
			bad_flag(c, argv, err, errlen);
		if (rc)
			return -1;
	}
	if (stacks_cmd && (optind >= argc || strcmp(argv[optind - 1], "--"))) {
		snprintf(err, errlen, "--stacks needs a PID, or -- and a command");
		return -1;
	}
	if (stacks_cmd) {
		o->stacks_cmd = argv + optind;
		optind = argc;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see memtop --help)",
			 parse_quote(argv[optind], q, sizeof(q)));
		return -1;
	}
	if (o->web_config && o->mode != OUT_SERVE) {
		snprintf(err, errlen, "--web-config: only with --serve");
		return -1;
	}
	if (o->groups && o->mode != OUT_SERVE && o->mode != OUT_OPENMETRICS &&
	    o->mode != OUT_JSON) {
		snprintf(err, errlen, "--groups: only with --serve, --openmetrics or --json");
		return -1;
	}
	if (o->mode == OUT_SERVE && !(o->given & PREF_BIT(PREF_DELAY)))
		o->prefs.delay = 5; /* a scrape every 15 s or more wants no more */
	if (check_record(o, err, errlen) || check_times(o, err, errlen))
		return -1;
	o->rec.cols = o->prefs.cols;
	if (o->stacks_pid && !o->stacks_secs)
		o->stacks_secs = o->prefs.delay; /* -d, as before --stacks PID:SECS */
	if (o->stacks_cmd)
		o->stacks_secs = o->given & PREF_BIT(PREF_DELAY) ? o->prefs.delay : 0;
	if (o->folded && !o->stacks_pid && !o->stacks_cmd) {
		snprintf(err, errlen, "--folded is for --stacks");
		return -1;
	}
	if (o->folded && o->mode == OUT_JSON) {
		snprintf(err, errlen, "--folded and --json are two outputs: choose one");
		return -1;
	}
	if (o->leaks_pid && !o->leaks_secs)
		o->leaks_secs = LEAKS_DEFAULT_SECS;
	return 0;
}
