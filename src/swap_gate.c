#include "swap_gate.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bpf/swapin.skel.h"
#include "util.h"

struct swap_gate {
	struct swapin_bpf *skel;
	pthread_mutex_t lock;
	struct bpf_link *count_link; /* count_memcg_events, while swap-ins can happen */
	struct bpf_link *writeout_link;
	struct ring_buffer *rb;
	pthread_t thread;
	bool running;
	int stop_fd; /* eventfd: tells the thread to end */
	uint64_t writeouts;
};

static bool swap_state(bool *in_use)
{
	struct sysinfo si;

	if (sysinfo(&si)) {
		*in_use = true;
		return true;
	}
	*in_use = si.freeswap < si.totalswap;
	return si.totalswap > 0;
}

/* With the lock held. woken: a writeout just happened. Returns whether swap is
 * configured. */
static bool update(struct swap_gate *g, bool woken)
{
	volatile struct swapin_bpf__bss *bss = g->skel->bss;
	bool in_use, configured = swap_state(&in_use);
	uint64_t w = bss->writeouts;
	bool want = configured && (!g->rb || in_use || woken || w != g->writeouts);

	g->writeouts = w;
	if (want && !g->count_link) {
		g->count_link = bpf_program__attach(g->skel->progs.count_memcg_events);
		bss->gate_open = g->count_link != NULL;
	} else if (!want && g->count_link) {
		bss->gate_open = 0;
		bpf_link__destroy(g->count_link);
		g->count_link = NULL;
	}
	if (!woken || configured)
		bss->wake_sent = 0; /* else the wake-up thread re-arms it, a little later */
	/* a writeout between reading the counter and closing the gate sent no wake-up */
	if (!g->count_link && configured && g->rb && bss->writeouts != g->writeouts)
		return update(g, true);
	return configured;
}

/* A wake-up carries nothing: that it came is the news. */
static int on_wake(void *ctx, void *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
	return 0;
}

static void *wake_thread(void *arg)
{
	struct swap_gate *g = arg;
	struct pollfd fds[2] = {
		{.fd = ring_buffer__epoll_fd(g->rb), .events = POLLIN},
		{.fd = g->stop_fd, .events = POLLIN},
	};

	for (;;) {
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			break;
		if (fds[1].revents)
			break;
		if (!fds[0].revents)
			continue;
		ring_buffer__consume(g->rb);
		pthread_mutex_lock(&g->lock);
		bool configured = update(g, true);
		pthread_mutex_unlock(&g->lock);
		if (configured)
			continue;
		/* writeouts of file pages with no swap at all: at most 10 wake-ups a second */
		if (poll(&fds[1], 1, 100) > 0)
			break;
		g->skel->bss->wake_sent = 0;
	}
	return NULL;
}

static struct bpf_link *attach_writeout(struct bpf_program *prog)
{
	static const char *const names[] = {"mm_vmscan_write_folio", "mm_vmscan_writepage"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct bpf_link *l = bpf_program__attach_raw_tracepoint(prog, names[i]);

		if (l)
			return l;
	}
	return NULL;
}

static bool start_thread(struct swap_gate *g)
{
	sigset_t all, old;
	bool ok;

	g->rb = ring_buffer__new(bpf_map__fd(g->skel->maps.wake), on_wake, NULL, NULL);
	g->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (!g->rb || g->stop_fd < 0)
		return false;
	/* signals go to the main thread, whose reads they interrupt */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ok = pthread_create(&g->thread, NULL, wake_thread, g) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

struct swap_gate *swap_gate_start(struct swapin_bpf *skel)
{
	struct swap_gate *g = xcalloc(1, sizeof(*g));

	g->skel = skel;
	g->stop_fd = -1;
	pthread_mutex_init(&g->lock, NULL);
	g->writeout_link = attach_writeout(skel->progs.writeout);
	g->running = g->writeout_link && start_thread(g);
	if (!g->running) {
		/* no wake-ups: attached whenever swap is configured */
		bpf_link__destroy(g->writeout_link);
		g->writeout_link = NULL;
		ring_buffer__free(g->rb);
		g->rb = NULL;
	}
	swap_gate_check(g);
	return g;
}

bool swap_gate_check(struct swap_gate *g)
{
	bool on;

	pthread_mutex_lock(&g->lock);
	update(g, false);
	on = g->count_link != NULL;
	pthread_mutex_unlock(&g->lock);
	return on;
}

bool swap_gate_lazy(const struct swap_gate *g)
{
	return g->running;
}

void swap_gate_stop(struct swap_gate *g)
{
	if (!g)
		return;
	if (g->running) {
		uint64_t one = 1;

		/* an eventfd write cannot fail here: its counter is far from full */
		(void)!write(g->stop_fd, &one, sizeof(one));
		pthread_join(g->thread, NULL);
	}
	if (g->stop_fd >= 0)
		close(g->stop_fd);
	bpf_link__destroy(g->writeout_link);
	bpf_link__destroy(g->count_link);
	ring_buffer__free(g->rb);
	pthread_mutex_destroy(&g->lock);
	free(g);
}
