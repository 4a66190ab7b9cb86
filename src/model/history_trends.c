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

/* The time of q's sample nearest to time, among each tier's sample at or before it
 * and its first one after it, since q was first seen */
static double from_time(const struct history *h, const struct hproc *q, double time)
{
	double best = q->last;

	for (size_t k = 0; k < PROC_TIERS; k++) {
		const struct tier *t = &h->proc[k];
		long i = tier_at_or_before(t, time);
		if (i >= 0 && tier_time(t, (size_t)i) >= q->first) {
			double c = tier_time(t, (size_t)i);
			if (fabs(c - time) < fabs(best - time))
				best = c;
			continue;
		}
		for (size_t j = i < 0 ? 0 : (size_t)i + 1; j < t->n; j++) {
			double c = tier_time(t, j);
			if (c < q->first)
				continue;
			if (fabs(c - time) < fabs(best - time))
				best = c;
			break;
		}
	}
	return best;
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

bool history_growth(const struct history *h, int32_t pid, uint64_t start_ticks, double at_most,
		    double span, double *kb_per_min, bool *leak)
{
	const struct hproc *q = history_find(h, pid, start_ticks);
	uint32_t sw;
	double at, then_at, now_kb, then_kb;

	if (leak)
		*leak = false;
	if (!q)
		return false;
	double now = at_most < q->last ? at_most : q->last;
	bool use_swap = history_proc_at(h, q, h->hcol[COL_SWAP], now, &sw, &at);
	if (!size_at(h, q, now, use_swap, &now_kb, &at))
		return false;
	double from = from_time(h, q, at - span);
	if (!size_at(h, q, from, use_swap, &then_kb, &then_at) || at - then_at <= 0)
		return false;
	*kb_per_min = (now_kb - then_kb) * 60.0 / (at - then_at);
	if (leak && *kb_per_min > 0 && at - q->first >= 600)
		*leak = steady(h, q, at, use_swap);
	return true;
}

/* The slot at or before span seconds before the newest sample, the same for every
 * process: looked up once a refresh */
static const struct memo *memo_of(struct history *h, double span)
{
	const struct tier *t0 = &h->proc[0];
	double newest = t0->n ? tier_time(t0, t0->n - 1) : 0;
	struct memo *m = NULL;

	for (size_t i = 0; i < 4 && !m; i++)
		if (h->memo[i].span == span || h->memo[i].span == 0 || i == 3)
			m = &h->memo[i];
	if (m->span == span && m->newest == newest)
		return m;
	const struct tier *t = tier_for(h->proc, PROC_TIERS, newest - span);
	long k = tier_at_or_before(t, newest - span);
	*m = (struct memo){.span = span, .newest = newest, .found = k >= 0};
	if (k >= 0) {
		m->slot = slot_of(t, (size_t)k);
		m->at = tier_time(t, (size_t)k);
	}
	return m;
}

static double size_in(const struct history *h, const struct hproc *q, size_t slot, bool use_swap)
{
	const uint32_t *v = q->v + slot * (size_t)h->nhcol;
	uint32_t sw = v[h->hcol[COL_SWAP]];

	return (double)v[h->hcol[COL_RSS]] + (use_swap && sw != NO_VALUE ? sw : 0);
}

bool history_growth_of(struct history *h, size_t i, double span, double *kb_per_min, bool *leak)
{
	const struct tier *t0 = &h->proc[0];

	if (leak)
		*leak = false;
	if (i >= h->ncur || !t0->n)
		return false;
	const struct hproc *q = h->cur[i];
	const struct memo *m = memo_of(h, span);
	size_t now = slot_of(t0, t0->n - 1);
	const uint32_t *v = q->v + now * (size_t)h->nhcol;
	if (v[h->hcol[COL_RSS]] == NO_VALUE)
		return false;
	bool use_swap = v[h->hcol[COL_SWAP]] != NO_VALUE;
	double at = tier_time(t0, t0->n - 1), then_kb, then_at;
	if (m->found && m->at >= q->first) {
		const uint32_t *w = q->v + m->slot * (size_t)h->nhcol;
		if (w[h->hcol[COL_RSS]] == NO_VALUE)
			return false;
		use_swap &= w[h->hcol[COL_SWAP]] != NO_VALUE; /* swap where both ends have it */
		then_kb = size_in(h, q, m->slot, use_swap);
		then_at = m->at;
	} else { /* seen for less than span: since it was first seen */
		if (q->first_rss == NO_VALUE)
			return false;
		use_swap &= q->first_swap != NO_VALUE;
		then_kb = (double)q->first_rss + (use_swap ? q->first_swap : 0);
		then_at = q->first;
	}
	if (at <= then_at)
		return false;
	*kb_per_min = (size_in(h, q, now, use_swap) - then_kb) * 60.0 / (at - then_at);
	if (leak && *kb_per_min > 0 && at - q->first >= 600)
		*leak = steady(h, q, at, use_swap);
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

/* The samples of the finest tier over the last window seconds: avail + swap free */
static size_t avail_points(const struct history *h, double window, size_t fa, size_t fs, double *t,
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
		t[n] = time - newest;
		v[n] = (double)row[fa] + (fs < h->nfig && !isnan(row[fs]) ? (double)row[fs] : 0);
		n++;
	}
	return n;
}

double history_exhaustion(const struct history *h, double window, size_t avail, size_t swap_free,
			  double *rate_kb_s)
{
	double t[900], v[900];
	bool ok, ok_now;
	size_t n = avail_points(h, window, avail, swap_free, t, v, 900);

	*rate_kb_s = 0;
	if (!n)
		return -1;
	double rate = history_slope(t, v, n, window / 3, &ok);
	/* still shrinking now: over the last third of the window */
	size_t recent = 0;
	while (recent < n && t[recent] >= -window / 3)
		recent++;
	double now_rate = history_slope(t, v, recent, window / 6, &ok_now);
	if (!ok)
		return -1;
	*rate_kb_s = rate;
	/* and over the last third too, fast enough to run out within the hour: a flat line's
	 * noise after a fall does not keep the forecast */
	if (rate >= 0 || (ok_now && (now_rate >= 0 || v[0] / -now_rate >= 3600)))
		return -1;
	return v[0] / -rate;
}
