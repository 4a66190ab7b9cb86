#include "serve.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "groups.h"
#include "metric.h"
#include "metric_carry.h"
#include "mhd_lib.h"
#include "paced.h"
#include "parse.h"
#include "serve_http.h"
#include "util.h"
#include "views.h"
#include "webconfig.h"

struct state {
	struct monitor *mon;
	const struct model *m; /* the monitor's */
	const struct options *o;
	struct metric_ooms ooms;
	struct metric_carry carry;
	struct groups groups; /* --groups */
	const struct row **sel;
	int32_t *pids;
	size_t cap;
	struct server sv;
	int fd;		      /* the listening socket, bound before the first refresh */
	struct MHD_Daemon *d; /* started over it after the first refresh */
	struct tbuf b;
	struct view_info vi;
};

/* One refresh, and the costly columns (VmSwap, PSS and USS where asked for) of the
 * processes exported alone */
static int refresh(struct state *st, char *err, size_t errlen)
{
	const struct model *m = st->m;
	struct pids_request req = {.cols = model_wanted(m),
				   .only_pids = st->o->prefs.filter.pids,
				   .nonly_pids = st->o->prefs.filter.npids,
				   .cg_cols = st->o->cgroups ? (1u << CGCOL_COUNT) - 1 : 0};

	if (st->vi.groups && group_rules_need_cgroups(&st->groups.rules))
		req.cols |= COL_BIT(COL_CGROUP) | COL_ALL_CGROUPS;
	if (monitor_refresh(st->mon, &req, err, errlen))
		return -1;
	if (st->vi.groups) { /* the members' costly columns read, not the top processes' */
		int32_t *pids;
		size_t n = groups_match(&st->groups, m, &pids);
		monitor_fill(st->mon, pids, n);
		groups_sum(&st->groups, m);
	} else {
		if (st->cap < m->nrows) {
			st->cap = m->nrows + m->nrows / 4;
			st->sel = xrealloc(st->sel, st->cap * sizeof(*st->sel));
			st->pids = xrealloc(st->pids, st->cap * sizeof(*st->pids));
		}
		size_t n = metric_select(m, st->o->top, st->sel);
		for (size_t i = 0; i < n; i++)
			st->pids[i] = st->sel[i]->p->pid;
		monitor_fill(st->mon, st->pids, n);
	}
	metric_ooms_update(&st->ooms, m);
	if (st->o->cgroups)
		metric_carry_update(&st->carry, &st->mon->cgm, model_current(m)->mono);
	return 0;
}

/* A refresh, then its exposition: printed once (--openmetrics), or served */
static int serve_step(void *ctx, long i)
{
	struct state *st = ctx;
	char err[256];

	(void)i;
	double t0 = clock_mono();
	if (refresh(st, err, sizeof(err))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	if (st->o->mode == OUT_OPENMETRICS) {
		view_openmetrics(&st->b, st->m, &st->vi, false);
		tbuf_write(&st->b, stdout);
		return output_failed(stdout, STDOUT_NAME) ? 1 : PACED_DONE;
	}
	publish(&st->sv, &st->b, st->m, &st->vi, clock_mono() - t0);
	if (!st->d && !(st->d = serve_start(&st->sv, st->fd, err, sizeof(err)))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	return PACED_ON;
}

/* --groups' rules and state freed; returns 1 (an exit status) */
static int drop_groups(struct state *st)
{
	groups_free(&st->groups);
	return 1;
}

int serve_run(struct monitor *mon, const struct options *o)
{
	struct state st = {.mon = mon,
			   .m = &mon->m,
			   .o = o,
			   .sv = {.lock = PTHREAD_MUTEX_INITIALIZER},
			   .fd = -1,
			   .vi = {.delay = o->prefs.delay,
				  .version = MEMTOP_VERSION,
				  .utf8 = true,
				  .top = o->top}};

	st.vi.cgroups = o->cgroups ? &mon->cgm : NULL;
	st.vi.ooms = &st.ooms;
	st.vi.carry = &st.carry;
	char err[4400];
	if (o->groups && groups_load(&st.groups, o->groups, err, sizeof(err))) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	st.vi.groups = o->groups ? &st.groups : NULL;
	if ((o->mode == OUT_SERVE || o->web_config) && mhd_open(err, sizeof(err))) {
		fprintf(stderr, "memtop: %s\n", err);
		return drop_groups(&st);
	}
	struct web_config web;
	if (o->web_config) {
		if (web_config_read(&web, o->web_config, err, sizeof(err))) {
			fprintf(stderr, "memtop: %s\n", err);
			return drop_groups(&st);
		}
		if (web.cert && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			char shown[512];
			fprintf(stderr, "memtop: --web-config %s: this libmicrohttpd has no TLS\n",
				parse_escape(o->web_config, shown, sizeof(shown)));
			web_config_free(&web);
			return drop_groups(&st);
		}
		st.sv.web = &web;
	}
	if (o->mode == OUT_SERVE && !loopback(&o->listen)) {
		char addr[INET6_ADDRSTRLEN + 16];
		bool users = st.sv.web && st.sv.web->nusers, tls = st.sv.web && st.sv.web->cert;
		if (!users || !tls)
			fprintf(stderr, "memtop: --serve %s%s\n",
				addr_text(&o->listen, addr, sizeof(addr)),
				!users ? " is reached beyond this machine: it shows every "
					 "process's name and cgroup to the network "
					 "(--web-config: users and passwords)"
				       : ": basic auth over plain HTTP sends the passwords in "
					 "clear (--web-config: tls_server_config)");
	}
	if (o->mode == OUT_SERVE && (st.fd = serve_listen(&o->listen, err, sizeof(err))) < 0) {
		fprintf(stderr, "memtop: %s\n", err);
		if (st.sv.web)
			web_config_free(&web);
		return drop_groups(&st);
	}
	int rc = paced_run(o->prefs.delay, o->iterations, serve_step, &st);
	if (o->mode == OUT_SERVE)
		serve_stop(&st.sv, st.d);
	if (!st.d && st.fd >= 0)
		close(st.fd);
	free(st.b.s);
	free(st.sel);
	free(st.pids);
	metric_ooms_free(&st.ooms);
	metric_carry_free(&st.carry);
	drop_groups(&st);
	if (st.sv.web)
		web_config_free(&web);
	return rc;
}
