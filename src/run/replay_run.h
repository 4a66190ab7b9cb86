/* --replay with -b or --json: every sample of the range fed to the model and printed, as
 * the live run printed it; and the recording opened for the screen. */
#ifndef MEMTOP_REPLAY_RUN_H
#define MEMTOP_REPLAY_RUN_H

#include "model.h"
#include "options.h"
#include "replay.h"

/* Opens --replay's recording and selects --begin to --end; the recorder's columns unless
 * --columns was given. NULL with a one-line reason in err. */
struct replay *replay_start(struct options *o, char *err, size_t errlen);
/* Prints the range's samples (-b, --json); returns the exit status */
int replay_batch(struct replay *rp, struct model *m, const struct options *o);

#endif
