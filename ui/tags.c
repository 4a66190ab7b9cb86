#include "tags.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int find(const struct tags *g, const struct proc_sample *p)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->t[i].pid == p->pid && g->t[i].start == p->start_ticks)
			return (int)i;
	return -1;
}

bool tags_has(const struct tags *g, const struct proc_sample *p)
{
	return g->n && find(g, p) >= 0;
}

/* A replay's process is tagged by its pid and start time alone, gone for a signal */
static void add(struct tags *g, const struct proc_sample *p, bool live)
{
	if (find(g, p) >= 0 || g->n >= MAX_TAGS)
		return;
	struct pid_hold *h = &g->t[g->n++];
	if (live)
		pid_hold_open(h, p->pid, p->start_ticks, g->fds < TAG_PIDFDS);
	else
		*h = (struct pid_hold){
			.pid = p->pid, .start = p->start_ticks, .fd = -1, .gone = true};
	g->fds += h->fd >= 0;
}

static void drop(struct tags *g, size_t i)
{
	g->fds -= g->t[i].fd >= 0;
	pid_hold_close(&g->t[i]);
	g->t[i] = g->t[--g->n];
}

void tags_toggle(struct tags *g, const struct proc_sample *p, bool live)
{
	int i = find(g, p);

	if (i < 0)
		add(g, p, live);
	else
		drop(g, (size_t)i);
}

/* Whether row r's process is p or under it (its parents among the rows) */
static bool under(const struct model *m, const struct proc_sample *r, int32_t pid)
{
	for (int depth = 0; r && depth < 4096; depth++) {
		if (r->pid == pid)
			return true;
		const struct proc_sample *up = NULL;
		for (size_t i = 0; i < m->nrows && r->ppid > 0; i++)
			if (m->rows[i]->p->pid == r->ppid)
				up = m->rows[i]->p;
		r = up;
	}
	return false;
}

size_t tags_tree(struct tags *g, const struct model *m, const struct proc_sample *p, bool live)
{
	size_t before = g->n;

	for (size_t i = 0; i < m->nrows; i++)
		if (under(m, m->rows[i]->p, p->pid))
			add(g, m->rows[i]->p, live);
	return g->n - before;
}

void tags_clear(struct tags *g)
{
	while (g->n)
		drop(g, g->n - 1);
}

void tags_kill(struct tags *g, int sig, char *msg, size_t size)
{
	size_t sent = 0, failed = 0, gone = 0;
	int err = 0;

	for (size_t k = 0; k < g->n; k++) {
		if (!pid_hold_signal(&g->t[k], sig))
			sent++;
		else if (errno == ESRCH)
			gone++;
		else
			failed++, err = errno;
	}
	char exited[40] = "";
	if (gone)
		snprintf(exited, sizeof(exited), ", %zu had exited", gone);
	snprintf(msg, size, "sent SIG%s to %zu tagged processes%s%s%s", sigabbrev_np(sig), sent,
		 exited, failed ? ", some refused: " : "", failed ? strerror(err) : "");
	tags_clear(g);
}
