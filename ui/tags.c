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

static void add(struct tags *g, const struct proc_sample *p)
{
	if (find(g, p) < 0 && g->n < MAX_TAGS)
		g->t[g->n++] = (struct tag){p->pid, p->start_ticks};
}

void tags_toggle(struct tags *g, const struct proc_sample *p)
{
	int i = find(g, p);

	if (i < 0)
		add(g, p);
	else
		g->t[i] = g->t[--g->n];
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

size_t tags_tree(struct tags *g, const struct model *m, const struct proc_sample *p)
{
	size_t before = g->n;

	for (size_t i = 0; i < m->nrows; i++)
		if (under(m, m->rows[i]->p, p->pid))
			add(g, m->rows[i]->p);
	return g->n - before;
}

void tags_clear(struct tags *g)
{
	g->n = 0;
}

void tags_kill(struct tags *g, const struct model *m, int sig, char *msg, size_t size)
{
	size_t sent = 0, failed = 0, gone = 0;
	int err = 0;

	for (size_t k = 0; k < g->n; k++) {
		bool running = false;
		for (size_t i = 0; i < m->nrows && !running; i++)
			running = m->rows[i]->p->pid == g->t[k].pid &&
				  m->rows[i]->p->start_ticks == g->t[k].start;
		if (!running)
			gone++;
		else if (kill(g->t[k].pid, sig) == 0)
			sent++;
		else
			failed++, err = errno;
	}
	snprintf(msg, size, "sent SIG%s to %zu tagged processes%s%s%s", sigabbrev_np(sig), sent,
		 gone ? ", some gone" : "", failed ? ", some refused: " : "",
		 failed ? strerror(err) : "");
	tags_clear(g);
}
