#include "metric.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

double metric_scale(double v, double factor)
{
	double inv = 1 / factor, r = round(inv);

	if (factor < 1 && r > 1 && fabs(inv - r) < 1e-6 * r)
		return v / r;
	return v * factor;
}

const unsigned export_code_status[EXPORT_CODES] = {200, 401, 404, 405, 503};

static const struct metric none = {METRIC_NONE, NULL, 0};

/* A column's (process or cgroup): its value in the table's unit, or for a rate column
 * its counter, whose shown rate is the counter's per second times scale */
struct metric metric_of_column(const struct column *c)
{
	double s = c->scale ? c->scale : 1;

	if (!c->metric)
		return none;
	if (c->kind == KIND_RATE && c->unit == UNIT_RATE)
		return (struct metric){METRIC_COUNTER, NULL, s};
	if (c->kind == KIND_RATE && c->unit == UNIT_US_RATE)
		return (struct metric){METRIC_COUNTER, "seconds", s * 1e-6};
	if (c->kind != KIND_SAMPLE)
		return none;
	enum metric_type t = c->counter ? METRIC_COUNTER : METRIC_GAUGE;
	switch (c->unit) {
	case UNIT_KB:
		return (struct metric){t, "bytes", 1024 * s};
	case UNIT_ID:
		return (struct metric){t, NULL, s};
	case UNIT_PCT:
		return (struct metric){t, "ratio", s * 0.01};
	default:
		return none;
	}
}

struct metric metric_of_figure(const struct sys_figure *f)
{
	enum metric_type t = f->total ? METRIC_COUNTER : METRIC_GAUGE;

	if (!f->metric)
		return none;
	switch (f->unit) {
	case SF_KB:
		return (struct metric){t, "bytes", 1024};
	case SF_COUNT:
		return (struct metric){METRIC_COUNTER, NULL, 1};
	case SF_NUMBER:
		return (struct metric){t, NULL, 1};
	case SF_SECONDS:
		return (struct metric){t, "seconds", 1};
	case SF_AVG:
		return (struct metric){t, "ratio", 0.01};
	case SF_MS:
		return (struct metric){t, "seconds", 1e-3};
	case SF_RATE: /* a rate is exported as the counter it comes from, or not at all */
		return f->total ? (struct metric){t, NULL, 1} : none;
	case SF_NS_RATE:
		return f->total ? (struct metric){t, "seconds", 1e-9} : none;
	}
	return none;
}

size_t metric_name(char *buf, size_t size, const char *prefix, const char *name,
		   const struct metric *mt, bool family)
{
	int n = snprintf(buf, size, "%s%s%s%s%s", prefix, name, mt->unit ? "_" : "",
			 mt->unit ? mt->unit : "",
			 mt->type == METRIC_COUNTER && !family ? "_total" : "");
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t metric_label(const char *s, char *out)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = 0;

	while (*p) {
		unsigned c = *p;
		uint32_t cp;
		size_t len = utf8_decode(p, &cp); /* 0 for C1 controls too */
		if (c == '\\' || c == '"') {
			out[n++] = '\\';
			out[n++] = (char)c;
		} else if (c == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
		} else if (c < 0x20 || c == 0x7f || !len) {
			/* the bytes of it, as the text \xNN: a backslash escaped, then xNN */
			for (size_t k = 0; k < (len ? len : 1); k++) {
				memcpy(out + n, "\\\\x", 3);
				out[n + 3] = hex[p[k] >> 4];
				out[n + 4] = hex[p[k] & 15];
				n += 5;
			}
		} else if (char_invisible(cp)) { /* as the text \u202e, its backslash escaped */
			out[n++] = '\\';
			char u[12];
			size_t k = escape_codepoint(cp, u);
			memcpy(out + n, u, k);
			n += k;
		} else {
			memcpy(out + n, p, len);
			n += len;
		}
		p += len ? len : 1;
	}
	return n;
}

