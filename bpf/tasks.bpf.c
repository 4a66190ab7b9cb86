// SPDX-License-Identifier: GPL-2.0
/* The process table in one read: a task iterator that writes, per task, what
 * /proc/PID/stat and statm would say (bpf/memtop.h: struct mtb_task_rec).
 *
 * statm adds each CPU's part of the rss counters to their shared count
 * (get_mm_counter_sum); the count alone is off by up to batch x CPUs pages. A CPU's
 * part lives at counters + that CPU's per-CPU offset, which this program learns from a
 * per-CPU array of its own: the address of an element on CPU n minus the array's
 * per-CPU base is CPU n's offset. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "memtop.h"
#include "pidns.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define PF_KTHREAD 0x00200000

/* The kfunc (6.2, as the per-CPU rss counters) that makes a pointer untrusted: loads
 * through it are the same loads, but the verifier no longer asks, at each pointer loaded,
 * whether the kernel vouches for it (6.4 on: a search of the kernel's BTF by name, a few
 * per load, 30 ms of the program's load on 6.18). Weak: tasks_old, for kernels before
 * 6.2, does not call it, and its object loads where it does not exist. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;

/* possible CPUs; user space sets it before loading */
const volatile __u32 nr_cpus = 1;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} cpu_probe SEC(".maps");

__u64 cpu_off[MTB_MAX_CPUS];
__u32 cpu_offs; /* offsets known in cpu_off, this pass */

/* kernels before 5.14 named the state field "state". The flavours below are read by
 * plain loads, so they need CO-RE's relocations as vmlinux.h's types have them. */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

static long find_off(__u32 cpu, void *base)
{
	__u32 zero = 0;
	void *p = bpf_map_lookup_percpu_elem(&cpu_probe, &zero, cpu);
	__u64 addr;

	if (!p || cpu >= MTB_MAX_CPUS)
		return 1;
	/* read back as a number: the verifier allows no arithmetic on map values' addresses */
	if (bpf_probe_read_kernel(&addr, sizeof(addr), &p))
		return 1;
	barrier_var(cpu);
	cpu_off[cpu & (MTB_MAX_CPUS - 1)] = addr - *(__u64 *)base;
	cpu_offs = cpu + 1;
	return 0;
}

/* Fills cpu_off for this pass: the array's per-CPU base is its pptrs[0] */
static void learn_offsets(void)
{
	void *map = &cpu_probe;
	__u64 map_addr, base;

	cpu_offs = 0;
	if (bpf_probe_read_kernel(&map_addr, sizeof(map_addr), &map))
		return;
	if (bpf_probe_read_kernel(
		    &base, sizeof(base),
		    (void *)(map_addr + bpf_core_field_offset(struct bpf_array, pptrs))))
		return;
	bpf_loop(nr_cpus, find_off, &base, 0);
}

struct sum {
	__u64 parts[NR_MM_COUNTERS]; /* addresses of the per-CPU s32 parts */
	__s64 total[NR_MM_COUNTERS];
	bool together; /* the parts lie side by side, as percpu_counter_init_many makes them */
};

static long add_cpu(__u32 cpu, struct sum *s)
{
	__s32 v[NR_MM_COUNTERS] = {};
	__u64 off;

	if (cpu >= MTB_MAX_CPUS || cpu >= cpu_offs)
		return 1;
	barrier_var(cpu); /* the mask stays: the verifier needs it */
	off = cpu_off[cpu & (MTB_MAX_CPUS - 1)];
	if (s->together) {
		bpf_probe_read_kernel(v, sizeof(v), (void *)(s->parts[0] + off));
	} else {
		for (int i = 0; i < NR_MM_COUNTERS; i++)
			if (s->parts[i])
				bpf_probe_read_kernel(&v[i], sizeof(v[i]),
						      (void *)(s->parts[i] + off));
	}
	for (int i = 0; i < NR_MM_COUNTERS; i++)
		s->total[i] += v[i];
	return 0;
}

static __u64 positive(__s64 v)
{
	return v > 0 ? v : 0;
}

/* kernels before 6.2 kept the rss counters in struct mm_rss_stat, without per-CPU parts */
struct mm_rss_stat___old {
	atomic_long_t count[4];
} __attribute__((preserve_access_index));

struct mm_struct___old {
	struct mm_rss_stat___old rss_stat;
} __attribute__((preserve_access_index));

/* mm is the task's: fields are read by plain loads (the verifier makes them safe), the
 * per-CPU parts by bpf_probe_read_kernel, one read per CPU where they lie side by side */
