#include "replay_run.h"

#include <langinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgmodel.h"
#include "util.h"
#include "views.h"

struct replay *replay_start(struct options *o, char *err, size_t errlen)
{
	char why[200];
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
		snprintf(err, errlen, "%s: no samples from --begin to --end", o->replay);
	else {
		if (!(o->given & GIVEN_COLUMNS))
			o->prefs.cols = replay_cols(rp);
		return rp;
	}
	replay_close(rp);
	return NULL;
}

struct feed {
	struct model *m;
	struct cg_model *cgm;
	struct cg_order *order;
};

static void after(void *arg)
{
	struct feed *f = arg;
	cgmodel_update(f->cgm, model_current(f->m), model_previous(f->m), f->order);
	cgmodel_recent_ooms(f->cgm, f->m->oom, f->m->noom, model_current(f->m)->wall);
}

int replay_batch(struct replay *rp, struct model *m, const struct options *o)
{
	struct cg_model cgm;
	struct cg_order order;
	struct feed f = {m, &cgm, &order};
	struct view_info vi = {
		.delay = o->prefs.delay,
		.version = MEMTOP_VERSION,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"),
		.cgroups = o->cgroups ? &cgm : NULL,
	};
	char err[512];
	size_t pos = SIZE_MAX, n = replay_count(rp);
	int rc = 0;

	cgmodel_init(&cgm);
	cg_order_of(&o->prefs.cg, &order);
	for (size_t i = 0; i < n && (!o->iterations || (long)i < o->iterations); i++) {
		if (replay_goto(rp, m, &pos, i, after, &f, err, sizeof(err))) {
			fprintf(stderr, "memtop: %s\n", err);
			rc = 1;
			break;
		}
		if (o->mode == OUT_JSON) {
			view_json(stdout, m, &vi);
		} else if (o->mode ==
			   OUT_OPENMETRICS) { /* one exposition: the range's last sample */
			if (i + 1 < n && (!o->iterations || (long)i + 1 < o->iterations))
				continue;
			struct tbuf b = {0};
			view_openmetrics(&b, m, &vi, false);
			rc = tbuf_write(&b, stdout) ? 1 : 0;
			free(b.s);
		} else {
			view_batch(stdout, m, &vi);
		}
		if (ferror(stdout)) {
			rc = 1;
			break;
		}
	}
	fflush(stdout);
	for (const char *w = replay_warnings(rp); *w;) {
		size_t len = strcspn(w, "\n");
		fprintf(stderr, "memtop: %.*s\n", (int)len, w);
		w += len + (w[len] == '\n');
	}
	cgmodel_free(&cgm);
	/* samples left out for damage: all the others printed, and the exit says it */
	return rc ? rc : replay_damaged(rp) ? 1 : 0;
}
