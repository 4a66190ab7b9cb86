#include "stacks_ring.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/libbpf.h>

#include "bpf/stacks.h"
#include "strtab.h"
#include "symbolize.h"
#include "unwind.h"
#include "util.h"

#define MAX_STACKS 16384 /* distinct stacks counted; more are dropped (counted) */
#define POLL_MS	   50
/* records consumed while the lock is held: a process that makes them as fast as they
 * are unwound must not keep stacks_ring_read (and the screen) waiting */
#define BATCH	     256
#define CALLER_BATCH 4096
#define RESOLVED     8192 /* frames resolved, remembered */

struct counted {
	uint64_t hash; /* 0: free slot */
	uint32_t kind;
	int32_t kstack;
	enum stack_method method;
	enum stack_trunc trunc;
	int n;
	uint64_t *ip;
	struct sym_ref *sym; /* ip resolved when first counted */
	uint64_t events, bytes;
	bool estimated; /* some record weighed for events left out (past the budget) */
};

struct stacks_ring {
	struct ring_buffer *rb;
	struct unwinder *uw;
	int32_t pid;
	pthread_t thread;
	bool running;
	atomic_bool stop;
	/* held while reading the ring: around the unwinder and the counts */
	pthread_mutex_t mu;
	struct counted *t;
	size_t cap, n;	   /* cap: a power of two */
	struct strtab str; /* the frames' names */
	/* frames resolved with the unwinder's module list of generation gen, by
	 * ip << 1 | return address (0: free) */
	struct resolved {
		uint64_t key;
		struct sym_ref ref;
	} * res;
	size_t nres;
	unsigned gen;
	uint64_t records, bytes, full;
	int left;	   /* records this consume may still take */
	double reader_cpu; /* the reader thread's CPU time */
	double caller_cpu; /* reads by stacks_ring_read */
};

static uint64_t hash_stack(uint32_t kind, int32_t kstack, const struct unwind_result *u)
{
	uint64_t h = 1469598103934665603ULL ^ kind ^ (uint64_t)(uint32_t)kstack << 8 ^
		     (uint64_t)u->method << 40 ^ (uint64_t)u->trunc << 44;

	for (int i = 0; i < u->n; i++)
		h = (h ^ u->ip[i]) * 1099511628211ULL;
	return h ? h : 1;
}

static bool same(const struct counted *c, uint32_t kind, int32_t kstack,
		 const struct unwind_result *u)
{
	return c->kind == kind && c->kstack == kstack && c->method == u->method &&
	       c->trunc == u->trunc && c->n == u->n &&
	       !memcmp(c->ip, u->ip, (size_t)u->n * sizeof(*u->ip));
}

static void grow(struct stacks_ring *r)
{
	struct counted *old = r->t;
	size_t ocap = r->cap;

	r->cap = ocap ? ocap * 2 : 256;
	r->t = xcalloc(r->cap, sizeof(*r->t));
	for (size_t i = 0; i < ocap; i++) {
		if (!old[i].hash)
			continue;
		size_t j = old[i].hash & (r->cap - 1);

		while (r->t[j].hash)
			j = (j + 1) & (r->cap - 1);
		r->t[j] = old[i];
	}
	free(old);
}

/* The frames of a new stack named now, while the modules the walk went through are
 * those the unwinder has: code unmapped before the next read of the stacks (dlclose)
 * stays named. */
static void resolve_frame(struct stacks_ring *r, uint64_t ip, bool ret, struct sym_ref *out)
{
	uint64_t key = ip << 1 | ret;
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 40) & (RESOLVED - 1);
	struct sym_frame f;

	if (r->gen != unwinder_generation(r->uw) || r->nres * 2 >= RESOLVED) {
		memset(r->res, 0, RESOLVED * sizeof(*r->res));
		r->nres = 0;
		r->gen = unwinder_generation(r->uw);
	}
	for (; r->res[i].key; i = (i + 1) & (RESOLVED - 1))
		if (r->res[i].key == key) {
			*out = r->res[i].ref;
			return;
		}
	symbolize_in(unwinder_dwfl(r->uw), ip, ret, &f);
	*out = (struct sym_ref){
		.src = strtab_intern(&r->str, f.srcl ? f.srcl->src : ""),
		.ninl = f.srcl ? f.srcl->ninl : 0,
		.symbol = strtab_intern(&r->str, f.symbol),
		.module = strtab_intern(&r->str, f.module),
		.build_id = strtab_intern(&r->str, f.build_id),
		.offset = f.offset,
		.mod_offset = f.mod_offset,
		.found = f.found,
		.in_module = f.in_module,
	};
	for (int k = 0; k < out->ninl; k++) {
		out->inl_name[k] = strtab_intern(&r->str, f.srcl->inl_name[k]);
		out->inl_src[k] = strtab_intern(&r->str, f.srcl->inl_src[k]);
	}
	free(f.srcl);
	if (key) {
		r->res[i].key = key;
		r->res[i].ref = *out;
		r->nres++;
	}
}

static struct sym_ref *resolve(struct stacks_ring *r, const struct unwind_result *u)
{
	struct sym_ref *out;

	if (!r->uw || !u->n)
		return NULL;
	out = xcalloc((size_t)u->n, sizeof(*out));
	for (int i = 0; i < u->n; i++)
		resolve_frame(r, u->ip[i], i > 0, &out[i]);
	return out;
}

