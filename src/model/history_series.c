/* The history read back (history.h): its span, the series the graphs draw, a process's
 * sample at a time, and the processes of a past sample for the OOM post-mortem. */
#include <math.h>

#include "history_impl.h"

double history_oldest(const struct history *h)
{
	const struct tier *t = &h->sys[SYS_TIERS - 1];
	return t->n ? tier_time(t, 0) : 0;
}

double history_newest(const struct history *h)
{
	const struct tier *t = &h->sys[0];
	return t->n ? tier_time(t, t->n - 1) : 0;
}

double history_wall_at(const struct history *h, double time)
{
	const struct tier *t = tier_for(h->sys, SYS_TIERS, time);
	long i = tier_at_or_before(t, time);
	return i < 0 ? 0 : t->wall[(t->head + (size_t)i) % t->cap];
}

size_t history_sys_series(const struct history *h, size_t f, double t0, double t1, double *out,
			  size_t n)
{
	size_t got = 0;

	for (size_t i = 0; i < n; i++) {
		double time = series_time(t0, t1, i, n);
		const struct tier *t = tier_for(h->sys, SYS_TIERS, time);
		long k = f < h->nfig ? tier_at_or_before(t, time) : -1;
		out[i] = k < 0 ? NAN : h->figs[slot_of(t, (size_t)k) * h->nfig + f];
		got += !isnan(out[i]);
	}
	return got;
}

const struct hproc *history_find(const struct history *h, int32_t pid, uint64_t start)
{
	size_t lo = 0, hi = h->nprocs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (h->procs[mid]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < h->nprocs && h->procs[lo]->pid == pid; lo++)
		if (h->procs[lo]->start_ticks == start)
			return h->procs[lo];
	return NULL;
}

/* Column i (of the history's) of q in the sample at or before time: its slot's value and
 * time; false where it has none */
bool history_proc_at(const struct history *h, const struct hproc *q, int i, double time,
		     uint32_t *v, double *at)
{
	size_t slot;

	if (!proc_slot_at(h, q->first, q->last, time, &slot, at))
		return false;
	*v = hproc_row(h, q, slot)[i];
	return *v != NO_VALUE;
}

size_t history_proc_series(const struct history *h, int32_t pid, uint64_t start_ticks, int c,
			   double t0, double t1, double *out, size_t n)
{
	const struct hproc *q = history_find(h, pid, start_ticks);
	int i = c >= 0 && c < COL_COUNT ? h->hcol[c] : -1;
	double scale = i >= 0 && columns[c].scale ? columns[c].scale : 1;
	size_t got = 0;

	for (size_t k = 0; k < n; k++) {
		double time = series_time(t0, t1, k, n);
		uint32_t v, pv;
		double at, pat;
		out[k] = NAN;
		if (!q || i < 0 || time < q->first || time > q->last + 0.001 ||
		    !history_proc_at(h, q, i, time, &v, &at))
			continue;
		if (columns[c].kind != KIND_RATE) {
			out[k] = v;
		} else if (history_proc_at(h, q, i, at - 0.001, &pv, &pat) && at > pat) {
			out[k] = (double)(uint32_t)(v - pv) * scale / (at - pat);
		} else {
			continue;
		}
		got++;
	}
	return got;
}

double history_procs_at(const struct history *h, double time,
			void (*fn)(void *arg, const struct history_proc *p), void *arg)
{
	const struct tier *t = tier_for(h->proc, PROC_TIERS, time);
	long k = tier_at_or_before(t, time);

	if (k < 0)
		return 0;
	double at = tier_time(t, (size_t)k);
	size_t slot = slot_of(t, (size_t)k);
	for (size_t i = 0; i < h->nprocs; i++) {
		const struct hproc *q = h->procs[i];
		const uint32_t *v = hproc_row(h, q, slot);
		if (at < q->first || at > q->last || v[h->hcol[COL_RSS]] == NO_VALUE)
			continue;
		uint32_t sw = v[h->hcol[COL_SWAP]];
		struct history_proc p = {q->pid, q->start_ticks, q->comm, v[h->hcol[COL_RSS]],
					 sw == NO_VALUE ? 0 : sw};
		fn(arg, &p);
	}
	return at;
}
