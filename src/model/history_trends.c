/* The history's trends (history.h): each process's growth and whether it is a leak
 * suspect, and the forecast of memory's exhaustion. */
#include <math.h>
#include <string.h>

#include "history_impl.h"

/* RSS + swap in the sample at or before time (swap where both ends have it: use_swap) */
static bool size_at(const struct history *h, const struct hproc *q, double time, bool use_swap,
		    double *kb, double *at)
{
	uint32_t rss, swap;
	double at2;

	if (!history_proc_at(h, q, h->hcol[COL_RSS], time, &rss, at))
		return false;
	*kb = rss;
	if (use_swap && history_proc_at(h, q, h->hcol[COL_SWAP], *at, &swap, &at2))
		*kb += swap;
	return true;
}

/* Steady growth over the last ten minutes: the size at each minute of them, none of the
 * ten steps down by more than 1 %, eight of them up, and 1 MiB more at the end */
static bool steady(const struct history *h, const struct hproc *q, double now, bool use_swap)
{
	double kb[11], at;
	int up = 0;

	for (int k = 0; k <= 10; k++) {
		if (!size_at(h, q, now - 600 + 60 * k, use_swap, &kb[k], &at))
			return false;
		if (k && kb[k] < kb[k - 1] * 0.99)
			return false;
		up += k && kb[k] > kb[k - 1];
	}
	return up >= 8 && kb[10] - kb[0] >= 1024;
}

size_t history_points(const struct history *h, double first, slot_value_fn value, const void *arg,
		      double from, double to, double *t, double *v, size_t max)
{
	size_t n = 0;
	double below = INFINITY; /* the oldest time taken from a finer tier */

	for (size_t k = 0; k < PROC_TIERS && n < max; k++) {
		const struct tier *tier = &h->proc[k];
		long i = tier_at_or_before(tier, to);
		for (; i >= 0 && n < max; i--) {
			double time = tier_time(tier, (size_t)i);
			if (time < from || time < first)
				break;
			if (time >= below || !value(h, arg, slot_of(tier, (size_t)i), &v[n]))
				continue;
			t[n++] = time - to;
		}
		if (n)
			below = t[n - 1] + to;
	}
	return n;
}

struct size_arg {
	const struct hproc *q;
	bool use_swap;
};

/* RSS (+ swap where use_swap: then only samples that have it) in a slot */
static bool size_in(const struct history *h, const void *arg, size_t slot, double *kb)
{
	const struct size_arg *a = arg;
	const uint32_t *v = hproc_row(h, a->q, slot);
	uint32_t rss = v[h->hcol[COL_RSS]], sw = v[h->hcol[COL_SWAP]];

	if (rss == NO_VALUE || (a->use_swap && sw == NO_VALUE))
		return false;
	*kb = (double)rss + (a->use_swap ? sw : 0);
	return true;
}

bool history_fit(const struct history *h, double first, slot_value_fn value, const void *arg,
		 double from, double to, double *kb_per_min)
{
	double t[256], kb[256];
	bool ok;
	size_t n = history_points(h, first, value, arg, from, to, t, kb, 256);

	if (n < GROWTH_MIN_SAMPLES)
		return false;
	double slope = history_slope(t, kb, n, GROWTH_MIN_SPAN, &ok);
	if (ok)
		*kb_per_min = slope * 60.0;
	return ok;
}

/* The least-squares slope of q's RSS + swap, KiB a minute, over span seconds up to now:
 * false unless GROWTH_MIN_SAMPLES samples over GROWTH_MIN_SPAN seconds or more */
static bool fit_growth(const struct history *h, const struct hproc *q, double now, double span,
		       double *kb_per_min, bool *leak)
{
	double at;
	uint32_t sw;

	if (leak)
		*leak = false;
	bool use_swap = history_proc_at(h, q, h->hcol[COL_SWAP], now, &sw, &at) && at == now;
	if (!history_fit(h, q->first, size_in, &(struct size_arg){q, use_swap}, now - span, now,
			 kb_per_min))
		return false;
	if (leak && *kb_per_min > 0 && now - q->first >= 600)
		*leak = steady(h, q, now, use_swap);
	return true;
}

bool history_growth(const struct history *h, int32_t pid, uint64_t start_ticks, double at_most,
		    double span, double *kb_per_min, bool *leak)
{
	const struct hproc *q = history_find(h, pid, start_ticks);
	uint32_t rss;
	double at;

	if (leak)
		*leak = false;
	if (!q || !history_proc_at(h, q, h->hcol[COL_RSS], at_most < q->last ? at_most : q->last,
				   &rss, &at))
		return false;
	return fit_growth(h, q, at, span, kb_per_min, leak);
}

bool history_growth_of(struct history *h, size_t i, double span, double *kb_per_min, bool *leak)
{
	const struct tier *t0 = &h->proc[0];

	if (leak)
		*leak = false;
	if (i >= h->ncur || !t0->n)
		return false;
	struct hproc *q = h->cur[i];
	double now = tier_time(t0, t0->n - 1), *flat = &q->flat_at[span >= 600];
	/* the last fit found every sample of its window the same (its window starts at its
	 * first sample at the latest), and none has changed since: so are those of this
	 * window, and the slope is 0 without fitting again */
	if (*flat > 0 && q->changed <= fmax(*flat - span, q->first)) {
		*kb_per_min = 0;
		return true;
	}
	*flat = 0;
	/* too young for a fit: no span long enough; a fit over ten minutes (GROW10) only
	 * once ten minutes of samples exist, else it is the shorter span's over again */
	if (now - q->first < GROWTH_MIN_SPAN || (span >= 600 && now - q->first < span - 1))
		return false;
	if (!fit_growth(h, q, now, span, kb_per_min, leak))
		return false;
	if (q->changed <= fmax(now - span, q->first)) { /* every sample the same: flat */
		*kb_per_min = 0;
		if (leak)
			*leak = false;
		*flat = now;
	}
	return true;
}

double history_slope(const double *t, const double *v, size_t n, double min_span, bool *ok)
{
	double st = 0, sv = 0, stt = 0, stv = 0;
	size_t k = 0;
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		st += t[i];
		sv += v[i];
		k++;
		lo = t[i] < lo ? t[i] : lo;
		hi = t[i] > hi ? t[i] : hi;
	}
	*ok = k >= 3 && hi - lo >= min_span;
	if (!*ok)
		return 0;
	double mt = st / (double)k, mv = sv / (double)k;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		stt += (t[i] - mt) * (t[i] - mt);
		stv += (t[i] - mt) * (v[i] - mv);
	}
	return stt > 0 ? stv / stt : 0;
}

size_t history_room_points(const struct history *h, double window, size_t fa, size_t fs, double *t,
			   double *v, size_t max)
{
	const struct tier *tier = &h->sys[0];
	size_t n = 0;

	if (fa >= h->nfig || !tier->n)
		return 0;
	double newest = tier_time(tier, tier->n - 1);
	for (size_t i = tier->n; i-- > 0 && n < max;) {
		double time = tier_time(tier, i);
		if (time < newest - window)
			break;
		const float *row = h->figs + slot_of(tier, i) * h->nfig;
		if (isnan(row[fa]))
			continue;
		t[n] = time - newest;
		v[n] = (double)row[fa] + (fs < h->nfig && !isnan(row[fs]) ? (double)row[fs] : 0);
		n++;
	}
	return n;
}
