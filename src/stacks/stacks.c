#include "stacks.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/stacks.h"
#include "bpf/stacks.skel.h"
#include "bpf_log.h"
#include "kbtf.h"
#include "pidns.h"
#include "stacks_ring.h"
#include "util.h"

_Static_assert(MTB_DD_DEPTH == STACKS_DEPTH, "stack depths differ");
_Static_assert((int)MTB_DD_FAULT == (int)STACK_FAULT && (int)MTB_DD_MUNMAP == (int)STACK_MUNMAP &&
		       (int)MTB_DD_KFAULT == (int)STACK_KFAULT &&
		       (int)MTB_DD_KINDS == (int)STACK_KINDS,
	       "stack kinds differ");

const char *const stack_kind_names[STACK_KINDS] = {
	[STACK_FAULT] = "fault",   [STACK_BRK] = "brk",	      [STACK_MMAP] = "mmap",
	[STACK_MUNMAP] = "munmap", [STACK_KFAULT] = "kfault",
};

const char *const stack_method_names[2] = {"dwarf", "fp"};

#define STACKS_DEPTH_TEXT_(n) #n
#define STACKS_DEPTH_TEXT(n)  STACKS_DEPTH_TEXT_(n)
const struct stack_trunc_kind stack_truncs[TRUNC_KINDS] = {
	[TRUNC_NONE] = {"", ""},
	[TRUNC_COPY] = {"stack_copy",
			"the walk needed more of the stack than was copied (--stack-bytes)"},
	[TRUNC_NO_CFI] = {"no_cfi",
			  "the next frame is in code without unwind information or frame pointer"},
	[TRUNC_NOT_EXEC] = {"not_executable", "the next frame was not in executable memory"},
	[TRUNC_DEPTH] = {"depth", "deeper than " STACKS_DEPTH_TEXT(STACKS_DEPTH) " frames"},
	[TRUNC_UNWIND] = {"unwind_error", "the unwind information gave no caller"},
	[TRUNC_FP_ONE] = {"fp_one_frame",
			  "no frame pointer held a caller (--unwind dwarf unwinds with CFI)"},
};

static struct stacks_conf conf = {.stack_bytes = STACKS_DEFAULT_BYTES};

void stacks_configure(const struct stacks_conf *c)
{
	conf = *c;
	if (conf.stack_bytes < STACKS_MIN_BYTES)
		conf.stack_bytes = STACKS_MIN_BYTES;
	if (conf.stack_bytes > STACKS_MAX_BYTES)
		conf.stack_bytes = STACKS_MAX_BYTES;
}

const struct stacks_conf *stacks_config(void)
{
	return &conf;
}

struct ips {
	int n; /* -1: not read yet */
	uint64_t *ip;
};

struct stacks {
	struct stacks_bpf *skel;
	unsigned rate;
	int ncpus;
	struct ips *ids; /* by stack id, read once: ids are never reused while loaded */
	struct mtb_dd_cpu *percpu;
	struct stacks_ring *ring; /* copied stacks; NULL: frame pointers in the kernel */
};

unsigned stacks_copies(void)
{
	const char *e = getenv("MEMTOP_STACKS_COPIES");
	char *end;
	unsigned long v = e ? strtoul(e, &end, 10) : 0;

	return e && *e && !*end && v >= 100 && v <= 100000 ? (unsigned)v : STACKS_COPIES;
}

static void reason(char *why, size_t len, const char *what, int err)
{
	if (err == -EPERM || err == -EACCES)
		snprintf(why, len, "%s",
			 geteuid() ? "stacks need root (BPF)"
				   : "permission denied loading BPF programs");
	else
		snprintf(why, len, "%s: %s", what, strerror(-err));
}

struct stacks *stacks_open(int32_t pid, unsigned rate, char *why, size_t len)
{
	struct stacks *st = NULL;
	struct stacks_bpf *skel = NULL;
	const char *what = "loading the stack sampler";
	struct stacks_ring *ring = NULL;
	int err, ncpus;

