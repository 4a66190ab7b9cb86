/* The detail screen's Leaks tab: the leak tracer's window on the process (started, stopped
 * and lengthened by keys, run by the loop through the drill) and what it found still
 * outstanding, by stack, in memtop --leaks's lines. It draws struct detail's leaks only. */
#include <stdio.h>

#include "detail_screen.h"
#include "leaks_text.h"
#include "tui.h"
#include "util.h"

static struct detail_view *const v = &detail_view;

static const double windows[] = {5, 10, 30, 60, 120, 300, 600};
#define DEFAULT_WINDOW 1 /* 10 s */

double leaks_window(void)
{
	return windows[v->leak_window];
}

void leaks_window_step(int by)
{
	int w = (int)v->leak_window + by;

	if (w >= 0 && w < (int)ARRAY_SIZE(windows))
		v->leak_window = (size_t)w;
}

void leaks_window_default(void)
{
	v->leak_window = DEFAULT_WINDOW;
}

enum leaks_req ui_leaks_req(struct ui *u, double *secs)
{
	enum leaks_req r = v->leak_req;

	(void)u;
	v->leak_req = LEAKS_NONE;
	*secs = leaks_window();
	return r;
}

/* The lines from v->sel[SEC_LEAKS] on, rows of them from y; counts them all */
struct lines {
	struct ui *u;
	int y, rows;
	size_t n;
};

static void line(struct lines *l, enum role role, const char *text)
{
	size_t top = v->sel[SEC_LEAKS];

	if (l->n >= top && l->n - top < (size_t)l->rows)
		put_text(&l->u->cv, l->y + (int)(l->n - top), 0, l->u->cv.cols, role, text, true);
	l->n++;
}

static void state_line(struct lines *l, const struct dd_leaks *k)
{
	char s[400];

	if (k->why[0]) {
		snprintf(s, sizeof(s), "Leak tracing unavailable: %s", k->why);
		line(l, ROLE_WARNING, s);
		return;
	}
	if (k->state == DL_TRACING)
		snprintf(s, sizeof(s),
			 "Tracing: %.0f s of a %g s window (s stops it, ( ) change it)", k->secs,
			 k->window);
	else if (k->state == DL_DONE)
		snprintf(s, sizeof(s),
			 "A window of %.1f s, ended: s traces another of %g s (( ) change it)",
			 k->secs, leaks_window());
	else
		snprintf(s, sizeof(s),
			 "s traces allocations for %g s, then shows those not freed "
			 "(( ) change the window)",
			 leaks_window());
	line(l, ROLE_LABEL, s);
	if (k->state == DL_IDLE)
		line(l, ROLE_ROW_DIM,
		     "While it traces, uprobes on the process's libc slow each malloc and free");
}

static void report(struct lines *l, const struct dd_leaks *k, int32_t pid)
{
	char s[4096];
	bool utf8 = l->u->cv.utf8;

	leaks_title_text(s, sizeof(s), pid, k->comm, k->secs, k->bytes, utf8);
	line(l, ROLE_HEADER, s);
	leaks_traced_text(s, sizeof(s), k->libc, k->note, utf8);
	line(l, ROLE_LABEL, s);
	leaks_sampled_text(s, sizeof(s));
	line(l, ROLE_LABEL, s);
	leaks_seen_text(s, sizeof(s), &k->tot);
	line(l, ROLE_LABEL, s);
	leaks_lost_text(s, sizeof(s), &k->tot);
	if (s[0])
		line(l, ROLE_WARNING, s);
	if (!k->n)
		line(l, ROLE_ROW_DIM, "no allocation made in the window is outstanding");
	for (size_t i = 0; i < k->n; i++) {
		const struct dd_leak *t = &k->stacks[i];

		line(l, ROLE_ROW, "");
		leaks_stack_text(s, sizeof(s), i, &t->s, k->secs, k->bytes);
		line(l, ROLE_TABLE_HEADER, s);
		if (!t->nframes)
			line(l, ROLE_ROW_DIM, "      (no user stack)");
		for (int f = 0; f < t->nframes; f++) {
			const struct dd_frame *fr = &t->frames[f];

			leaks_frame_text(s, sizeof(s), fr->found, fr->symbol, fr->offset, fr->ip,
					 fr->module, utf8);
			line(l, ROLE_ROW, s);
		}
	}
	if (k->more) {
		line(l, ROLE_ROW, "");
		leaks_more_text(s, sizeof(s), k->more, k->more_bytes);
		line(l, ROLE_ROW_DIM, s);
	}
}

void draw_leaks(struct ui *u, int y, int rows)
{
	const struct dd_leaks *k = &v->d->leaks;
	struct lines l = {.u = u, .y = y, .rows = rows};
	char s[400];

	state_line(&l, k);
	if (k->note[0] && k->state != DL_IDLE) {
		snprintf(s, sizeof(s), "%s: only mmap and munmap are traced", k->note);
		line(&l, ROLE_WARNING, s);
	}
	if (k->state != DL_IDLE)
		report(&l, k, v->d->pid);
	v->leak_lines = l.n;
}
