/* memtop: a top-like monitor for Linux memory. */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "batch_run.h"
#include "bpf_log.h"
#include "bpf_source.h"
#include "guard.h"
#include "loop.h"
#include "marks.h"
#include "monitor.h"
#include "options.h"
#include "parse.h"
#include "replay.h"
#include "selfcost.h"
#include "serve.h"
#include "settings.h"
#include "stacks.h"
#include "stacks_cli.h"
#include "leaks_cli.h"
#include "util.h"
#include "version.h"

/* Opens --replay's recording and selects --begin to --end; the recorder's columns unless
 * --columns was given. NULL with a one-line reason in err. */
static struct replay *open_replay(struct options *o, char *err, size_t errlen)
{
	char why[200], shown[200];
	double begin = 0, end = 0;
	struct replay *rp = replay_open(o->replay, err, errlen);

	if (!rp)
		return NULL;
	double first = replay_wall(rp, 0);
	if (o->begin && replay_parse_time(o->begin, first, &begin, why, sizeof(why)))
		snprintf(err, errlen, "--begin needs %s", why);
	else if (o->end && replay_parse_time(o->end, first, &end, why, sizeof(why)))
		snprintf(err, errlen, "--end needs %s", why);
	else if (replay_select(rp, begin, end))
		snprintf(err, errlen, "%s: no samples from --begin to --end",
			 parse_escape(o->replay, shown, sizeof(shown)));
	else {
		if (!(o->given & GIVEN_COLUMNS))
			o->prefs.cols = replay_cols(rp);
		return rp;
	}
	replay_close(rp);
	return NULL;
}

/* A standard descriptor closed by the caller gets /dev/null, opened so that writing to it
 * fails: output to a closed stdout is then an error said, not written into the next file
 * memtop opens (which would get descriptor 1) */
static void std_fds_reserve(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int n = open("/dev/null", O_RDONLY);
			if (n >= 0 && n != fd) {
				dup2(n, fd);
				close(n);
			}
		}
}

/* The screen draws its first table from /proc while the BPF programs load, and so do
 * -b and --json with --no-wait; a single refresh of -b text, or of either with
 * --no-wait, loads none (its BPF figures, rates and counts since start, would be null or
 * zero); --verbose, --bpf-stats and the services load them first */
static enum bpf_when bpf_when(const struct options *o)
{
	bool recording = o->rec.file || o->rec.dir;
	bool later = (o->mode == OUT_TUI && !recording) ||
		     ((o->mode == OUT_BATCH || o->mode == OUT_JSON) && o->no_wait);

	if (o->verbose || bpf_debug_env() || o->bpf_stats || recording)
		return BPF_NOW;
	if (o->iterations == 1 && (o->no_wait || o->mode == OUT_BATCH))
		return BPF_NEVER;
	return later ? BPF_LATER : BPF_NOW;
}

int main(int argc, char **argv)
{
	struct options o;
	char err[256];
	mark("main");
	std_fds_reserve();
	setlocale(LC_ALL, "");
	if (options_parse(&o, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 2;
	}
	mark("locale, options");
	if (o.help) {
		/* held whole, so that the one write that fails gives its reason */
		static char held[1 << 14];
		setvbuf(stdout, held, _IOFBF, sizeof(held));
		options_usage(stdout);
		return output_failed(stdout, STDOUT_NAME);
	}
	if (o.version) {
		printf("memtop %s%s%s%s\n", MEMTOP_VERSION, *memtop_revision ? " (git " : "",
		       memtop_revision, *memtop_revision ? ")" : "");
		return output_failed(stdout, STDOUT_NAME);
	}
	stacks_configure(&(struct stacks_conf){.fp = o.unwind_fp, .stack_bytes = o.stack_bytes});
	enum stacks_out out = o.folded		   ? STACKS_OUT_FOLDED
			      : o.mode == OUT_JSON ? STACKS_OUT_JSON
						   : STACKS_OUT_TEXT;
	if (o.stacks_cmd)
		return stacks_cli_command(o.stacks_cmd, o.stacks_secs, out, o.no_bpf);
	if (o.leaks_pid)
		return leaks_cli_run(o.leaks_pid, o.leaks_secs, o.mode == OUT_JSON);
	if (o.stacks_pid)
		return stacks_cli_run(o.stacks_pid, o.stacks_secs, out, o.no_bpf);
	bool recording = o.rec.file || o.rec.dir;
	if (o.mode == OUT_TUI && !recording && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))) {
		fprintf(stderr,
			"memtop: not a terminal; use -b or --json for output to a pipe or file\n");
		return 2;
	}
	if (o.mode == OUT_TUI && !recording && settings_apply(&o.prefs, o.given))
		return 2;
	mark("settings");
	struct replay *rp = NULL; /* --replay: the source, instead of /proc and BPF */
	if (o.replay && !(rp = open_replay(&o, err, sizeof(err)))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	struct theme *theme = NULL;
	char warn[2048] = "";
	if (o.mode == OUT_TUI && !recording &&
	    !(theme = theme_load(theme_chosen(o.prefs.theme), err, sizeof(err), warn,
				 sizeof(warn)))) {
		fprintf(stderr, "memtop: %s\n", err);
		replay_close(rp);
		return 2;
	}
	mark("theme");
	for (char *line = strtok(warn, "\n"); line; line = strtok(NULL, "\n"))
		fprintf(stderr, "memtop: %s\n", line);
	/* it runs on unprotected where it may not (JSON memtop.oom_score_adj is then absent);
	 * the flag asked for it, so that is said */
	if (!geteuid() && guard_oom_adj(o.oom_score_adj, err, sizeof(err)) && o.given_adj)
		fprintf(stderr, "memtop: %s\n", err);
	selfcost_want_bpf_stats(o.bpf_stats && !rp);
	mark("oom_score_adj");
	struct monitor_conf conf = {.prefs = &o.prefs,
				    .replay = rp,
				    .no_bpf = o.no_bpf,
				    .verbose = o.verbose,
				    .say_fds = o.mode == OUT_BATCH || o.mode == OUT_JSON,
				    .bpf_when = bpf_when(&o),
				    .pin = o.pin,
				    .lock_max = o.lock_max,
				    .rec = &o.rec};
	struct monitor *mon = monitor_open(&conf, err, sizeof(err));
	if (!mon) {
		fprintf(stderr, "memtop: %s\n", err);
		theme_free(theme);
		return 1;
	}
	mark("monitor_open");
	/* OpenMetrics labels each process with its cgroup */
	if (o.mode == OUT_OPENMETRICS || o.mode == OUT_SERVE)
		o.prefs.cols |= COL_BIT(COL_CGROUP);
	int rc = o.mode == OUT_TUI && !recording ? loop_run(mon, &o.prefs, &o, theme)
		 : o.mode == OUT_SERVE || (o.mode == OUT_OPENMETRICS && !rp) ? serve_run(mon, &o)
									     : batch_run(mon, &o);
	monitor_close(mon);
	theme_free(theme);
	return rc;
}
