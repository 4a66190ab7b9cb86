// SPDX-License-Identifier: GPL-2.0
/* OOM kills: oom/mark_victim fires once per victim; one slot of the log each. Before
 * Linux 6.8 it passes the victim's pid alone: then the task is the one the kill sent its
 * SIGKILL to just before, from the same task (signal/signal_generate, attached only
 * then). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "memtop.h"
#include "pidns.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MTB_OOM_LOG);
	__type(key, __u32);
	__type(value, struct mtb_oom_slot);
} oom_log SEC(".maps");

/* user space: mark_victim passes the victim's pid, not its task (before Linux 6.8) */
const volatile bool victim_pid_only = false;

/* the last SIGKILL sent by the kernel from each task: the victim of its OOM kill */
struct sigkill {
	__s32 pid; /* the victim thread's, as mark_victim passes it */
	__u64 task;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256);
	__type(key, __u32); /* the sending thread's pid */
	__type(value, struct sigkill);
} sigkills SEC(".maps");

__u64 oom_kills;
__u64 oom_logged; /* kills written into oom_log, or being written */

/* kernels before 6.2 kept rss counters in struct mm_rss_stat */
struct mm_rss_stat___old {
	atomic_long_t count[4];
};

struct mm_struct___old {
	struct mm_rss_stat___old rss_stat;
};

/* kernels before 6.15 named the parent pointer "parent" */
struct kernfs_node___old {
	struct kernfs_node___old *parent;
};

/* indexes of the anonymous MM_* enum; user space sets them from kernel BTF */
const volatile int mm_file_idx = MM_FILEPAGES;
const volatile int mm_anon_idx = MM_ANONPAGES;
const volatile int mm_shmem_idx = MM_SHMEMPAGES;

static __always_inline __u64 mm_counter(struct mm_struct *mm, int item)
{
	long v;

	if (item < 0 || item >= NR_MM_COUNTERS)
		return 0;
	if (bpf_core_type_exists(struct mm_rss_stat___old))
		v = BPF_CORE_READ((struct mm_struct___old *)mm, rss_stat.count[item].counter);
	else
		v = BPF_CORE_READ(mm, rss_stat[item].count);
	return v > 0 ? v : 0;
}

static __always_inline struct kernfs_node *kn_parent(struct kernfs_node *kn)
{
	if (bpf_core_field_exists(kn->__parent))
		return BPF_CORE_READ(kn, __parent);
	return (void *)BPF_CORE_READ((struct kernfs_node___old *)kn, parent);
}

/* the victim's memory cgroup: its id, and its path leaf first without the hierarchy's
 * root */
static __always_inline void memcg_path(struct task_struct *task, struct mtb_oom_event *e)
{
	struct kernfs_node *kn, *parent;
	int id;

	if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
		return;
	id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (id < 0 || id >= bpf_core_enum_value(enum cgroup_subsys_id, CGROUP_SUBSYS_COUNT))
		return;
	kn = BPF_CORE_READ(task, cgroups, subsys[id], cgroup, kn);
	e->cg_valid = kn != NULL;
	if (kn)
		e->cg_id = BPF_CORE_READ(kn, id);
#pragma unroll
	for (int i = 0; i < MTB_CG_LEVELS; i++) {
		parent = kn ? kn_parent(kn) : NULL;
		if (!parent)
			return;
		bpf_probe_read_kernel_str(e->cg[i], MTB_CG_NAME, BPF_CORE_READ(kn, name));
		e->cg_depth = i + 1;
		kn = parent;
	}
	e->cg_truncated = kn_parent(kn) != NULL;
}

#define SIGKILL	      9
#define SEND_SIG_PRIV 1 /* the siginfo of a signal the kernel sends */

SEC("raw_tp/signal_generate")
int BPF_PROG(oom_signal, int sig, struct kernel_siginfo *info, struct task_struct *task)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct sigkill k;

	if (sig != SIGKILL || (unsigned long)info != SEND_SIG_PRIV)
		return 0;
	k.pid = BPF_CORE_READ(task, pid);
	k.task = (__u64)task;
	bpf_map_update_elem(&sigkills, &tid, &k, BPF_ANY);
	return 0;
}

/* The victim whose pid mark_victim passed: the task just sent SIGKILL from this one */
static __always_inline struct task_struct *victim_of(__s32 pid)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct sigkill *k = bpf_map_lookup_elem(&sigkills, &tid);
	struct task_struct *task = NULL;

	if (k && k->pid == pid)
		task = (struct task_struct *)k->task;
	bpf_map_delete_elem(&sigkills, &tid);
	return task;
}

SEC("raw_tp/mark_victim")
int mark_victim(__u64 *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	struct mtb_oom_slot *slot;
	struct mtb_oom_event *e;
	struct task_struct *task;
	struct mm_struct *mm;
	__u32 k;

	/* Its first argument only: the kernel refuses to attach a program that reads more
	 * arguments than the tracepoint has (one, the pid, before Linux 6.8). The uid it
	 * passes since is the task's, read here from its credentials. */
	__sync_fetch_and_add(&oom_kills, 1);
	if (victim_pid_only)
		task = victim_of((__s32)ctx[0]);
	else
		task = (struct task_struct *)ctx[0];
	if (!task)
		return 0;
	uid_t uid = BPF_CORE_READ(task, cred, uid.val);
	__u32 pid = mt_task_tgid(task);

	if (!pid) /* a process outside memtop's PID namespace */
		return 0;
	/* The kernel kills under its oom_lock, one victim at a time: a plain increment is
	 * enough (an atomic one that returns the old value needs Linux 5.12) */
	__u64 n = oom_logged;

	oom_logged = n + 1;
	k = n % MTB_OOM_LOG;
	slot = bpf_map_lookup_elem(&oom_log, &k);
	if (!slot)
		return 0;
	slot->seq = 0; /* being written */
	e = &slot->e;
	__builtin_memset(e, 0, sizeof(*e));
	e->ts_ns = now;
	e->pid = pid;
	e->uid = uid;
	e->trigger_pid = mt_pid_tgid() >> 32;
	bpf_get_current_comm(e->trigger_comm, sizeof(e->trigger_comm));
	BPF_CORE_READ_STR_INTO(&e->comm, task, comm);
	mm = BPF_CORE_READ(task, mm);
	if (mm) {
		e->total_vm_pages = BPF_CORE_READ(mm, total_vm);
		e->anon_pages = mm_counter(mm, mm_anon_idx);
		e->file_pages = mm_counter(mm, mm_file_idx);
		e->shmem_pages = mm_counter(mm, mm_shmem_idx);
	}
	memcg_path(task, e);
	/* whole: an atomic add (a full barrier) after the writes */
	__sync_fetch_and_add(&slot->seq, n + 1);
	return 0;
}
