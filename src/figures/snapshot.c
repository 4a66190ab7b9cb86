#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void snapshot_init(struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

static void free_cgroups(struct snapshot *s)
{
	for (size_t i = 0; i < s->ncgroups; i++) {
		free(s->cgroups[i].path);
		free(s->cgroups[i].name);
	}
	s->ncgroups = 0;
	free(s->cg_self.path);
	s->cg_self.path = NULL;
}

void snapshot_free(struct snapshot *s)
{
	free_cgroups(s);
	free(s->procs);
	free(s->events);
	free(s->cgroups);
	free(s->cg_tasks);
	free(s->slab.caches);
	free(s->acct.mounts);
	free(s->acct.segs);
	memset(s, 0, sizeof(*s));
}

void snapshot_reuse(struct snapshot *s)
{
	free_cgroups(s);
	struct snapshot kept = {
		.procs = s->procs,
		.procs_cap = s->procs_cap,
		.events = s->events,
		.events_cap = s->events_cap,
		.cgroups = s->cgroups,
		.cgroups_cap = s->cgroups_cap,
		.cg_tasks = s->cg_tasks,
		.cg_tasks_cap = s->cg_tasks_cap,
		.slab = {.caches = s->slab.caches, .cap = s->slab.cap},
		.acct = {.mounts = s->acct.mounts,
			 .mounts_cap = s->acct.mounts_cap,
			 .segs = s->acct.segs,
			 .segs_cap = s->acct.segs_cap},
	};
	*s = kept;
}

/* Room for one more process: grown by an eighth, not doubled, so that the room a snapshot
 * holds is near what the system has (two snapshots, 296 bytes a process); a large block
 * is a mapping of its own (monitor.c's malloc settings), which the kernel grows without a
 * copy */
struct proc_sample *snapshot_add_proc(struct snapshot *s)
{
	if (s->nprocs == s->procs_cap) {
		s->procs_cap += s->procs_cap / 8 + 512;
		s->procs = xrealloc(s->procs, s->procs_cap * sizeof(*s->procs));
	}
	return memset(&s->procs[s->nprocs++], 0, sizeof(*s->procs));
}

int snapshot_cmp_pid(const void *a, const void *b)
{
	const struct proc_sample *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

struct proc_sample *snapshot_find(const struct snapshot *s, size_t from, int32_t pid)
{
	struct proc_sample key = {.pid = pid};

	if (from >= s->nprocs) /* procs may be NULL */
		return NULL;
	return bsearch(&key, s->procs + from, s->nprocs - from, sizeof(key), snapshot_cmp_pid);
}

struct mt_event *snapshot_add_event(struct snapshot *s)
{
	s->events = xgrow(s->events, s->nevents, &s->events_cap, sizeof(*s->events), 16);
	return memset(&s->events[s->nevents++], 0, sizeof(*s->events));
}

struct cg_sample *snapshot_add_cgroup(struct snapshot *s, const char *path)
{
	s->cgroups = xgrow(s->cgroups, s->ncgroups, &s->cgroups_cap, sizeof(*s->cgroups), 64);
	struct cg_sample *c = memset(&s->cgroups[s->ncgroups++], 0, sizeof(*s->cgroups));
	c->path = xstrdup(path);
	c->parent = -1;
	return c;
}

const struct cg_sample *snapshot_cgroup(const struct snapshot *s, uint64_t id, const char *path)
{
	for (size_t i = 0; s && path && i < s->ncgroups; i++)
		if ((!id || s->cgroups[i].id == id) && !strcmp(s->cgroups[i].path, path))
			return &s->cgroups[i];
	return NULL;
}

void snapshot_drop_cgroup(struct snapshot *s, size_t i)
{
	free(s->cgroups[i].path);
	free(s->cgroups[i].name);
	memmove(&s->cgroups[i], &s->cgroups[i + 1], (s->ncgroups - i - 1) * sizeof(*s->cgroups));
	s->ncgroups--;
}
