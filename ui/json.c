#include <inttypes.h>
#include <string.h>

#include "sysfig.h"
#include "text.h"
#include "views.h"

static void hist(FILE *f, const char *name, const struct mt_hist *h)
{
	fprintf(f, "\"%s\":{\"count\":%" PRIu64 ",\"total_us\":%" PRIu64 ",\"buckets\":[", name,
		h->count, h->total_us);
	bool first = true;
	for (int i = 0; i < MT_HIST_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		uint64_t lo = i == 0 ? 0 : 1ull << i, hi = (1ull << (i + 1)) - 1;
		fprintf(f, "%s{\"lo_us\":%" PRIu64 ",\"hi_us\":%" PRIu64 ",\"count\":%" PRIu64 "}",
			first ? "" : ",", lo, hi, h->slots[i]);
		first = false;
	}
	fputs("]}", f);
}

static void event(FILE *f, const struct mt_event *e)
{
	fprintf(f, "{\"type\":\"oom_kill\",\"ts\":%.3f,\"earlier\":%s,\"pid\":%d,\"comm\":", e->ts,
		e->earlier ? "true" : "false", e->pid);
	json_string(f, e->comm);
	fprintf(f,
		",\"uid\":%u,\"total_vm_kb\":%" PRIu64 ",\"anon_rss_kb\":%" PRIu64
		",\"file_rss_kb\":%" PRIu64 ",\"shmem_rss_kb\":%" PRIu64 ",\"memcg\":",
		e->uid, e->total_vm_kb, e->anon_rss_kb, e->file_rss_kb, e->shmem_rss_kb);
	json_string(f, e->memcg);
	fprintf(f, ",\"trigger_pid\":%d,\"trigger_comm\":", e->trigger_pid);
	json_string(f, e->trigger_comm);
	fputc('}', f);
}

/* A process object is put together here and written at once: one write for most of
 * it, not one per key (2,000 processes a refresh) */
struct out {
	FILE *f;
	size_t n;
	char buf[2048];
};

static void flush(struct out *o)
{
	fwrite(o->buf, 1, o->n, o->f);
	o->n = 0;
}

static void put(struct out *o, const char *s, size_t len)
{
	if (o->n + len > sizeof(o->buf))
		flush(o);
	if (len > sizeof(o->buf)) {
		fwrite(s, 1, len, o->f);
		return;
	}
	memcpy(o->buf + o->n, s, len);
	o->n += len;
}

static void put_str(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void put_u64(struct out *o, uint64_t v)
{
	char t[24];
	size_t i = sizeof(t);

	do
		t[--i] = (char)('0' + v % 10);
	while (v /= 10);
	put(o, t + i, sizeof(t) - i);
}

/* decimals places; a zero (most rates) as 0 */
static void put_fixed(struct out *o, double v, int decimals)
{
	char t[48];

	if (v == 0) {
		put(o, "0", 1);
		return;
	}
	put(o, t, (size_t)snprintf(t, sizeof(t), "%.*f", decimals, v));
}

/* One column's value, in the unit its key names; null where its collector did not read it */
static void value(struct out *o, const struct row *r, int c)
{
	const struct column *col = &columns[c];

	if (col->kind == KIND_TEXT) {
		flush(o);
		json_string(o->f, row_text(r, c));
		return;
	}
	if (!row_valid(r, c))
		put_str(o, "null");
	else if (col->kind == KIND_SAMPLE) /* exact, and cheaper than a double */
		put_u64(o, col->id ? col->id(r->p) : r->p->v[c]);
	else
		put_fixed(o, row_number(r, c), col->unit == UNIT_US_RATE ? 1 : 2);
}

/* Every column read for every process, and the costly ones shown */
static void process(FILE *f, const struct model *m, const struct row *r)
{
	struct out o = {.f = f};
	bool first = true;

	put(&o, "{", 1);
	for (int c = 0; c < COL_COUNT; c++) {
		if (!column_in_json(c, m->prefs->cols))
			continue;
		put(&o, first ? "\"" : ",\"", first ? 1 : 2);
		put_str(&o, columns[c].json);
		put(&o, "\":", 2);
		value(&o, r, c);
		first = false;
		if (columns[c].total && row_valid(r, c)) {
			put(&o, ",\"", 2);
			put_str(&o, columns[c].total);
			put(&o, "\":", 2);
			put_u64(&o, r->p->v[c]);
		}
	}
	if (r->rate_since > 0) { /* its rates span its life so far, not interval_s */
		put_str(&o, ",\"rate_since_s\":");
		put_fixed(&o, r->rate_since, 2);
	}
	put(&o, "}", 1);
	flush(&o);
}

/* The figures of the table whose group writes to object obj; comma: one goes before the
 * first */
static void figures(FILE *f, const struct model *m, const char *obj, bool comma)
{
	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *fig = &sys_figures[i];

		if (strcmp(sf_group_json[fig->group], obj))
			continue;
		bool valid = sys_figure_valid(fig, m);
		if (!valid && !fig->json_null)
			continue;
		fprintf(f, "%s\"%s\":", comma ? "," : "", fig->json);
		comma = true;
		if (!valid)
			fputs("null", f);
		else if (fig->unit == SF_RATE || fig->unit == SF_AVG || fig->unit == SF_MS)
			fprintf(f, "%.2f", fig->get(m));
		else
			fprintf(f, "%.0f", fig->get(m));
	}
}

void view_json(FILE *f, const struct model *m, const struct view_info *vi)
{
	(void)vi;
	const struct snapshot *s = model_current(m);
	const struct sys_rates *r = &m->rates;
	fprintf(f, "{\"ts\":%.3f,\"interval_s\":%.3f,\"procs_interval_s\":%.3f,\"system\":{",
		s->wall, r->dt, r->dt_procs);
	figures(f, m, "system", false);
	fputs("},\"processes\":[", f);
	for (size_t i = 0; i < m->nrows; i++) {
		if (i)
			fputc(',', f);
		process(f, m, &m->rows[i]);
	}
	fputs("],\"events\":[", f);
	bool first = true;
	for (size_t i = 0; i < s->nevents; i++) {
		if (s->events[i].type != MT_EV_OOM_KILL)
			continue;
		if (!first)
			fputc(',', f);
		event(f, &s->events[i]);
		first = false;
	}
	fputs("],\"reclaim\":{", f);
	hist(f, "direct", &r->reclaim.direct);
	fputc(',', f);
	hist(f, "memcg", &r->reclaim.memcg);
	fputc(',', f);
	hist(f, "shrink_slab", &r->reclaim.shrink_slab);
	figures(f, m, "reclaim", true);
	fprintf(f, "},\"bpf\":{\"enabled\":%s,\"reason\":", s->bpf.enabled ? "true" : "false");
	json_string(f, s->bpf.reason);
	figures(f, m, "bpf", true);
	fputs(",\"swapin_mode\":", f);
	json_string(f, s->bpf.swapin_mode[0] ? s->bpf.swapin_mode : "off");
	fprintf(f, "},\"%s\":{", sf_group_json[SF_SELF]);
	figures(f, m, sf_group_json[SF_SELF], false);
	fputs("}}\n", f);
	fflush(f);
}
