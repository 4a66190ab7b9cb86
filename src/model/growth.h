/* The model's figures over time: the refresh recorded into the model's history, and
 * what comes from it (the growth columns, leak suspects, the forecast of exhaustion and
 * the next OOM victim, the post-mortem of each OOM kill). */
#ifndef MEMTOP_GROWTH_H
#define MEMTOP_GROWTH_H

#include <stdint.h>

#include "model.h"

/* The newest snapshot, its rates made (model_rates), into the history, and the figures
 * from it; seen: m->oom_seen before model_rates, the kills added since get their
 * post-mortem. model_step (model.h) runs it. */
void growth_step(struct model *m, uint64_t seen);

#endif
