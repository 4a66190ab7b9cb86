#include "batch_run.h"

#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groups.h"
#include "marks.h"
#include "paced.h"
#include "replay.h"
#include "util.h"
#include "views.h"

/* The cgroup columns --cgroups reads: JSON carries every one, batch text those shown */
static unsigned cgroup_cols(const struct options *o)
{
	if (!o->cgroups) /* the forecasts' */
		return cg_columns_forecast();
	if (o->mode == OUT_JSON)
		return (1u << CGCOL_COUNT) - 1;
	return o->prefs.cg.cols | CGCOL_BIT(o->prefs.cg.sort) | cg_columns_forecast();
}

struct batch {
	struct monitor *mon;
	enum out_mode mode;
	struct pids_request req;
	struct view_info vi;
	struct user_totals users; /* --users */
	struct groups groups;	  /* --groups */
	long last;		  /* the last step: a replay's --openmetrics prints it */
};

static int batch_step(void *ctx, long i)
{
	struct batch *bt = ctx;
	const struct model *m = &bt->mon->m;
	char err[512];

	if (i == 1) /* --no-wait: its second line waits for the load, a delay at most */
		monitor_wait_bpf(bt->mon, bt->vi.delay);
	/* a replay's first sample from those before it, as the live run printed it */
	if (i == 0 && monitor_replay(bt->mon)
		    ? monitor_seek(bt->mon, 0, err, sizeof(err))
		    : monitor_refresh(bt->mon, &bt->req, err, sizeof(err))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	if (monitor_warning(bt->mon, err, sizeof(err))) /* the recorder went on past damage */
		fprintf(stderr, "memtop: %s\n", err);
	if (bt->vi.users)
		user_totals_make(&bt->users, model_current(m));
	if (bt->vi.groups) { /* every process's costly columns are read (rows_all) */
		int32_t *pids;
		groups_match(&bt->groups, m, &pids);
		groups_sum(&bt->groups, m);
	}
	if (bt->mode == OUT_JSON) {
		view_json(stdout, m, &bt->vi);
	} else if (bt->mode == OUT_BATCH) {
		view_batch(stdout, m, &bt->vi);
	} else if (bt->mode == OUT_OPENMETRICS && i == bt->last) {
		struct tbuf b = {0};
		view_openmetrics(&b, m, &bt->vi, false);
		tbuf_write(&b, stdout);
		free(b.s);
	}
	/* output that cannot be written (a closed pipe, a full disk) ends it, said */
	if (output_failed(stdout, STDOUT_NAME))
		return 1;
	if (i == 0)
		mark_done("first output");
	if (bt->last < 0 || i < bt->last) /* the first line is out, more follow */
		monitor_start_bpf(bt->mon);
	return PACED_ON;
}

/* What the recording lost (a cut last sample, damage left out), a line each */
static void say_warnings(const struct replay *rp)
{
	for (const char *w = replay_warnings(rp); *w;) {
		size_t len = strcspn(w, "\n");
		fprintf(stderr, "memtop: %.*s\n", (int)len, w);
		w += len + (w[len] == '\n');
	}
}

int batch_run(struct monitor *mon, const struct options *o)
{
	struct replay *rp = monitor_replay(mon);
	long n = rp ? (long)monitor_samples(mon) : o->iterations;
	struct batch bt = {
		.mon = mon,
		.mode = o->mode,
		/* batch and JSON print the shown columns of every process; memtop's own
		 * cgroup at every refresh (its limit may change while it runs), the tree
		 * with --cgroups; JSON gives every process's cgroup (read once per process);
		 * --users sums every process's swap, PSS and USS */
		.req = {.cols = model_wanted(&mon->m) |
				(o->mode == OUT_JSON ? COL_BIT(COL_CGROUP) : 0) |
				(o->users ? USER_TOTALS_COLS : 0),
			.rows_all = true,
			.only_pids = o->prefs.filter.pids,
			.nonly_pids = o->prefs.filter.npids,
			.cg_cols = cgroup_cols(o),
			.cg_self = true,
			.victims = PIDS_VICTIMS,
			.slab = o->slab,
			.account = o->account},
		.vi = {.delay = o->prefs.delay,
		       .version = MEMTOP_VERSION,
		       .utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"),
		       .cgroups = o->cgroups ? &mon->cgm : NULL,
		       .users = o->users ? &bt.users : NULL,
		       .slab = o->slab ? &mon->m.slab : NULL,
		       .account = o->account ? &mon->m.acct : NULL},
	};

	char err[4400];
	if (o->groups && groups_load(&bt.groups, o->groups, err, sizeof(err))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	if (o->groups) {
		bt.vi.groups = &bt.groups;
		if (group_rules_need_cgroups(&bt.groups.rules))
			bt.req.cols |= COL_BIT(COL_CGROUP) | COL_ALL_CGROUPS;
	}
	if (rp && o->iterations && o->iterations < n)
		n = o->iterations;
	bt.last = n - 1;
	/* INT, TERM and HUP end it through main's return, which undoes what it changed
	 * (--bpf-stats); a recording's samples follow each other at once */
	int rc = paced_run(rp ? 0 : o->prefs.delay, n, batch_step, &bt);
	user_totals_free(&bt.users);
	groups_free(&bt.groups);
	if (!rp)
		return rc;
	fflush(stdout);
	say_warnings(rp);
	/* samples left out for damage: all the others printed, and the exit says it */
	return rc ? rc : replay_damaged(rp) ? 1 : 0;
}
