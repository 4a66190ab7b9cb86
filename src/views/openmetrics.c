/* OpenMetrics: the figure tables as metrics (src/views/metric.h names them), in the Prometheus
 * text format 0.0.4 or OpenMetrics 1.0.0. The system figures, then memtop's own state and
 * the reclaim histograms, the bounded set of processes (or with --groups the process
 * groups in their place), the cgroups, the OOM kills. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "groups.h"
#include "metric.h"
#include "util.h"
#include "version.h"
#include "views.h"

struct out {
	struct tbuf *b;
	bool om; /* OpenMetrics 1.0.0, else the text format 0.0.4 */
};

static const char *const type_name[] = {
	[METRIC_NONE] = "unknown", [METRIC_GAUGE] = "gauge", [METRIC_COUNTER] = "counter"};

/* HELP text: backslash and newline escaped, and in OpenMetrics the double quote */
static void help_text(struct out *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || (*s == '"' && o->om))
			tbuf_putc(o->b, '\\');
		if (*s == '\n')
			tbuf_puts(o->b, "\\n");
		else
			tbuf_putc(o->b, *s);
	}
}

/* # HELP, # TYPE, and in OpenMetrics # UNIT: the family's name is the metric's, less a
 * counter's _total in OpenMetrics */
static void family(struct out *o, const char *prefix, const char *name, const struct metric *mt,
		   const char *type, const char *help)
{
	char fam[160];

	metric_name(fam, sizeof(fam), prefix, name, mt, o->om);
	tbuf_printf(o->b, "# HELP %s ", fam);
	help_text(o, help);
	tbuf_printf(o->b, "\n# TYPE %s %s\n", fam, type ? type : type_name[mt->type]);
	if (o->om && mt->unit)
		tbuf_printf(o->b, "# UNIT %s %s\n", fam, mt->unit);
}

static void number(struct out *o, double v)
{
	tbuf_putc(o->b, ' ');
	o->b->n += metric_number(v, tbuf_room(o->b, 32), 32);
	tbuf_putc(o->b, '\n');
}

/* name="value": the value escaped */
static void label(struct tbuf *b, bool first, const char *name, const char *value)
{
	tbuf_printf(b, "%s%s=\"", first ? "" : ",", name);
	b->n += metric_label(value, tbuf_room(b, metric_label_max(value)));
	tbuf_putc(b, '"');
}

static void figures(struct out *o, const struct model *m)
{
	char name[160];

	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *f = &sys_figures[i];
		struct metric mt = metric_of_figure(f);
		if (mt.type == METRIC_NONE || !sys_figure_valid(f, m))
			continue;
		family(o, METRIC_PREFIX, f->metric, &mt, NULL, f->help);
		metric_name(name, sizeof(name), METRIC_PREFIX, f->metric, &mt, false);
		tbuf_puts(o->b, name);
		number(o, metric_scale(f->total ? f->total(m) : f->get(m), mt.factor));
	}
}

/* Each NUMA node's memory, a family per figure of nodes.h and a sample per node */
static void nodes(struct out *o, const struct snapshot *s)
{
	struct metric mt = {METRIC_GAUGE, "bytes", 1024};
	char name[160], fig[64];

	for (int f = 0; s->nnodes && f < NF_COUNT; f++) {
		snprintf(fig, sizeof(fig), "node_memory_%s", node_figures[f].metric);
		family(o, METRIC_PREFIX, fig, &mt, NULL, node_figures[f].help);
		metric_name(name, sizeof(name), METRIC_PREFIX, fig, &mt, false);
		for (size_t i = 0; i < s->nnodes; i++) {
			tbuf_printf(o->b, "%s{node=\"%d\"}", name, s->nodes[i].node);
			number(o, metric_scale((double)s->nodes[i].kb[f], mt.factor));
		}
	}
}

/* The reclaim latencies since memtop started: slot i of a log2 histogram holds durations
 * of [2^i, 2^(i+1)) microseconds, so at most 2^(i+1): the cumulative bucket le of that */