static __always_inline void mm_figures(struct mm_struct *mm, struct mtb_task_rec *r, bool per_cpu)
{
	struct sum s = {};

	if (!per_cpu) {
		struct mm_struct___old *old = (void *)mm;
		struct mm_rss_stat___old rss;

		/* one read: 5.10's verifier cannot load through the atomic_long_t array */
		if (bpf_core_read(&rss, sizeof(rss), &old->rss_stat))
			return;
		for (int i = 0; i < NR_MM_COUNTERS; i++)
			s.total[i] = rss.count[i].counter;
	} else {
		for (int i = 0; i < NR_MM_COUNTERS; i++) {
			s.total[i] = mm->rss_stat[i].count;
			s.parts[i] = (__u64)mm->rss_stat[i].counters;
		}
		s.together = s.parts[0] && s.parts[1] == s.parts[0] + 4 &&
			     s.parts[2] == s.parts[0] + 8 && s.parts[3] == s.parts[0] + 12;
		bpf_loop(cpu_offs, add_cpu, &s, 0);
	}
	r->size = mm->total_vm;
	r->shared = positive(s.total[MM_FILEPAGES]) + positive(s.total[MM_SHMEMPAGES]);
	r->resident = r->shared + positive(s.total[MM_ANONPAGES]);
	r->swap = positive(s.total[MM_SWAPENTS]);
	r->text = (((mm->end_code + 4095) & ~4095UL) - (mm->start_code & ~4095UL)) >> 12;
	r->data = mm->data_vm + mm->stack_vm;
}

/* /proc's state letter index (task_state_index()) */
static __u32 state_index(struct task_struct *t)
{
	unsigned int st, exit_state = t->exit_state, report;

	if (bpf_core_field_exists(t->__state))
		st = t->__state;
	else
		st = ((struct task_struct___old *)t)->state;
	report = (st | exit_state) & 0x7f; /* TASK_REPORT */
	if ((st & 0x402) == 0x402)	   /* TASK_IDLE */
		report = 0x80;		   /* TASK_REPORT_IDLE */
	if (st & 0x1000)		   /* TASK_RTLOCK_WAIT */
		report = 0x2;
	for (int i = 8; i > 0; i--) /* fls() */
		if (report & (1U << (i - 1)))
			return i;
	return 0;
}

/* The ids of its memory cgroup and of its cgroup in the v2 hierarchy (t untrusted);
 * none once every thread has exited, as cgroup.procs no longer lists it */
static void cgroup_ids(struct task_struct *t, struct mtb_task_rec *r)
{
	struct css_set *cset = t->cgroups;
	int ssid;

	if (!cset || t->signal->live.counter <= 0) {
		r->memcg_id = MTB_CG_ID_NONE;
		r->cgroup2_id = MTB_CG_ID_NONE;
		return;
	}
	if (bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id)) {
		ssid = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
		if (ssid >= 0 && ssid < 12) { /* a constant once relocated */
			struct cgroup_subsys_state *css = cset->subsys[ssid];

			if (css && css->cgroup)
				r->memcg_id = css->cgroup->kn->id;
		}
	}
	if (cset->dfl_cgrp)
		r->cgroup2_id = cset->dfl_cgrp->kn->id;
}

static __s32 tgid_of(struct task_struct *t)
{
	return pidns_ino ? mt_task_tgid(t) : t->tgid;
}

/* One task's record. per_cpu: the kernel's rss counters have per-CPU parts (6.2+), which
 * are added with bpf_loop (5.17); a program whose per_cpu is false calls no callback, so
 * that kernels before 5.13, which know no callbacks, load it. */
static __always_inline int task_rec(struct bpf_iter__task *ctx, bool per_cpu)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *t;
	struct mtb_task_rec r = {};
	struct mm_struct *mm;

	if (per_cpu && ctx->meta->seq_num == 0)
		learn_offsets();
	t = ctx->task;
	if (!t)
		return 0;
	if (per_cpu)
		t = bpf_rdonly_cast(t, bpf_core_type_id_kernel(struct task_struct));
	r.tgid = tgid_of(t);
	if (!r.tgid)
		return 0;
	if (t->group_leader != t) {
		struct mtb_thread_rec th = {
			.kind = MTB_TASK_THREAD,
			.tgid = r.tgid,
			.minflt = t->min_flt,
			.majflt = t->maj_flt,
		};

		bpf_seq_write(seq, &th, sizeof(th));
		return 0;
	}
	r.kind = MTB_TASK_PROC;
	/* fields are read with plain loads, far cheaper than a helper call each */
	r.ppid = tgid_of(t->real_parent);
	r.euid = t->cred->euid.val;
	r.flags = t->flags;
	r.state = state_index(t);
	r.start_ns = t->start_boottime;
	r.minflt = t->min_flt + t->signal->min_flt;
	r.majflt = t->maj_flt + t->signal->maj_flt;
	__builtin_memcpy(r.comm, t->comm, sizeof(r.comm));
	cgroup_ids(t, &r);
	mm = t->mm;
	if (mm && !(r.flags & PF_KTHREAD))
		mm_figures(mm, &r, per_cpu);
	bpf_seq_write(seq, &r, sizeof(r));
	return 0;
}

/* User space loads one of the two: tasks where the rss counters are per CPU, tasks_old
 * where they are struct mm_rss_stat (before 6.2) */
SEC("iter/task")
int tasks(struct bpf_iter__task *ctx)
{
	return task_rec(ctx, true);
}

SEC("iter/task")
int tasks_old(struct bpf_iter__task *ctx)
{
	return task_rec(ctx, false);
}
