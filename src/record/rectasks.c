/* The processes of the limited memory cgroups (snapshot.h's cg_tasks, cg_sample.task0,
 * ntasks and oom_group), as a sample records them: the forecast's OOM victim in a cgroup
 * is computed from them (forecast.c), so a replay needs them to name it as the live run
 * did. They are one part of the sample's system fields ("cgroups.tasks", recfields.def), coded
 * here, recorded as a char array's bytes so that a reader that does not know the part
 * skips it. doc/recordings.md has the layout. */
#include <stdlib.h>
#include <string.h>

#include "reccodec_impl.h"
#include "util.h"

void rec_tasks_put(struct rbuf *b, const struct snapshot *s)
{
	bool any = false, fits = true;
	size_t total = 0;

	for (size_t i = 0; i < s->ncgroups; i++) {
		const struct cg_sample *c = &s->cgroups[i];
		any |= c->ntasks || c->oom_group;
		total += c->ntasks;
		fits &= (size_t)c->task0 + c->ntasks <= s->ncg_tasks;
	}
	/* none: nothing; more than a replay reads: nothing either, and no victim replayed */
	if (!any || !fits || total > REC_MAX_CG_TASKS)
		return;
	rb_varint(b, s->ncgroups);
	for (size_t i = 0; i < s->ncgroups; i++)
		rb_varint(b, (uint64_t)s->cgroups[i].ntasks << 1 | s->cgroups[i].oom_group);
	int32_t prev = 0;
	for (size_t i = 0; i < s->ncgroups; i++) {
		const struct cg_sample *c = &s->cgroups[i];
		for (size_t k = c->task0; k < (size_t)c->task0 + c->ntasks; k++) {
			rb_svarint(b, (int64_t)s->cg_tasks[k].pid - prev);
			rb_svarint(b, s->cg_tasks[k].oom_score_adj);
			prev = s->cg_tasks[k].pid;
		}
	}
}

static const char *get(const uint8_t *p, size_t n, struct snapshot *s)
{
	struct rcur c = {p, n, 0, false};
	uint64_t total = 0;

	if (rc_varint(&c) != s->ncgroups)
		return "the processes of other cgroups than the sample's";
	for (size_t i = 0; i < s->ncgroups && !c.bad; i++) {
		uint64_t v = rc_varint(&c);
		s->cgroups[i].task0 = (uint32_t)total;
		s->cgroups[i].oom_group = v & 1;
		v >>= 1;
		/* a pid and an oom_score_adj each, a byte each at least */
		if (v > (c.n - c.at) / 2 || total + v > (c.n - c.at) / 2)
			return "more cgroups' processes than bytes";
		if (total + v > REC_MAX_CG_TASKS)
			return "more cgroups' processes than a sample holds";
		s->cgroups[i].ntasks = (uint32_t)v;
		total += v;
	}
	if (total > s->cg_tasks_cap) {
		s->cg_tasks_cap = total;
		s->cg_tasks = xrealloc(s->cg_tasks, total * sizeof(*s->cg_tasks));
	}
	int64_t pid = 0;
	for (size_t k = 0; k < total && !c.bad; k++) {
		int64_t d = rc_svarint(&c), adj = rc_svarint(&c);
		pid += d > INT32_MAX || d < -INT32_MAX ? INT32_MAX + 1LL : d;
		if (pid <= 0 || pid > INT32_MAX || adj < -1000 || adj > 1000)
			return "a cgroup's process out of range";
		s->cg_tasks[k] = (struct cg_task){(int32_t)pid, (int16_t)adj};
	}
	if (c.bad || c.at != c.n)
		return c.bad ? "cut short in the cgroups' processes"
			     : "bytes after the cgroups' processes";
	s->ncg_tasks = total;
	return NULL;
}

const char *rec_tasks_get(const uint8_t *p, size_t n, struct snapshot *s)
{
	const char *why = n ? get(p, n, s) : NULL;

	if (why || !n) {
		for (size_t i = 0; i < s->ncgroups; i++) {
			s->cgroups[i].task0 = s->cgroups[i].ntasks = 0;
			s->cgroups[i].oom_group = false;
		}
		s->ncg_tasks = 0;
	}
	return why;
}
