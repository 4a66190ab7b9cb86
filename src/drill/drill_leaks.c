/* The Leaks tab's source: the leak tracer (src/stacks/leaks_bpf.c) attached to the drill's
 * process for a window the user starts, read at each refresh while it runs and once
 * when it ends (then detached); what it found stays until the next window. */
#include "drill_leaks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dd_frames.h"
#include "util.h"

struct drill_leaks {
	int32_t pid;
	struct leaks *lk; /* while a window runs */
	struct symbolizer *sym;
	enum dd_leaks_state state;
	double start, end; /* the window, clock_mono() */
	double secs;	   /* traced for */
	struct leak_stack *s;
	size_t n;
	struct leaks_totals tot;
	bool cannot; /* not root, no BPF: why says so */
	char why[200], note[200], libc[512], comm[64];
};

struct drill_leaks *dl_new(int32_t pid, bool no_bpf)
{
	struct drill_leaks *l = xcalloc(1, sizeof(*l));

	l->pid = pid;
	if (no_bpf)
		snprintf(l->why, sizeof(l->why), "BPF off (--no-bpf)");
	else if (geteuid())
		snprintf(l->why, sizeof(l->why),
			 "tracing allocations needs root (BPF tracepoints and uprobes)");
	l->cannot = l->why[0];
	return l;
}

/* The window ends at to (clock_mono()): the probes stop, what stood then is read, and
 * the tracer is detached */
static void stop_at(struct drill_leaks *l, double to, bool gone)
{
	leaks_stop(l->lk);
	free(l->s);
	l->n = leaks_read(l->lk, l->start, to, &l->s, &l->tot);
	l->secs = to - l->start;
	leaks_close(l->lk);
	l->lk = NULL;
	l->state = DL_DONE;
	if (!gone && l->sym) /* its libraries opened meanwhile */
		(void)symbolizer_refresh(l->sym);
}

void dl_start(struct drill_leaks *l, double secs)
{
	if (l->lk) {
		double now = clock_mono();

		stop_at(l, now < l->end ? now : l->end, false);
	}
	if (secs <= 0 || l->cannot)
		return;
	char path[64];

	l->lk = leaks_open(l->pid, l->why, sizeof(l->why), l->note, sizeof(l->note));
	if (!l->lk)
		return;
	l->why[0] = '\0';
	snprintf(l->libc, sizeof(l->libc), "%s", leaks_libc(l->lk));
	snprintf(path, sizeof(path), "/proc/%d/comm", l->pid);
	if (read_file(path, l->comm, sizeof(l->comm)) > 0)
		l->comm[strcspn(l->comm, "\n")] = '\0';
	if (!l->sym)
		l->sym = symbolizer_new(l->pid);
	free(l->s);
	l->s = NULL;
	l->n = 0;
	memset(&l->tot, 0, sizeof(l->tot));
	l->state = DL_TRACING;
	l->start = clock_mono();
	l->end = l->start + secs;
	l->secs = 0;
}

void dl_window(struct drill_leaks *l, double secs)
{
	if (l->lk && secs > 0)
		l->end = l->start + secs;
}

double dl_end(const struct drill_leaks *l)
{
	return l->lk ? l->end : 0;
}

static void fill_stack(struct drill_leaks *l, const struct leak_stack *s, struct dd_leak *o)
{
	int n = symbolizer_frames_shown(l->sym, s->user, s->nuser);

	o->s = *s;
	o->nframes = n;
	o->frames = xcalloc(n ? (size_t)n : 1, sizeof(*o->frames));
	for (int k = 0; k < n; k++) {
		struct sym_frame fr = {.ip = s->user[k]};

		if (l->sym)
			symbolize_user(l->sym, s->user[k], k > 0 || s->first_is_call, &fr);
		dd_frame_set(&o->frames[k], &fr);
	}
}

void dl_fill(struct drill_leaks *l, struct detail *d, bool gone)
{
	struct dd_leaks *o = &d->leaks;

	if (l->lk) {
		double now = clock_mono();

		if (gone || now >= l->end) {
			stop_at(l, now < l->end ? now : l->end, gone);
		} else {
			free(l->s);
			l->n = leaks_read(l->lk, l->start, now, &l->s, &l->tot);
			l->secs = now - l->start;
		}
	}
	o->state = l->state;
	snprintf(o->why, sizeof(o->why), "%s", l->why);
	snprintf(o->note, sizeof(o->note), "%s", l->note);
	snprintf(o->libc, sizeof(o->libc), "%s", l->libc);
	snprintf(o->comm, sizeof(o->comm), "%s", l->comm);
	o->window = l->lk ? l->end - l->start : l->secs;
	o->secs = l->secs;
	o->tot = l->tot;
	o->bytes = o->more_bytes = 0;
	o->n = l->n < DD_LEAKS_SHOWN ? l->n : DD_LEAKS_SHOWN;
	o->more = l->n - o->n;
	o->stacks = xcalloc(o->n ? o->n : 1, sizeof(*o->stacks));
	for (size_t i = 0; i < l->n; i++) {
		o->bytes += l->s[i].bytes;
		if (i < o->n)
			fill_stack(l, &l->s[i], &o->stacks[i]);
		else
			o->more_bytes += l->s[i].bytes;
	}
}

void dl_free(struct drill_leaks *l)
{
	if (!l)
		return;
	leaks_close(l->lk);
	symbolizer_free(l->sym);
	free(l->s);
	free(l);
}