static void histograms(struct out *o, const struct reclaim_stats *r)
{
	static const char *const kind[] = {"direct", "memcg", "shrink_slab"};
	const struct mt_hist *h[] = {&r->direct, &r->memcg, &r->shrink_slab};
	struct metric mt = {METRIC_NONE, "seconds", 1e-6};
	const char *name = METRIC_PREFIX "reclaim_duration_seconds";

	family(o, METRIC_PREFIX, "reclaim_duration", &mt, "histogram",
	       "Time tasks spent in direct or memcg reclaim, and in shrink_slab, since memtop "
	       "started (BPF)");
	for (size_t k = 0; k < ARRAY_SIZE(h); k++) {
		uint64_t sum = 0;
		for (int i = 0; i < MT_HIST_SLOTS; i++) {
			sum += h[k]->slots[i];
			tbuf_printf(o->b, "%s_bucket{kind=\"%s\",le=\"", name, kind[k]);
			o->b->n +=
				metric_number((double)(2ull << i) / 1e6, tbuf_room(o->b, 32), 32);
			tbuf_printf(o->b, "\"} %llu\n", (unsigned long long)sum);
		}
		/* the count from the slots, which the BPF programs add to apart from it */
		tbuf_printf(o->b, "%s_bucket{kind=\"%s\",le=\"+Inf\"} %llu\n", name, kind[k],
			    (unsigned long long)sum);
		tbuf_printf(o->b, "%s_sum{kind=\"%s\"}", name, kind[k]);
		number(o, (double)h[k]->total_us / 1e6);
		tbuf_printf(o->b, "%s_count{kind=\"%s\"} %llu\n", name, kind[k],
			    (unsigned long long)sum);
	}
}

/* memtop_build_info: an info metric (in the text format a gauge of 1) */
static void build_info(struct out *o)
{
	struct metric info = {METRIC_GAUGE, NULL, 1};
	const char *help = "memtop's version and the git description of the tree it was built "
			   "from";

	if (o->om)
		tbuf_printf(o->b,
			    "# HELP " METRIC_PREFIX "build %s\n# TYPE " METRIC_PREFIX
			    "build info\n",
			    help);
	else
		family(o, METRIC_PREFIX, "build_info", &info, NULL, help);
	tbuf_puts(o->b, METRIC_PREFIX "build_info{");
	label(o->b, true, "version", MEMTOP_VERSION);
	label(o->b, false, "revision", memtop_revision);
	tbuf_puts(o->b, "} 1\n");
}

/* --serve's own: the refresh's time, the requests answered by status, those that failed */
static void exporter(struct out *o, const struct export_stats *st)
{
	struct metric secs = {METRIC_GAUGE, "seconds", 1}, counter = {METRIC_COUNTER, NULL, 1};

	family(o, METRIC_PREFIX, "refresh_duration", &secs, NULL,
	       "How long the last refresh took: reading /proc, BPF and the cgroups, and the model");
	tbuf_puts(o->b, METRIC_PREFIX "refresh_duration_seconds");
	number(o, st->refresh_s);
	family(o, METRIC_PREFIX, "http_requests", &counter, NULL,
	       "HTTP requests answered, by status, as of the last refresh");
	for (int c = 0; c < EXPORT_CODES; c++)
		tbuf_printf(o->b, METRIC_PREFIX "http_requests_total{code=\"%u\"} %llu\n",
			    export_code_status[c], (unsigned long long)st->requests[c]);
	family(o, METRIC_PREFIX, "http_errors", &counter, NULL,
	       "HTTP requests ended before their answer was sent (the client gone, a read or "
	       "write error, the 10 s deadline), as of the last refresh");
	tbuf_printf(o->b, METRIC_PREFIX "http_errors_total %llu\n", (unsigned long long)st->errors);
	family(o, METRIC_PREFIX, "http_gzip_responses", &counter, NULL,
	       "Answers sent gzipped (Accept-Encoding: gzip), as of the last refresh");
	tbuf_printf(o->b, METRIC_PREFIX "http_gzip_responses_total %llu\n",
		    (unsigned long long)st->gzip);
}

static void self(struct out *o, const struct snapshot *s)
{
	struct metric g = {METRIC_GAUGE, NULL, 1};

	family(o, METRIC_PREFIX, "bpf_enabled", &g, NULL,
	       "1 where memtop's BPF programs are loaded, 0 where it reads /proc alone");
	tbuf_printf(o->b, METRIC_PREFIX "bpf_enabled %d\n", s->bpf.enabled);
	if (s->bpf.have_reclaim)
		histograms(o, &s->bpf.reclaim);
}

/* The rows exported, as the table layer reads them; each row's labels, from the columns
 * marked as labels, in lab (offsets at[i] to at[i + 1]) */
