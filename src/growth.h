/* The model's figures over time, from its history: model_update calls them. */
#ifndef MEMTOP_GROWTH_H
#define MEMTOP_GROWTH_H

#include "model.h"

/* Each row's growth columns (KIND_GROWTH) and leak flag, from the history that holds the
 * newest refresh; marks those columns valid in its sample where known */
void model_growth(struct model *m);
/* The forecast of exhaustion and the likely next OOM victim */
void model_forecast(struct model *m);
/* What the history saw at the last refresh before the OOM kill e (not valid for a kill
 * from before memtop started) */
void model_oom_before(const struct model *m, const struct mt_event *e, struct oom_before *b);

#endif
