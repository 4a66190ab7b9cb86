#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void snapshot_init(struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

void snapshot_free(struct snapshot *s)
{
	free(s->procs);
	free(s->events);
	memset(s, 0, sizeof(*s));
}

struct proc_sample *snapshot_add_proc(struct snapshot *s)
{
	if (s->nprocs == s->procs_cap) {
		s->procs_cap = s->procs_cap ? s->procs_cap * 2 : 512;
		s->procs = xrealloc(s->procs, s->procs_cap * sizeof(*s->procs));
	}
	struct proc_sample *p = &s->procs[s->nprocs++];
	memset(p, 0, sizeof(*p));
	return p;
}

struct mt_event *snapshot_add_event(struct snapshot *s)
{
	if (s->nevents == s->events_cap) {
		s->events_cap = s->events_cap ? s->events_cap * 2 : 16;
		s->events = xrealloc(s->events, s->events_cap * sizeof(*s->events));
	}
	struct mt_event *e = &s->events[s->nevents++];
	memset(e, 0, sizeof(*e));
	return e;
}
