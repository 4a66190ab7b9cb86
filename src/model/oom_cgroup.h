/* The post-mortem's cgroup part (oom_cgroup.c): for an OOM kill in a memory cgroup with a
 * limit, what memtop saw of that cgroup before it, from the forecast's trend of it
 * (forecast.h) and the history: its limit, its usage at every refresh the trend holds
 * (CGT_SAMPLES of them at most, at their real times), its processes at the last refresh
 * before the kill with their growth, the kernel's count of OOM kills in it (memory.events
 * oom_kill, v1 memory.oom_control) before and after, and the verdict line as it stood
 * then. Made with the rest of the post-mortem (growth.c); struct oom_before owns it. */
#ifndef MEMTOP_OOM_CGROUP_H
#define MEMTOP_OOM_CGROUP_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define OOM_CG_PROCS 10

struct oom_cgroup {
	char path[256];		/* the kill's cgroup, or its nearest ancestor with a limit; raw */
	char name[CG_NAME_MAX]; /* its container's, pod's or unit's; "": none; raw */
	uint64_t limit_kb;	/* its limit (the lower of memory.max and memory.high) */
	uint64_t usage_kb;	/* its usage at the last refresh before the kill */
	size_t n;		/* usage samples, oldest first */
	float t[CGT_SAMPLES];	/* each one's time: seconds before the kill (negative) */
	float usage_kb_at[CGT_SAMPLES]; /* its usage then */
	/* its processes at the last refresh before the kill: the fastest growing first, then
	 * those too young for a growth by RSS; the victim always among them */
	struct oom_top procs[OOM_CG_PROCS];
	size_t nprocs;
	size_t ntasks;				   /* all its processes then */
	int64_t oom_kills_before, oom_kills_after; /* the kernel's count; -1: not read */
	char verdict[VERDICT_TEXT];		   /* as it stood then; "": none made */
};

/* The cgroup part of the post-mortem of kill e, whose last refresh before it was at mono
 * time at and which happened at mono time kill; NULL when it was not in a limited cgroup
 * memtop followed. The caller frees it (oom_before_clear, model.h). */
struct oom_cgroup *oom_cgroup_of(const struct model *m, const struct mt_event *e, double at,
				 double kill);

#endif
