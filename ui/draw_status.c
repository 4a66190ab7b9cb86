/* The header's status line: what the table shows (the processes' count, sort, filter,
 * refresh, leak suspects; or the cgroups'), a replay's sample or the pause, the clock. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cells.h"
#include "draw_header.h"
#include "slab.h"
#include "slabcolumns.h"
#include "text.h"

/* The status line's room before the clock */
static int status_room(const struct ui *u)
{
	return u->cv.cols - 10;
}

/* "label value" at y, x where the whole of it fits before room, else nothing */
static int status_pair(const struct ui *u, int y, int x, int room, const char *label,
		       const char *value)
{
	int w = text_cols(label, u->cv.utf8) + 1 + text_cols(value, u->cv.utf8);

	return x + w <= room ? put_pair(&u->cv, y, x, label, value) : x;
}

/* The cgroup view's: how many, the sort, the hierarchy's version */
static int cgroup_status(struct ui *u, const struct snapshot *s, int y, int room)
{
	const struct cg_prefs *p = &u->prefs->cg;
	char a[48], b[16], sort[48], v[8];
	snprintf(a, sizeof(a), "%zu, %zu shown", u->cgm ? u->cgm->nall : 0,
		 u->cgm ? u->cgm->nrows : 0);
	snprintf(b, sizeof(b), "%.1fs", u->prefs->delay);
	snprintf(sort, sizeof(sort), "%s %s%s", cg_columns[p->sort].title,
		 (cg_columns[p->sort].ascending != p->invert) ? "asc" : "desc",
		 p->tree ? ", tree" : "");
	snprintf(v, sizeof(v), "v%d", s->cg_version);
	int x = status_pair(u, y, 0, room, "Cgroups", a);
	x = status_pair(u, y, x, room, "Sort", sort);
	x = status_pair(u, y, x, room, "Refresh", b);
	return s->cg_version ? status_pair(u, y, x, room, "Hierarchy", v) : x;
}

/* The slab screen's: how many caches, its sort */
static int slab_status(struct ui *u, int y, int room)
{
	const struct slab_prefs *p = &u->prefs->slab;
	char a[48], b[16], sort[48];

	snprintf(a, sizeof(a), "%zu, %zu shown", u->m->slab.n, slab_shown());
	snprintf(b, sizeof(b), "%.1fs", u->prefs->delay);
	snprintf(sort, sizeof(sort), "%s %s", slab_columns[p->sort].title,
		 (slab_columns[p->sort].ascending != p->invert) ? "asc" : "desc");
	int x = status_pair(u, y, 0, room, "Slab caches", a);
	x = status_pair(u, y, x, room, "Sort", sort);
	return status_pair(u, y, x, room, "Refresh", b);
}

/* The processes whose GROW cells are red, leak suspects (their RSS + swap grew steadily
 * over ten minutes), said in words: "Leak suspect 171 python3", or how many */
static int leak_pair(struct ui *u, int y, int x, int room)
{
	const struct row *first = NULL;
	size_t n = 0;
	char value[96], comm[64];

	for (size_t i = 0; i < u->m->nall; i++)
		if (u->m->all[i].leak && !n++)
			first = &u->m->all[i];
	if (!n)
		return x;
	if (n > 1) {
		snprintf(value, sizeof(value), "%zu (GROW in red)", n);
		return status_pair(u, y, x, room, "Leak suspects", value);
	}
	escape_display(first->p->comm, comm, sizeof(comm), u->cv.utf8);
	snprintf(value, sizeof(value), "%d %s", first->p->pid, comm);
	return status_pair(u, y, x, room, "Leak suspect", value);
}

void status_line(struct ui *u, const struct snapshot *s, int y)
{
	char a[48], b[16], sort[32], when[16], mark[64] = "";
	int x;
	if (u->rv.on) { /* a replay: which sample, and its day */
		char day[16];
		time_t t = (time_t)wall_held(s->wall);
		struct tm tm;
		localtime_r(&t, &tm);
		strftime(day, sizeof(day), "%Y-%m-%d", &tm);
		snprintf(mark, sizeof(mark), "REPLAY %zu/%zu %s", u->rv.pos + 1, u->rv.count, day);
	} else if (u->paused) {
		snprintf(mark, sizeof(mark), "PAUSED");
	}
	/* the pairs leave the mark its room */
	int room = status_room(u) - (mark[0] ? (int)strlen(mark) : 0);
	if (u->screen == SCREEN_CGROUPS) {
		x = cgroup_status(u, s, y, room);
	} else if (u->screen == SCREEN_SLAB) {
		x = slab_status(u, y, room);
	} else {
		snprintf(a, sizeof(a), "%zu, %zu shown", s->ntasks, u->m->nrows);
		snprintf(b, sizeof(b), "%.1fs", u->prefs->delay);
		snprintf(sort, sizeof(sort), "%s %s%s", columns[u->prefs->sort].title,
			 (columns[u->prefs->sort].ascending != u->prefs->invert) ? "asc" : "desc",
			 u->prefs->tree ? ", tree" : "");
		x = status_pair(u, y, 0, room, "Tasks", a);
		x = status_pair(u, y, x, room, "Sort", sort);
		x = leak_pair(u, y, x, room);
		if (u->prefs->filter.cgroup[0]) { /* Enter on the cgroup view, or --cgroup */
			char esc[200];
			escape_display(u->prefs->filter.cgroup, esc, sizeof(esc), u->cv.utf8);
			x = status_pair(u, y, x, room, "Cgroup", esc);
		}
		x = status_pair(u, y, x, room, "Refresh", b);
		if (u->m->exited.n) { /* over the last minute, as atop's #exit */
			char n[24];
			snprintf(n, sizeof(n), "%zu", u->m->exited.n);
			x = status_pair(u, y, x, room, "Exited", n);
		}
	}
	if (mark[0])
		put_words(&u->cv, y, x, status_room(u) - x, ROLE_ALERT, mark, false);
	fmt_clock(s->wall, when, sizeof(when));
	int w = (int)strlen(when);
	put_text(&u->cv, y, u->cv.cols - w, w, ROLE_HEADER, when, false);
}
