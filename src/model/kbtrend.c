#include "kbtrend.h"

bool kb_trend_per_min(const struct kb_trend *t, double now, double kb, double *out)
{
	for (unsigned k = t->n; k > 0; k--) {
		unsigned i = (t->head + KB_TREND_RING - k) % KB_TREND_RING;
		double dt = now - t->t[i];
		if (dt > KB_TREND_SPAN + KB_TREND_MIN_STEP / 2 || dt <= 0)
			continue;
		*out = (kb - t->kb[i]) * 60.0 / dt;
		return true;
	}
	return false;
}

void kb_trend_add(struct kb_trend *t, double now, double kb)
{
	unsigned last = (t->head + KB_TREND_RING - 1) % KB_TREND_RING;

	if (t->n && now - t->t[last] < KB_TREND_MIN_STEP)
		return;
	t->t[t->head] = now;
	t->kb[t->head] = kb;
	t->head = (t->head + 1) % KB_TREND_RING;
	if (t->n < KB_TREND_RING)
		t->n++;
}