size_t metric_number(double v, char *buf, size_t size)
{
	int n;

	if (isnan(v))
		n = snprintf(buf, size, "NaN");
	else if (isinf(v))
		n = snprintf(buf, size, v > 0 ? "+Inf" : "-Inf");
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		n = snprintf(buf, size, "%.0f", v + 0.0);
	else /* the shortest of 15, 16 and 17 digits that reads back the same */
		for (int digits = 15; digits <= 17; digits++)
			if ((n = snprintf(buf, size, "%.*g", digits, v)) < 0 ||
			    strtod(buf, NULL) == v)
				break;
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* What the processes are ranked by: RSS, and the rates of faults, swap-ins and stalls */
enum rank { RANK_RSS, RANK_FAULTS, RANK_SWAPINS, RANK_STALL, RANK_COUNT };

static double rank_key(const struct row *r, enum rank k)
{
	switch (k) {
	case RANK_RSS:
		return (double)r->p->fig[PV_RSS];
	case RANK_FAULTS:
		return row_number(r, COL_MINFLT) + row_number(r, COL_MAJFLT);
	case RANK_SWAPINS:
		return row_number(r, COL_SWAPIN);
	case RANK_STALL:
		return row_number(r, COL_RECLAIM);
	case RANK_COUNT:
		break;
	}
	return 0;
}

static enum rank ranking; /* what by_rank compares */

/* Largest first; equal ones by pid */
static int by_rank(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a, *y = *(const struct row *const *)b;
	double kx = rank_key(x, ranking), ky = rank_key(y, ranking);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return (x->p->pid > y->p->pid) - (x->p->pid < y->p->pid);
}

static int by_pointer(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const struct row *const *)a,
		  y = (uintptr_t) * (const struct row *const *)b;

	return (x > y) - (x < y);
}

size_t metric_select(const struct model *m, size_t top, const struct row **out)
{
	static const struct row **sorted, **picked;
	static size_t cap;
	size_t n = m->nrows, k = 0, u = 0;

	if (cap < n + 1) {
		cap = n + 1 + n / 4;
		sorted = xrealloc(sorted, cap * sizeof(*sorted));
		picked = xrealloc(picked, RANK_COUNT * cap * sizeof(*picked));
	}
	memcpy(sorted, m->rows, n * sizeof(*sorted));
	/* the top of each ranking (of a rate, those above 0) */
	for (ranking = 0; ranking < RANK_COUNT; ranking++) {
		if (top < n)
			qsort(sorted, n, sizeof(*sorted), by_rank);
		for (size_t i = 0; i < n && i < top; i++)
			if (ranking == RANK_RSS || rank_key(sorted[i], ranking) > 0)
				picked[k++] = sorted[i];
	}
	/* each once, by RSS */
	qsort(picked, k, sizeof(*picked), by_pointer);
	for (size_t i = 0; i < k; i++)
		if (!u || out[u - 1] != picked[i])
			out[u++] = picked[i];
	ranking = RANK_RSS;
	qsort(out, u, sizeof(*out), by_rank);
	return u;
}

void metric_ooms_update(struct metric_ooms *o, const struct model *m)
{
	uint64_t added = m->oom_seen - o->seen;
	size_t from = added < m->noom ? m->noom - (size_t)added : 0;

	o->seen = m->oom_seen;
	for (size_t i = from; i < m->noom; i++) {
		const struct mt_event *e = &m->oom[i];
		if (e->earlier) /* before memtop started: not in a count since then */
			continue;
		size_t j = 0;
		while (j < o->n &&
		       (strcmp(o->e[j].comm, e->comm) || strcmp(o->e[j].memcg, e->memcg)))
			j++;
		if (j == o->n && o->n == METRIC_OOM_KEYS) {
			j = o->n - 1; /* the last pair holds the rest */
			snprintf(o->e[j].comm, sizeof(o->e[j].comm), "other");
			snprintf(o->e[j].memcg, sizeof(o->e[j].memcg), "other");
		} else if (j == o->n) {
			if (o->n == o->cap) {
				o->cap = o->cap ? 2 * o->cap : 8;
				o->e = xrealloc(o->e, o->cap * sizeof(*o->e));
			}
			memset(&o->e[j], 0, sizeof(o->e[j]));
			snprintf(o->e[j].comm, sizeof(o->e[j].comm), "%s", e->comm);
			snprintf(o->e[j].memcg, sizeof(o->e[j].memcg), "%s", e->memcg);
			o->n++;
		}
		o->e[j].kills++;
	}
}

void metric_ooms_free(struct metric_ooms *o)
{
	free(o->e);
	memset(o, 0, sizeof(*o));
}
