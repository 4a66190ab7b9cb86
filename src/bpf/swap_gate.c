#include "swap_gate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "kallsyms.h"
#include "procfs.h"
#include "util.h"

struct swap_gate {
	struct memtop_bpf *skel;
	pthread_mutex_t lock;
	struct bpf_link *count_link; /* count_memcg_events, while swap-ins can happen */
	struct bpf_link *writeout_link;
	struct ring_buffer *rb;
	pthread_t thread; /* runs while rb is set: writeouts wake it */
	int stop_fd;	  /* eventfd: tells the thread to end */
	uint64_t writeouts;
	/* bio mode: swap-ins counted from swap read bios, nothing runs per fault */
	bool bio_tried, bio_mode;
	struct bpf_link *bio_link;
	uint64_t vm_base; /* /proc/vmstat pswpin right after the bio program was attached */
	uint64_t vm_last; /* pswpin at the previous check, once read after vm_base */
	bool have_last;
	int swaps_fd; /* /proc/swaps: the thread polls it for swapon and swapoff */
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

/* Tells the bio program the swap partitions (not files) by the kernel's dev_t: on a
 * synchronous device (zram, pmem, a RAM disk) a swap-in reads without end_swap_bio_read,
 * in a bio that submit_bio_wait ends. A swapfile on such a device is not told: its
 * filesystem's own reads would count. Its swap-ins then fall short of /proc/vmstat. */
static void set_swap_devs(struct swap_gate *g)
{
	volatile struct memtop_bpf__bss *bss = g->skel->bss;
	FILE *f = fopen("/proc/swaps", "re");
	char line[512], path[256], type[32];
	uint32_t n = 0;

	while (f && fgets(line, sizeof(line), f)) {
		struct stat st;

		if (n < MTB_SWAP_DEVS && sscanf(line, "%255s %31s", path, type) == 2 &&
		    !strcmp(type, "partition") && !stat(path, &st) && S_ISBLK(st.st_mode))
			bss->swap_devs[n++] = major(st.st_rdev) << 20 | minor(st.st_rdev);
	}
	if (f)
		fclose(f);
	bss->nswap_devs = n;
}

struct symbols_want {
	const char *const *name;
	uint64_t *addr;
	int n, found;
};

static int find_one(void *arg, uint64_t addr, char type, const char *name, const char *module)
{
	struct symbols_want *w = arg;

	(void)type;
	if (module[0])
		return 0;
	for (int i = 0; i < w->n; i++)
		if (!w->addr[i] && !strcmp(name, w->name[i])) {
			w->addr[i] = addr;
			w->found++;
		}
	return w->found >= w->n;
}

/* Addresses of kernel text symbols, 0 where missing; one read of /proc/kallsyms */
static void kallsyms_addrs(const char *const *want, uint64_t *addr, int n)
{
	struct symbols_want w = {.name = want, .addr = addr, .n = n};

	memset(addr, 0, (size_t)n * sizeof(*addr));
	if (n > 0)
		kallsyms_scan(find_one, &w);
}

static uint64_t vmstat_pswpin(void)
{
	char buf[16384];
	uint64_t vm[VS_COUNT] = {0};

	if (read_file("/proc/vmstat", buf, sizeof(buf)) > 0)
		parse_vmstat(buf, vm, NULL);
	return vm[VS_PSWPIN];
}

/* Counts swap-ins from swap read bios where the kernel has end_swap_bio_read: one run
 * per bio instead of two per page fault. With the lock held; once. */
static void try_bio(struct swap_gate *g)
{
	static const char *const names[] = {"end_swap_bio_read", "submit_bio_wait_endio"};
	volatile struct memtop_bpf__bss *bss = g->skel->bss;
	uint64_t addr[2];
	long page = sysconf(_SC_PAGESIZE);

	g->bio_tried = true;
	kallsyms_addrs(names, addr, 2);
	if (!addr[0] || g->count_link || !g->skel->rodata->bio_way)
		return;
	bss->page_shift = (uint32_t)__builtin_ctzl((unsigned long)page);
	bss->sync_end_io = addr[1];
	set_swap_devs(g);
	bss->swap_end_io = addr[0];
	g->bio_link = bpf_program__attach(g->skel->progs.swap_bio);
	if (!g->bio_link) {
		bss->swap_end_io = 0;
		return;
	}
	/* after attaching: a swap-in counted in vmstat from now on queues its bio later */
	g->vm_base = vmstat_pswpin();
	g->bio_mode = true;
}

/* Bio mode is exact only if every swap-in came with a bio. A swap-in that /proc/vmstat
 * counted by the previous check has queued its bio by now: fewer bio swap-ins than
 * that means a path without such bios (a swapfile on zram, a filesystem's swap_rw). Then
 * count_memcg_events takes over, gated as below. With the lock held. */
static void leave_bio(struct swap_gate *g)
{
	bpf_link__destroy(g->bio_link);
	g->bio_link = NULL;
	g->skel->bss->swap_end_io = 0;
	g->bio_mode = false;
}

static void check_bio(struct swap_gate *g, uint64_t pswpin)
{
	if (g->have_last && g->skel->bss->bio_swapins < g->vm_last - g->vm_base) {
		leave_bio(g);
		return;
	}
	g->vm_last = pswpin;
	g->have_last = true;
}

/* With the lock held. woken: a writeout just happened. Returns whether swap is
 * configured. */
static bool update(struct swap_gate *g, bool woken)
{
	volatile struct memtop_bpf__bss *bss = g->skel->bss;
	uint64_t w = bss->writeouts;
	bool in_use, configured = swap_state(&in_use);

	if (configured && !g->bio_tried)
		try_bio(g);
	bool want = configured && !g->bio_mode && (!g->rb || in_use || woken || w != g->writeouts);

	g->writeouts = w;
	if (want && !g->count_link && g->skel->rodata->memcg_way) {
		g->count_link = bpf_program__attach(g->skel->progs.count_memcg_events);
	} else if (!want && g->count_link) {
		bss->gate_open = 0; /* writeouts wake us again from here on */
		bpf_link__destroy(g->count_link);
		g->count_link = NULL;
	}
	/* no wake-ups while something counts every swap-in */
	bss->gate_open = g->bio_mode || g->count_link;
	if (!woken || configured)
		bss->wake_sent = 0; /* else the wake-up thread re-arms it, a little later */
	/* a writeout between reading the counter and closing the gate sent no wake-up */
	if (!bss->gate_open && configured && g->rb && bss->writeouts != g->writeouts)
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
	struct pollfd fds[3] = {
		{.fd = ring_buffer__epoll_fd(g->rb), .events = POLLIN},
		{.fd = g->stop_fd, .events = POLLIN},
		{.fd = g->swaps_fd, .events = POLLPRI},
	};

	for (;;) {
		if (poll(fds, 3, -1) < 0 && errno != EINTR)
			break;
		if (fds[1].revents)
			break;
		if (fds[2].revents) { /* a swapon or swapoff: tell the bio program now */
			pthread_mutex_lock(&g->lock);
			update(g, false);
			if (g->bio_mode)
				set_swap_devs(g);
			pthread_mutex_unlock(&g->lock);
		}
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
	g->swaps_fd = open("/proc/swaps", O_RDONLY | O_CLOEXEC); /* -1: poll skips it */
	if (!g->rb || g->stop_fd < 0)
		return false;
	/* signals go to the main thread, whose reads they interrupt */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ok = pthread_create(&g->thread, NULL, wake_thread, g) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

struct swap_gate *swap_gate_start(struct memtop_bpf *skel)
{
	struct swap_gate *g = xcalloc(1, sizeof(*g));

	g->skel = skel;
	g->stop_fd = g->swaps_fd = -1;
	pthread_mutex_init(&g->lock, NULL);
	g->writeout_link = attach_writeout(skel->progs.writeout);
	if (!g->writeout_link || !start_thread(g)) {
		/* no wake-ups: attached whenever swap is configured */
		bpf_link__destroy(g->writeout_link);
		g->writeout_link = NULL;
		ring_buffer__free(g->rb);
		g->rb = NULL;
	}
	pthread_mutex_lock(&g->lock);
	update(g, false);
	pthread_mutex_unlock(&g->lock);
	return g;
}

int swap_gate_check(struct swap_gate *g, uint64_t pswpin, const char **mode)
{
	int links;

	pthread_mutex_lock(&g->lock);
	if (g->bio_mode)
		check_bio(g, pswpin);
	/* without the thread polling /proc/swaps, a swapon is seen here, at a refresh */
	if (g->bio_mode && !(g->rb && g->swaps_fd >= 0))
		set_swap_devs(g);
	update(g, false);
	links = (g->count_link != NULL) + (g->bio_link != NULL) + (g->writeout_link != NULL);
	/* swap without bios and a kernel without count_memcg_events: nothing counts them */
	if (g->bio_mode)
		*mode = "bio";
	else if (g->count_link)
		*mode = "memcg";
	else
		*mode = g->bio_tried && !g->skel->rodata->memcg_way ? "none" : "idle";
	pthread_mutex_unlock(&g->lock);
	return links;
}

void swap_gate_stop(struct swap_gate *g)
{
	if (!g)
		return;
	if (g->rb) {
		uint64_t one = 1;

		/* an eventfd write cannot fail here: its counter is far from full */
		(void)!write(g->stop_fd, &one, sizeof(one));
		pthread_join(g->thread, NULL);
	}
	if (g->stop_fd >= 0)
		close(g->stop_fd);
	if (g->swaps_fd >= 0)
		close(g->swaps_fd);
	bpf_link__destroy(g->writeout_link);
	bpf_link__destroy(g->count_link);
	bpf_link__destroy(g->bio_link);
	ring_buffer__free(g->rb);
	pthread_mutex_destroy(&g->lock);
	free(g);
}
