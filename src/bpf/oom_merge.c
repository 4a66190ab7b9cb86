#include "oom_merge.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Kills logged and not yet matched with a BPF report: the last few */
#define LOGGED_KEEP 64

struct oom_merge {
	struct kmsg_reader *log; /* read at each collect */
	bool follow;		 /* the log's kills are reported; else only their times taken */
	struct mt_event logged[LOGGED_KEEP];
	size_t nlogged;
	struct mt_event *earlier; /* the kills in the log at open, until the first collect */
	size_t nearlier, cap;
	bool collected;
};

static void add_earlier(void *arg, const struct mt_event *ev)
{
	struct oom_merge *m = arg;

	m->earlier = xgrow(m->earlier, m->nearlier, &m->cap, sizeof(*m->earlier), 16);
	m->earlier[m->nearlier] = *ev;
	m->earlier[m->nearlier++].earlier = true;
}

static void add_followed(void *arg, const struct mt_event *ev)
{
	*snapshot_add_event(arg) = *ev;
}

static void add_logged(void *arg, const struct mt_event *ev)
{
	struct oom_merge *m = arg;

	if (m->nlogged == LOGGED_KEEP)
		memmove(m->logged, m->logged + 1, --m->nlogged * sizeof(*m->logged));
	m->logged[m->nlogged++] = *ev;
}

/* A kill the BPF program reported takes the time of its record in the log, where the log
 * has it: one time for every reader of that record, this memtop or another, now or later */
static void log_times(struct oom_merge *m, struct snapshot *s, size_t first_new)
{
	kmsg_read(m->log, add_logged, m);
	for (size_t i = first_new; i < s->nevents; i++) {
		struct mt_event *ev = &s->events[i];
		for (size_t j = 0; ev->type == MT_EV_OOM_KILL && j < m->nlogged; j++) {
			if (m->logged[j].pid != ev->pid)
				continue;
			ev->ts = m->logged[j].ts;
			memmove(&m->logged[j], &m->logged[j + 1],
				(--m->nlogged - j) * sizeof(*m->logged));
			break;
		}
	}
}

struct oom_merge *oom_merge_open(struct kmsg_reader *log, bool follow)
{
	struct oom_merge *m = xcalloc(1, sizeof(*m));

	kmsg_read(log, add_earlier, m);
	m->log = log;
	m->follow = follow;
	return m;
}

bool oom_merge_following(const struct oom_merge *m)
{
	return m && m->log && m->follow;
}

/* Whether s->events[from..] has a kill of pid. */
static bool reported(const struct snapshot *s, size_t from, int32_t pid)
{
	for (size_t i = from; i < s->nevents; i++)
		if (s->events[i].type == MT_EV_OOM_KILL && s->events[i].pid == pid)
			return true;
	return false;
}

/* The earlier kills not among s->events[first_new..], at first_new. */
static void put_earlier(struct oom_merge *m, struct snapshot *s, size_t first_new)
{
	size_t nnew = s->nevents - first_new, keep = 0;

	for (size_t i = 0; i < m->nearlier; i++)
		if (!reported(s, first_new, m->earlier[i].pid))
			m->earlier[keep++] = m->earlier[i];
	if (!keep)
		return;
	for (size_t i = 0; i < keep; i++)
		snapshot_add_event(s);
	if (nnew)
		memmove(&s->events[first_new + keep], &s->events[first_new],
			nnew * sizeof(*s->events));
	memcpy(&s->events[first_new], m->earlier, keep * sizeof(*m->earlier));
}

void oom_merge_collect(struct oom_merge *m, struct snapshot *s, size_t first_new)
{
	if (m->follow)
		kmsg_read(m->log, add_followed, s);
	else
		log_times(m, s, first_new);
	if (m->collected)
		return;
	m->collected = true;
	put_earlier(m, s, first_new);
	free(m->earlier);
	m->earlier = NULL;
	m->nearlier = m->cap = 0;
}

void oom_merge_close(struct oom_merge *m)
{
	if (!m)
		return;
	kmsg_close(m->log);
	free(m->earlier);
	free(m);
}