static void count(struct stacks_ring *r, uint32_t kind, int32_t kstack,
		  const struct unwind_result *u, uint64_t bytes, uint32_t weight)
{
	uint64_t h = hash_stack(kind, kstack, u);
	size_t i;

	if ((r->n + 1) * 2 > r->cap)
		grow(r);
	for (i = h & (r->cap - 1); r->t[i].hash; i = (i + 1) & (r->cap - 1))
		if (r->t[i].hash == h && same(&r->t[i], kind, kstack, u))
			break;
	struct counted *c = &r->t[i];

	if (!c->hash) {
		if (r->n >= MAX_STACKS) {
			r->full++;
			return;
		}
		*c = (struct counted){.hash = h,
				      .kind = kind,
				      .kstack = kstack,
				      .method = u->method,
				      .trunc = u->trunc,
				      .n = u->n};
		c->ip = xmalloc((size_t)(u->n ? u->n : 1) * sizeof(*c->ip));
		memcpy(c->ip, u->ip, (size_t)u->n * sizeof(*c->ip));
		c->sym = resolve(r, u);
		r->n++;
	}
	c->events += weight;
	c->bytes += bytes * weight;
	c->estimated |= weight > 1;
}

/* One record: the header, then the stack bytes. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct stacks_ring *r = ctx;
	struct mtb_dd_rec h;
	struct unwind_result u;

	r->records++;
	r->bytes += size;
	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	if (h.kind >= MTB_DD_KINDS || h.len > size - sizeof(h))
		return 0;
	struct unwind_regs regs = {.ip = h.ip, .sp = h.sp, .bp = h.bp};

	if (r->uw) {
		unwind_stack(r->uw, &regs, (const uint8_t *)data + sizeof(h), h.len, &u);
	} else {
		memset(&u, 0, sizeof(u));
		u.n = 1;
		u.ip[0] = h.ip;
		u.trunc = TRUNC_UNWIND;
	}
	count(r, h.kind, h.kstack, &u, h.bytes, h.weight ? h.weight : 1);
	return --r->left > 0 ? 0 : -EAGAIN; /* consumed; the rest on the next call */
}

/* Consumes up to n records; true when there are more. */
static bool consume(struct stacks_ring *r, int n)
{
	r->left = n;
	return ring_buffer__consume(r->rb) == -EAGAIN;
}

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *reader(void *arg)
{
	struct stacks_ring *r = arg;
	struct pollfd p = {.fd = ring_buffer__epoll_fd(r->rb), .events = POLLIN};
	double t0 = thread_cpu();
	bool more = false;

	while (!atomic_load(&r->stop)) {
		if (!more)
			poll(&p, 1, POLL_MS);
		pthread_mutex_lock(&r->mu);
		more = consume(r, BATCH);
		r->reader_cpu = thread_cpu() - t0; /* waking and polling count too */
		pthread_mutex_unlock(&r->mu);
	}
	return NULL;
}

struct stacks_ring *stacks_ring_start(int ring_fd, int32_t pid, char *why, size_t len)
{
	struct stacks_ring *r = xcalloc(1, sizeof(*r));

	r->pid = pid;
	r->res = xcalloc(RESOLVED, sizeof(*r->res));
	pthread_mutex_init(&r->mu, NULL);
	r->rb = ring_buffer__new(ring_fd, on_record, r, NULL);
	if (!r->rb) {
		snprintf(why, len, "reading the stacks' ring buffer: %s", strerror(errno));
		stacks_ring_stop(r);
		return NULL;
	}
	/* without the module list (the process is going), stacks stay one frame */
	r->uw = unwinder_new(pid);
	if (pthread_create(&r->thread, NULL, reader, r)) {
		snprintf(why, len, "starting the stacks' reader: %s", strerror(errno));
		stacks_ring_stop(r);
		return NULL;
	}
	r->running = true;
	return r;
}

size_t stacks_ring_read(struct stacks_ring *r, struct stack_rec **recs, size_t *cap, size_t n,
			struct stacks_totals *tot)
{
	pthread_mutex_lock(&r->mu);
	double t0 = thread_cpu();

	consume(r, CALLER_BATCH);
	r->caller_cpu += thread_cpu() - t0;
	for (size_t i = 0; i < r->cap; i++) {
		const struct counted *c = &r->t[i];

		if (!c->hash)
			continue;
		*recs = xgrow(*recs, n, cap, sizeof(**recs), 64);
		struct stack_rec *s = &(*recs)[n++];

		memset(s, 0, offsetof(struct stack_rec, user));
		s->kind = (enum stack_kind)c->kind;
		s->events = c->events;
		s->bytes = c->bytes;
		s->method = c->method;
		s->trunc = c->trunc;
		s->kstack = c->kstack;
		s->nuser = c->n;
		memcpy(s->user, c->ip, (size_t)c->n * sizeof(*c->ip));
		s->usym = c->sym;
		s->estimated = c->estimated;
	}
	tot->records += r->records;
	tot->ring_bytes += r->bytes;
	tot->full += r->full;
	tot->unwind_cpu += r->reader_cpu + r->caller_cpu;
	tot->unwind_hits += r->uw ? unwinder_hits(r->uw) : 0;
	pthread_mutex_unlock(&r->mu);
	return n;
}

void stacks_ring_maps_changed(struct stacks_ring *r)
{
	if (r && r->uw)
		unwinder_maps_changed(r->uw);
}

void stacks_ring_stop(struct stacks_ring *r)
{
	if (!r)
		return;
	if (r->running) {
		atomic_store(&r->stop, true);
		pthread_join(r->thread, NULL);
	}
	ring_buffer__free(r->rb);
	unwinder_free(r->uw);
	for (size_t i = 0; i < r->cap; i++) {
		free(r->t[i].ip);
		free(r->t[i].sym);
	}
	free(r->t);
	strtab_free(&r->str);
	free(r->res);
	pthread_mutex_destroy(&r->mu);
	free(r);
}
