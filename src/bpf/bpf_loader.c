#include "bpf_loader.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "bpf_source.h"
#include "marks.h"
#include "util.h"

struct bpf_loader {
	pthread_t thread;
	struct bpf_opts opts;
	char *recording;	/* opts' own copy */
	struct bpf_source *src; /* written by the thread before done */
	atomic_bool done;
};

/* MEMTOP_BPF_GATE=FILE holds the load until FILE exists (a minute at most): the tests
 * see the refreshes before the programs are ready, whatever the machine's speed */
static void gate(void)
{
	const char *f = getenv("MEMTOP_BPF_GATE");

	for (int i = 0; f && f[0] && access(f, F_OK) && i < 6000; i++)
		usleep(10000);
}

bool bpf_loader_gated(void)
{
	const char *f = getenv("MEMTOP_BPF_GATE");

	return f && f[0];
}

static void *load(void *arg)
{
	struct bpf_loader *l = arg;

	gate();
	mark("loader thread: starts");
	l->src = bpf_source_open(&l->opts);
	mark("loader thread: loaded");
	atomic_store_explicit(&l->done, true, memory_order_release);
	return NULL;
}

struct bpf_loader *bpf_loader_start(const struct bpf_opts *o)
{
	struct bpf_loader *l = xcalloc(1, sizeof(*l));

	l->opts = *o;
	l->opts.recording = l->recording = o->recording ? xstrdup(o->recording) : NULL;
	atomic_init(&l->done, false);
	if (pthread_create(&l->thread, NULL, load, l)) {
		free(l->recording);
		free(l);
		return NULL;
	}
	return l;
}

bool bpf_loader_wait(const struct bpf_loader *l, double secs)
{
	double end = clock_mono() + secs;

	while (!atomic_load_explicit(&l->done, memory_order_acquire)) {
		if (clock_mono() >= end)
			return false;
		usleep(2000);
	}
	return true;
}

struct bpf_source *bpf_loader_take(struct bpf_loader **l, bool wait)
{
	struct bpf_loader *ld = *l;
	struct bpf_source *src;

	if (!ld || (!wait && !atomic_load_explicit(&ld->done, memory_order_acquire)))
		return NULL;
	pthread_join(ld->thread, NULL);
	src = ld->src;
	free(ld->recording);
	free(ld);
	*l = NULL;
	return src;
}