	bpf_log_loading(false); /* its reasons are told in one line */
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len, "kernel without BTF (/sys/kernel/btf/vmlinux)");
		return NULL;
	}
	skel = stacks_bpf__open();
	if (!skel) {
		err = -errno;
		goto fail;
	}
	skel->rodata->target_tgid = (__u32)pid;
	skel->rodata->sample_rate = rate ? rate : 1;
	skel->rodata->page_shift = (__u32)__builtin_ctzl((unsigned long)sysconf(_SC_PAGESIZE));
	skel->rodata->kernel_stacks = 1;
	skel->rodata->nr_brk = SYS_brk;
	skel->rodata->nr_mmap = SYS_mmap;
	skel->rodata->nr_munmap = SYS_munmap;
	skel->rodata->copy_stacks = !conf.fp;
	skel->rodata->stack_bytes = conf.stack_bytes;
	skel->rodata->copies_per_s = stacks_copies();
	ncpus = libbpf_num_possible_cpus();
	if (ncpus < 1)
		ncpus = 1;
	bpf_map__set_max_entries(skel->maps.scratch, conf.fp ? 1 : (__u32)ncpus);
	if (conf.fp)
		bpf_map__set_max_entries(skel->maps.ring, (__u32)sysconf(_SC_PAGESIZE));
	PIDNS_CONFIGURE(skel);
	err = stacks_bpf__load(skel);
	if (err && !kbtf_kernel_has_helper("BPF_FUNC_task_pt_regs"))
		what = "stacks need Linux 5.15 (bpf_task_pt_regs); loading";
	if (err)
		goto fail;
	if (!conf.fp && !(ring = stacks_ring_start(bpf_map__fd(skel->maps.ring), pid, why, len))) {
		stacks_bpf__destroy(skel);
		return NULL;
	}
	what = "attaching the stack sampler";
	err = stacks_bpf__attach(skel);
	if (err)
		goto fail;
	st = xcalloc(1, sizeof(*st));
	st->skel = skel;
	st->ring = ring;
	st->rate = rate ? rate : 1;
	st->ncpus = ncpus;
	st->percpu = xcalloc((size_t)st->ncpus, sizeof(*st->percpu));
	st->ids = xcalloc(MTB_DD_MAX_STACKS, sizeof(*st->ids));
	for (int i = 0; i < MTB_DD_MAX_STACKS; i++)
		st->ids[i].n = -1;
	return st;
fail:
	reason(why, len, what, err);
	stacks_ring_stop(ring);
	stacks_bpf__destroy(skel);
	return NULL;
}

unsigned stacks_rate(const struct stacks *st)
{
	return st->rate;
}

/* Frames of a stack id, innermost first; 0 frames for a failed stack (id < 0). */
static int stack_ips(struct stacks *st, int32_t id, uint64_t *out)
{
	uint64_t buf[MTB_DD_DEPTH];
	struct ips *s;
	int n = 0;

	if (id < 0 || id >= MTB_DD_MAX_STACKS)
		return 0;
	s = &st->ids[id];
	if (s->n < 0) {
		if (bpf_map_lookup_elem(bpf_map__fd(st->skel->maps.stack_map), &id, buf))
			return 0;
		while (n < MTB_DD_DEPTH && buf[n])
			n++;
		s->ip = xmalloc((size_t)(n ? n : 1) * sizeof(*s->ip));
		memcpy(s->ip, buf, (size_t)n * sizeof(*s->ip));
		s->n = n;
	}
	memcpy(out, s->ip, (size_t)s->n * sizeof(*out));
	return s->n;
}

static void read_totals(struct stacks *st, struct stacks_totals *tot)
{
	__u32 zero = 0;

	memset(tot, 0, sizeof(*tot));
	if (bpf_map_lookup_elem(bpf_map__fd(st->skel->maps.cpu_stats), &zero, st->percpu))
		return;
	for (int i = 0; i < st->ncpus; i++) {
		tot->faults += st->percpu[i].faults;
		tot->kfaults += st->percpu[i].kfaults;
		tot->samples += st->percpu[i].samples;
		tot->calls += st->percpu[i].calls;
		tot->lost_stacks += st->percpu[i].lost_stacks;
		tot->full += st->percpu[i].full;
		tot->ring_full += st->percpu[i].ring_full;
		tot->copy_fail += st->percpu[i].copy_fail;
		tot->over_budget += st->percpu[i].over_budget;
		tot->over_budget_bytes += st->percpu[i].over_budget_bytes;
		tot->over_budget_faults += st->percpu[i].over_budget_faults;
		tot->sampled_out += st->percpu[i].sampled_out;
	}
	tot->copied = st->ring != NULL;
	tot->stack_bytes = st->skel->rodata->stack_bytes;
	tot->copies_per_s = st->skel->rodata->copies_per_s;
}

