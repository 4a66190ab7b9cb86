/* The exited processes' pane (X): those of the model's list (exited.h), gone over the
 * last minute, newest first, a line each with the time it was found gone, its pid, name,
 * user and RSS at the last refresh that saw it. */
#include <stdio.h>

#include "canvas.h"
#include "cells.h"
#include "pane_screen.h"
#include "text.h"

#define EXITED_KEYS "Esc/q/X back  Up/Down/PgUp/PgDn scroll"

const struct binding exited_keys[] = PANE_SCREEN_KEYS('X', "Esc q X", "back to the table");

void exited_draw(struct ui *u)
{
	static struct pane p;
	const struct exited_list *x = &u->m->exited;
	char when[16], comm[MT_COMM_LEN * 10 + 1], user[sizeof(x->p->user) * 10], rss[16];

	p.n = 0;
	pane_add(&p, ROLE_LABEL,
		 "%zu processes exited in the last %.0f s (kept as long), newest first", x->n,
		 EXITED_KEEP_S);
	pane_add(&p, ROLE_TABLE_HEADER, "%-8s %7s %-15s %-12s %8s", "TIME", "PID", "NAME", "USER",
		 "LAST RSS");
	if (!x->n)
		pane_add(&p, ROLE_ROW_DIM, "no process exited");
	for (size_t i = x->n; i-- > 0 && p.n < PANE_LINES;) {
		const struct exited_proc *e = &x->p[i];
		fmt_clock(e->ts, when, sizeof(when));
		escape_display(e->comm, comm, sizeof(comm), u->cv.utf8);
		escape_display(e->user, user, sizeof(user), u->cv.utf8);
		fmt_kb(e->last_rss_kb, rss, sizeof(rss));
		pane_add(&p, ROLE_ROW, "%-8s %7d %-15.15s %-12.12s %8s", when, e->pid, comm, user,
			 rss);
	}
	pane_show(&u->cv, "Exited processes", &p, &exited_state.top, EXITED_KEYS);
}
