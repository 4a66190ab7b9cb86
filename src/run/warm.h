/* A memtop started beside a service that pins its programs (--pin, bpf_pins.h) and
 * records opens with the service's last hour: its history (graphs, GROW, the exited
 * processes), forecasts and OOM kills. On a thread of its own, the recording's samples of
 * the last hour are stepped through a model of their own (all where they are at most
 * WARM_SAMPLES; else every one of the last WARM_RECENT_S seconds and before those the
 * keyframes, one in REC_KEYFRAME samples); the refresh after that is done takes that
 * model in place of its own, and steps from its last sample (the screen refreshes as soon
 * as it is done: monitor_warm_ready). */
#ifndef MEMTOP_WARM_H
#define MEMTOP_WARM_H

#include <stdbool.h>

#include "model.h"

#define WARM_SPAN_S   3600.0
#define WARM_RECENT_S 90.0
#define WARM_SAMPLES  600

struct warm;

/* Starts reading the recording (a file or a directory) for a model with prefs; NULL when
 * no thread could be made */
struct warm *warm_start(const char *recording, const struct prefs *prefs);

/* Once it is done (wait: waits for it), its model in place of m, the old one freed, and
 * *w freed and NULL: true where it had samples. False while it is still reading (without
 * wait, *w kept). */
bool warm_take(struct warm **w, struct model *m, bool wait);

/* It has read what it reads: warm_take takes it without waiting */
bool warm_done(const struct warm *w);

/* Stops and frees it, taken or not; NULL does nothing */
void warm_cancel(struct warm *w);

#endif
