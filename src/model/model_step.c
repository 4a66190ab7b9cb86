/* A refresh's step of the model: the rates of the snapshot just filled, the figures over
 * time (growth.c), then the rows in the preferences' order. */
#include "growth.h"
#include "model.h"

void model_step(struct model *m)
{
	uint64_t seen = m->oom_seen;

	model_rates(m);
	growth_step(m, seen);
	slabmodel_update(&m->slab, model_current(m), m->hist);
	account_update(&m->acct, model_current(m));
	model_refilter(m);
}