static struct {
	struct table_row *rows;
	size_t *at, cap;
	struct tbuf lab;
} ex;

static void make_room(size_t n)
{
	if (ex.cap >= n + 1)
		return;
	ex.cap = n + 1 + n / 4;
	ex.rows = xrealloc(ex.rows, ex.cap * sizeof(*ex.rows));
	ex.at = xrealloc(ex.at, ex.cap * sizeof(*ex.at));
}

static void labels(const struct column *cols, int ncols, size_t n)
{
	char id[24];

	ex.lab.n = 0;
	for (size_t i = 0; i < n; i++) {
		ex.at[i] = ex.lab.n;
		bool first = true;
		for (int c = 0; c < ncols; c++) {
			if (!cols[c].label)
				continue;
			const char *v = table_text(&cols[c], &ex.rows[i]);
			if (cols[c].id) {
				snprintf(id, sizeof(id), "%llu",
					 (unsigned long long)cols[c].id(ex.rows[i].sample));
				v = id;
			}
			/* an empty label is an absent one (a cgroup no runtime names) */
			if (!first && (!v || !*v))
				continue;
			label(&ex.lab, first, cols[c].name, v ? v : "");
			first = false;
		}
	}
	ex.at[n] = ex.lab.n;
}

/* Read, and not a limit of "max" */
static bool has(const struct column *cols, int c, const struct table_row *r)
{
	return (r->read & TABLE_BIT(c)) && !table_unlimited(cols, c, r);
}

/* A family per exported column of a table that any of the n rows in ex has a value of
 * (none: PSS and USS unless asked for, limits where none is set), a sample per row */
static void table_metrics(struct out *o, const char *prefix, const struct column *cols, int ncols,
			  size_t n)
{
	char name[160];

	labels(cols, ncols, n);
	for (int c = 0; c < ncols; c++) {
		const struct column *col = &cols[c];
		struct metric mt = metric_of_column(col);
		if (mt.type == METRIC_NONE)
			continue;
		size_t i = 0;
		while (i < n && !has(cols, c, &ex.rows[i]))
			i++;
		if (i == n)
			continue;
		family(o, prefix, col->metric, &mt, NULL, col->help ? col->help : col->desc);
		size_t len = metric_name(name, sizeof(name), prefix, col->metric, &mt, false);
		for (; i < n; i++) {
			if (!has(cols, c, &ex.rows[i]))
				continue;
			tbuf_put(o->b, name, len);
			tbuf_putc(o->b, '{');
			tbuf_put(o->b, ex.lab.s + ex.at[i], ex.at[i + 1] - ex.at[i]);
			tbuf_putc(o->b, '}');
			number(o, metric_scale((double)table_figure(&ex.rows[i], c), mt.factor));
		}
	}
}

static void processes(struct out *o, const struct model *m, size_t top)
{
	static const struct row **rows;
	static size_t cap;

	if (cap < m->nrows + 1) {
		cap = m->nrows + 1 + m->nrows / 4;
		rows = xrealloc(rows, cap * sizeof(*rows));
	}
	make_room(m->nrows);
	size_t n = metric_select(m, top, rows);
	for (size_t i = 0; i < n; i++)
		ex.rows[i] = proc_row_view(rows[i]);
	table_metrics(o, METRIC_PROCESS_PREFIX, columns, COL_COUNT, n);
}

/* The cgroups, their counters with what they fell by added back (metric_carry.h) */
static void cgroups(struct out *o, const struct cg_model *cgm, const struct metric_carry *k)
{
	static uint64_t(*v)[CGCOL_COUNT];
	static size_t cap;

	if (cap < cgm->nrows) {
		cap = cgm->nrows + cgm->nrows / 4;
		v = xrealloc(v, cap * sizeof(*v));
	}
	make_room(cgm->nrows);
	for (size_t i = 0; i < cgm->nrows; i++) {
		ex.rows[i] = cg_row_view(&cgm->rows[i]);
		metric_carry_values(k, cgm->rows[i].c, v[i]);
		ex.rows[i].v = v[i];
	}
	table_metrics(o, METRIC_CGROUP_PREFIX, cg_columns, CGCOL_COUNT, cgm->nrows);
}

/* --groups: a row per group named so far, those without processes too */
static void groups(struct out *o, const struct groups *gs)
{
	make_room(gs->n);
	for (size_t i = 0; i < gs->n; i++)
		ex.rows[i] = group_row_view(&gs->g[i]);
	table_metrics(o, METRIC_GROUP_PREFIX, group_columns, GROUPCOL_COUNT, gs->n);
}