size_t stacks_read(struct stacks *st, struct stack_rec **recs, size_t *cap,
		   struct stacks_totals *tot)
{
	int fd = bpf_map__fd(st->skel->maps.counts);
	struct mtb_dd_key key, next;
	struct mtb_dd_val val;
	void *prev = NULL;
	size_t n = 0;

	read_totals(st, tot);
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &val) || key.kind >= MTB_DD_KINDS)
			continue;
		*recs = xgrow(*recs, n, cap, sizeof(**recs), 64);
		struct stack_rec *r = &(*recs)[n++];

		r->kind = (enum stack_kind)key.kind;
		r->events = val.count;
		r->bytes = val.bytes;
		r->caller = key.caller;
		r->method = METHOD_FP;
		r->kstack = val.kstack;
		r->nuser = stack_ips(st, key.ustack, r->user);
		r->usym = NULL;
		r->estimated = false;
		/* a walk that found no caller at all: the frame pointer held none */
		r->trunc = r->nuser == 1 ? TRUNC_FP_ONE : TRUNC_NONE;
		r->nkernel = stack_ips(st, val.kstack, r->kernel);
	}
	if (st->ring) {
		size_t from = n;

		n = stacks_ring_read(st->ring, recs, cap, n, tot);
		for (size_t i = from; i < n; i++)
			(*recs)[i].nkernel = stack_ips(st, (*recs)[i].kstack, (*recs)[i].kernel);
	}
	return n;
}

/* One entry at a time, for kernels without batch operations on hash maps. */
static void drain_by_key(int fd, unsigned shift, void (*fn)(void *arg, uint64_t addr, uint64_t n),
			 void *arg)
{
	__u64 key, val;

	/* always take the first key: each is deleted after reading; bounded, as the
	 * process may keep faulting meanwhile */
	for (int i = 0; i < 2 * MTB_DD_MAX_PAGES && !bpf_map_get_next_key(fd, NULL, &key); i++) {
		if (bpf_map_lookup_and_delete_elem(fd, &key, &val)) {
			if (bpf_map_lookup_elem(fd, &key, &val) || bpf_map_delete_elem(fd, &key))
				break;
		}
		fn(arg, key << shift, val);
	}
}

void stacks_drain_pages(struct stacks *st, void (*fn)(void *arg, uint64_t addr, uint64_t n),
			void *arg)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	enum { BATCH = 1024 };
	int fd = bpf_map__fd(st->skel->maps.fault_pages);
	unsigned shift = st->skel->rodata->page_shift;
	__u64 keys[BATCH], vals[BATCH], batch;
	void *in = NULL;
	__u32 count;
	int err;

	do {
		count = BATCH;
		err = bpf_map_lookup_and_delete_batch(fd, in, &batch, keys, vals, &count, &opts);
		if (err && err != -ENOENT) {
			/* ENOSPC: a bucket larger than BATCH; EINVAL etc.: no batch support */
			drain_by_key(fd, shift, fn, arg);
			return;
		}
		for (__u32 i = 0; i < count; i++)
			fn(arg, keys[i] << shift, vals[i]);
		in = &batch;
	} while (!err);
}

void stacks_maps_changed(struct stacks *st)
{
	stacks_ring_maps_changed(st->ring);
}

void stacks_close(struct stacks *st)
{
	if (!st)
		return;
	stacks_bpf__destroy(st->skel); /* detaches first: the reader then sees no more */
	stacks_ring_stop(st->ring);
	for (int i = 0; i < MTB_DD_MAX_STACKS; i++)
		free(st->ids[i].ip);
	free(st->ids);
	free(st->percpu);
	free(st);
}
