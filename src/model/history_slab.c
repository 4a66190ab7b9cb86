/* The largest slab caches over the hour (history.h): which caches are kept, their sizes
 * written into the processes' tiers at each refresh that reads slabinfo (a slot of a
 * refresh that did not read it holds NO_VALUE), and read back as series, points and
 * growth. A cache is known by its name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_impl.h"
#include "util.h"

#define HOUR 3600.0 /* what the coarsest tier holds */

static long slab_index(const struct history *h, const char *name)
{
	for (size_t i = 0; i < h->nslabs; i++)
		if (!strcmp(h->slabs[i].name, name))
			return (long)i;
	return -1;
}

/* The indices of the HISTORY_SLAB_TOP largest of c into top, largest first */
static size_t largest(const struct history_slab *c, size_t n, size_t *top)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = k < HISTORY_SLAB_TOP ? k++ : HISTORY_SLAB_TOP;
		for (; j > 0 && c[top[j - 1]].kb < c[i].kb; j--)
			if (j < HISTORY_SLAB_TOP)
				top[j] = top[j - 1];
		if (j < HISTORY_SLAB_TOP)
			top[j] = i;
	}
	return k;
}

/* The caches out of the largest for too long, or with nothing in the hour, go */
static void age(struct history *h, double dt)
{
	size_t m = 0;

	for (size_t i = 0; i < h->nslabs; i++) {
		struct hslab *s = &h->slabs[i];
		s->out_for = s->top ? 0 : s->out_for + dt;
		if (s->out_for >= HISTORY_SLAB_OUT || h->now - s->last > HOUR) {
			free(s->v);
			continue;
		}
		h->slabs[m++] = *s;
	}
	h->nslabs = m;
}

/* A cache kept from now on: where all HISTORY_SLAB_MAX are taken, in place of the one out
 * of the largest the longest */
static void enter(struct history *h, const char *name)
{
	struct hslab *s = NULL;

	if (!h->slabs)
		h->slabs = xcalloc(HISTORY_SLAB_MAX, sizeof(*h->slabs));
	if (h->nslabs < HISTORY_SLAB_MAX) {
		s = &h->slabs[h->nslabs++];
	} else {
		for (size_t i = 0; i < h->nslabs; i++) {
			struct hslab *o = &h->slabs[i];
			if (!o->top && (!s || o->out_for > s->out_for))
				s = o;
		}
		if (!s) /* all among the largest: cannot be, with HISTORY_SLAB_TOP fewer */
			return;
		free(s->v);
	}
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->first = s->last = h->now;
	s->top = true;
	s->v = xmalloc(h->proc_slots * sizeof(uint32_t));
	memset(s->v, 0xff, h->proc_slots * sizeof(uint32_t));
}

void history_record_slabs(struct history *h, const struct history_slab *c, size_t n)
{
	size_t top[HISTORY_SLAB_TOP], ntop = largest(c, n, top);
	/* time out of the largest counts over refreshes that read slabinfo one after another */
	double dt = h->slab_at > 0 && h->slab_at == h->before ? h->now - h->before : 0;

	for (size_t i = 0; i < h->nslabs; i++)
		h->slabs[i].top = false;
	for (size_t k = 0; k < ntop; k++) {
		long i = slab_index(h, c[top[k]].name);
		if (i >= 0)
			h->slabs[i].top = true;
	}
	age(h, dt);
	for (size_t k = 0; k < ntop; k++)
		if (slab_index(h, c[top[k]].name) < 0)
			enter(h, c[top[k]].name);
	for (size_t i = 0; i < n; i++) {
		long j = slab_index(h, c[i].name);
		if (j < 0)
			continue;
		struct hslab *s = &h->slabs[j];
		uint32_t kb = c[i].kb >= NO_VALUE ? NO_VALUE - 1 : (uint32_t)c[i].kb;
		for (size_t k = 0; k < PROC_TIERS; k++)
			s->v[h->slots_now[k]] = kb;
		s->last = h->now;
	}
	h->slab_at = h->now;
}

size_t history_slab_count(const struct history *h)
{
	return h->nslabs;
}

const char *history_slab_name(const struct history *h, size_t i)
{
	return i < h->nslabs ? h->slabs[i].name : NULL;
}

static bool kb_in(const struct history *h, const void *arg, size_t slot, double *kb)
{
	uint32_t v = ((const struct hslab *)arg)->v[slot];

	(void)h;
	*kb = v;
	return v != NO_VALUE;
}

size_t history_slab_series(const struct history *h, const char *name, double t0, double t1,
			   double *out, size_t n)
{
	long j = slab_index(h, name);
	size_t got = 0;

	for (size_t i = 0; i < n; i++) {
		double time = series_time(t0, t1, i, n), at;
		size_t slot;
		out[i] = NAN;
		if (j < 0)
			continue;
		const struct hslab *s = &h->slabs[j];
		if (time < s->first || time > s->last + 0.001 ||
		    !proc_slot_at(h, s->first, s->last, time, &slot, &at) ||
		    !kb_in(h, s, slot, &out[i])) {
			out[i] = NAN;
			continue;
		}
		got++;
	}
	return got;
}

size_t history_slab_points(const struct history *h, const char *name, double from, double to,
			   double *t, double *kb, size_t max)
{
	long j = slab_index(h, name);

	if (j < 0)
		return 0;
	const struct hslab *s = &h->slabs[j];
	return history_points(h, s->first, kb_in, s, from, to, t, kb, max);
}

bool history_slab_growth(const struct history *h, const char *name, double span, double *kb_per_min)
{
	long j = slab_index(h, name);

	if (j < 0)
		return false;
	const struct hslab *s = &h->slabs[j];
	return history_fit(h, s->first, kb_in, s, s->last - span, s->last, kb_per_min);
}