/* OOM kills by victim since memtop started, and the last kill memtop knows of */
static void ooms(struct out *o, const struct model *m, const struct metric_ooms *k)
{
	struct metric counter = {METRIC_COUNTER, NULL, 1}, gauge = {METRIC_GAUGE, "seconds", 1};

	if (k && k->n) {
		family(o, METRIC_PREFIX, "oom_kills", &counter, NULL,
		       "OOM kills since memtop started, by the victim's name and memory cgroup");
		for (size_t i = 0; i < k->n; i++) {
			tbuf_puts(o->b, METRIC_PREFIX "oom_kills_total{");
			label(o->b, true, "comm", k->e[i].comm);
			label(o->b, false, "cgroup", k->e[i].memcg);
			tbuf_printf(o->b, "} %llu\n", (unsigned long long)k->e[i].kills);
		}
	}
	if (!m->noom)
		return;
	const struct mt_event *e = &m->oom[m->noom - 1];
	char pid[24];
	struct metric info = {METRIC_GAUGE, NULL, 1};
	snprintf(pid, sizeof(pid), "%d", e->pid);
	if (o->om) {
		tbuf_puts(o->b, "# HELP " METRIC_PREFIX "last_oom_kill The last OOM kill memtop "
				"knows of\n# TYPE " METRIC_PREFIX "last_oom_kill info\n");
	} else {
		family(o, METRIC_PREFIX, "last_oom_kill_info", &info, NULL,
		       "The last OOM kill memtop knows of");
	}
	tbuf_puts(o->b, METRIC_PREFIX "last_oom_kill_info{");
	label(o->b, true, "pid", pid);
	label(o->b, false, "comm", e->comm);
	label(o->b, false, "cgroup", e->memcg);
	tbuf_puts(o->b, "} 1\n");
	family(o, METRIC_PREFIX, "last_oom_kill_timestamp", &gauge, NULL,
	       "When the last OOM kill memtop knows of happened, seconds since the epoch");
	tbuf_puts(o->b, METRIC_PREFIX "last_oom_kill_timestamp_seconds");
	number(o, e->ts);
}

/* The verdict (verdict.h): its cause and subject, and the seconds until the limit it
 * names runs out (the forecast's: system exhaustion_s or the cgroup's limit_in_s) */
static void verdict(struct out *o, const struct verdict *v)
{
	struct metric info = {METRIC_GAUGE, NULL, 1}, gauge = {METRIC_GAUGE, "seconds", 1};
	char subject[24];

	if (o->om)
		tbuf_puts(o->b,
			  "# HELP " METRIC_PREFIX "verdict What runs out first and why: the "
			  "verdict's cause and subject\n# TYPE " METRIC_PREFIX "verdict info\n");
	else
		family(o, METRIC_PREFIX, "verdict_info", &info, NULL,
		       "What runs out first and why: the verdict's cause and subject");
	tbuf_puts(o->b, METRIC_PREFIX "verdict_info{");
	label(o->b, true, "cause", verdict_cause_name(v->cause));
	snprintf(subject, sizeof(subject), "%d", v->pid);
	label(o->b, false, "subject",
	      v->cause == VERDICT_CGROUP_LIMIT ? v->path
	      : v->pid > 0		       ? subject
					       : "");
	tbuf_puts(o->b, "} 1\n");
	if (isnan(v->secs))
		return;
	family(o, METRIC_PREFIX, "verdict_limit_in", &gauge, NULL,
	       "Seconds until the limit the verdict names runs out at its growth");
	tbuf_puts(o->b, METRIC_PREFIX "verdict_limit_in_seconds");
	number(o, v->secs);
}

void view_openmetrics(struct tbuf *b, const struct model *m, const struct view_info *vi, bool om)
{
	struct out o = {b, om};

	figures(&o, m);
	nodes(&o, model_current(m));
	build_info(&o);
	self(&o, model_current(m));
	if (vi->stats)
		exporter(&o, vi->stats);
	if (vi->groups)
		groups(&o, vi->groups);
	else
		processes(&o, m, vi->top);
	if (vi->cgroups)
		cgroups(&o, vi->cgroups, vi->carry);
	ooms(&o, m, vi->ooms);
	verdict(&o, &m->verdict);
	if (om)
		tbuf_puts(b, "# EOF\n");
}
