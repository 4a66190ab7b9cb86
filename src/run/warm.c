/* The service's last hour, read on a thread (warm.h). */
#include "warm.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "util.h"

struct warm {
	pthread_t thread;
	char *recording;
	struct model m; /* the thread's until done */
	size_t fed;	/* samples stepped */
	atomic_bool done, stop;
};

/* Sample i of n (wall-clock times from the recording) is stepped: every one from recent
 * on; before, where there are more than WARM_SAMPLES, only keyframes (which decode alone:
 * a sample between them would decode all from the keyframe before it) */
static bool wanted(const struct replay *r, size_t i, size_t n, double recent)
{
	return n <= WARM_SAMPLES || replay_wall(r, i) >= recent || replay_keyframe(r, i);
}

static void *read_all(void *arg)
{
	struct warm *w = arg;
	char err[256];
	struct replay *r = replay_open(w->recording, err, sizeof(err));
	double now = clock_wall();

	if (r && replay_select(r, now - WARM_SPAN_S, 0) == 0) {
		size_t n = replay_count(r);
		double recent = replay_wall(r, n - 1) - WARM_RECENT_S;

		for (size_t i = 0; i < n && !atomic_load(&w->stop); i++) {
			if (!wanted(r, i, n, recent))
				continue;
			if (replay_read(r, i, model_begin(&w->m), err, sizeof(err)))
				break; /* the samples end at damage, or where the service writes */
			model_step(&w->m);
			w->fed++;
		}
	}
	replay_close(r);
	atomic_store(&w->done, true);
	return NULL;
}

struct warm *warm_start(const char *recording, const struct prefs *prefs)
{
	struct warm *w = xcalloc(1, sizeof(*w));

	w->recording = xstrdup(recording);
	model_init(&w->m, prefs);
	atomic_init(&w->done, false);
	atomic_init(&w->stop, false);
	if (pthread_create(&w->thread, NULL, read_all, w)) {
		model_free(&w->m);
		free(w->recording);
		free(w);
		return NULL;
	}
	return w;
}

static void warm_free(struct warm *w)
{
	free(w->recording);
	free(w);
}

bool warm_take(struct warm **wp, struct model *m, bool wait)
{
	struct warm *w = *wp;
	const struct snapshot *live = model_current(m);

	if (!w || (!wait && !atomic_load(&w->done)))
		return false;
	pthread_join(w->thread, NULL);
	*wp = NULL;
	if (!w->fed || !model_current(&w->m)) {
		model_free(&w->m);
		warm_free(w);
		return false;
	}
	/* the BPF counters since this memtop started (its own, or counted from the service's
	 * as it found them) go on from its last refresh, not from the service's */
	if (live)
		model_current_mut(&w->m)->bpf = live->bpf;
	else
		memset(&model_current_mut(&w->m)->bpf, 0, sizeof(live->bpf));
	model_free(m);
	*m = w->m;
	warm_free(w);
	return true;
}

bool warm_done(const struct warm *w)
{
	return atomic_load(&w->done);
}

void warm_cancel(struct warm *w)
{
	if (!w)
		return;
	atomic_store(&w->stop, true);
	pthread_join(w->thread, NULL);
	model_free(&w->m);
	warm_free(w);
}
