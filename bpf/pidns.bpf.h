/* SPDX-License-Identifier: GPL-2.0 */
/* Process ids as memtop's /proc shows them. memtop may run in a PID namespace of its
 * own (a container): the kernel's ids are then not the ones it lists. Before loading,
 * user space sets pidns_dev and pidns_ino to its namespace's, only when that is not the
 * initial one; then ids are translated, and tasks outside it give 0. */
#ifndef MEMTOP_PIDNS_BPF_H
#define MEMTOP_PIDNS_BPF_H

const volatile __u64 pidns_dev __weak = 0;
const volatile __u64 pidns_ino __weak = 0;

#define MT_PIDNS_LEVELS 32 /* MAX_PID_NS_LEVEL */

/* The current task's tgid << 32 | pid in memtop's namespace; 0 outside it */
static __always_inline __u64 mt_pid_tgid(void)
{
	struct bpf_pidns_info ns;

	if (!pidns_ino)
		return bpf_get_current_pid_tgid();
	if (bpf_get_ns_current_pid_tgid(pidns_dev, pidns_ino, &ns, sizeof(ns)))
		return 0;
	return (__u64)ns.tgid << 32 | ns.pid;
}

/* A task's tgid in memtop's namespace; 0 outside it. The task's struct pid holds its id
 * in each namespace from the initial one down to its own: find memtop's among them. */
static __always_inline __u32 mt_task_tgid(struct task_struct *task)
{
	struct pid *p;
	struct upid up;
	__u32 level;

	if (!pidns_ino)
		return BPF_CORE_READ(task, tgid);
	p = BPF_CORE_READ(task, group_leader, thread_pid);
	if (!p)
		return 0;
	level = BPF_CORE_READ(p, level);
	for (__u32 i = 0; i < MT_PIDNS_LEVELS && i <= level; i++) {
		if (bpf_core_read(&up, sizeof(up), &p->numbers[i]))
			return 0;
		if (BPF_CORE_READ(up.ns, ns.inum) == pidns_ino)
			return up.nr;
	}
	return 0;
}

#endif
