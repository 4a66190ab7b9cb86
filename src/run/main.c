/* memtop: a top-like monitor for Linux memory. */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stacks.h"
#include "stacks_cli.h"
#include "cgmodel.h"
#include "model.h"
#include "options.h"
#include "paced.h"
#include "settings.h"
#include "sources.h"
#include "growth.h"
#include "guard.h"
#include "loop.h"
#include "record.h"
#include "replay_run.h"
#include "selfcost.h"
#include "serve.h"
#include "util.h"
#include "views.h"

/* The cgroup columns --cgroups reads: JSON carries every one, batch text those shown */
static unsigned cgroup_cols(const struct options *o)
{
	if (!o->cgroups)
		return 0;
	if (o->mode == OUT_JSON)
		return (1u << CGCOL_COUNT) - 1;
	return o->prefs.cg.cols | CGCOL_BIT(o->prefs.cg.sort);
}

/* What a refresh of batch, JSON or --record uses */
struct batch {
	struct sources *src;
	struct model *m;
	const struct options *o;
	struct pids_request req;
	struct recorder *rec;
	struct cg_model cgm;
	struct cg_order order;
	struct view_info vi;
};

static int batch_step(void *ctx, long i)
{
	struct batch *bt = ctx;
	struct model *m = bt->m;
	char err[256];

	(void)i;
	struct snapshot *s = model_begin(m);
	if (sources_collect(bt->src, s, &bt->req, err, sizeof(err)) ||
	    (bt->rec && recorder_append(bt->rec, s, err, sizeof(err)))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	if (recorder_warning(bt->rec, err, sizeof(err))) /* it went on past damage */
		fprintf(stderr, "memtop: %s\n", err);
	model_step(m);
	cgmodel_update(&bt->cgm, model_current(m), model_previous(m), &bt->order);
	cgmodel_recent_ooms(&bt->cgm, m->oom, m->noom, model_current(m)->wall);
	if (bt->o->mode == OUT_JSON)
		view_json(stdout, m, &bt->vi);
	else if (bt->o->mode == OUT_BATCH)
		view_batch(stdout, m, &bt->vi);
	/* output that cannot be written (a closed pipe) ends it */
	return ferror(stdout) ? 1 : PACED_ON;
}

static int run_batch(struct sources *src, struct model *m, const struct options *o)
{
	struct batch bt = {
		.src = src,
		.m = m,
		.o = o,
		/* batch and JSON print the shown columns of every process; memtop's own
		 * cgroup at every refresh (its limit may change while it runs), the tree
		 * with --cgroups */
		.req = {.cols = model_wanted(m),
			.rows_all = true,
			.only_pids = o->prefs.filter.pids,
			.nonly_pids = o->prefs.filter.npids,
			.cg_cols = cgroup_cols(o),
			.cg_self = true,
			.victims = PIDS_VICTIMS},
		.vi = {.delay = o->prefs.delay,
		       .version = MEMTOP_VERSION,
		       .utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8")},
	};
	char err[256];

	bt.vi.cgroups = o->cgroups ? &bt.cgm : NULL;
	/* --record: each refresh appended; printed too with -b or --json */
	if ((o->rec.file || o->rec.dir) && !(bt.rec = recorder_open(&o->rec, err, sizeof(err)))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	cgmodel_init(&bt.cgm);
	cg_order_of(&o->prefs.cg, &bt.order);
	/* INT, TERM and HUP end it through main's return, which undoes what it changed
	 * (--bpf-stats) */
	int rc = paced_run(o->prefs.delay, o->iterations, batch_step, &bt);
	cgmodel_free(&bt.cgm);
	recorder_close(bt.rec);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	char err[256];
	setlocale(LC_ALL, "");
	if (options_parse(&o, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 2;
	}
	if (o.help) {
		options_usage(stdout);
		return 0;
	}
	if (o.version) {
		printf("memtop %s\n", MEMTOP_VERSION);
		return 0;
	}
	stacks_configure(&(struct stacks_conf){.fp = o.unwind_fp, .stack_bytes = o.stack_bytes});
	if (o.stacks_pid)
		return stacks_cli_run(o.stacks_pid, o.stacks_secs, o.mode == OUT_JSON, o.no_bpf);
	bool recording = o.rec.file || o.rec.dir;
	if (o.mode == OUT_TUI && !recording && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))) {
		fprintf(stderr,
			"memtop: not a terminal; use -b or --json for output to a pipe or file\n");
		return 2;
	}
	if (o.mode == OUT_TUI && !recording && settings_apply(&o.prefs, o.given))
		return 2;
	struct replay *rp = NULL; /* --replay: the source, instead of /proc and BPF */
	if (o.replay && !(rp = replay_start(&o, err, sizeof(err)))) {
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
	for (char *line = strtok(warn, "\n"); line; line = strtok(NULL, "\n"))
		fprintf(stderr, "memtop: %s\n", line);
	/* it runs on unprotected where it may not (JSON memtop.oom_score_adj is then absent);
	 * the flag asked for it, so that is said */
	if (!geteuid() && guard_oom_adj(o.oom_score_adj, err, sizeof(err)) && o.given_adj)
		fprintf(stderr, "memtop: %s\n", err);
	selfcost_want_bpf_stats(o.bpf_stats && !rp);
	struct sources *src = rp ? NULL : sources_open(o.no_bpf, o.verbose, err, sizeof(err));
	if (!src && !rp) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	/* OpenMetrics labels each process with its cgroup */
	if (o.mode == OUT_OPENMETRICS || o.mode == OUT_SERVE)
		o.prefs.cols |= COL_BIT(COL_CGROUP);
	struct model m;
	model_init(&m, &o.prefs);
	int rc = o.mode == OUT_TUI && !recording ? loop_run(src, rp, &m, &o.prefs, &o, theme)
		 : rp				 ? replay_batch(rp, &m, &o)
		 : o.mode == OUT_OPENMETRICS || o.mode == OUT_SERVE ? serve_run(src, &m, &o)
								    : run_batch(src, &m, &o);
	model_free(&m);
	sources_close(src);
	replay_close(rp);
	theme_free(theme);
	return rc;
}
