#include <string.h>

#include "cells.h"
#include "sysfig.h"
#include "text.h"
#include "views.h"

/* A group's figures from the table: "Mem:  Avail 23G, Used 330M, ..." */
static void figures(FILE *f, const struct model *m, enum sf_group g, const char *lead)
{
	const char *last_off = NULL;
	char v[32];

	fprintf(f, "%-5s %s", sf_group_title[g], lead);
	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *fig = &sys_figures[i];

		if (fig->group != g || !fig->label)
			continue;
		if (!sys_figure_valid(fig, m)) {
			if (fig->off && (!last_off || strcmp(last_off, fig->off)))
				fprintf(f, "%s%s", *lead ? ", " : "", fig->off);
			last_off = fig->off;
			lead = ", ";
			continue;
		}
		sys_figure_text(fig, m, v, sizeof(v));
		fprintf(f, "%s%s %s", *lead ? ", " : "", fig->label, v);
		lead = ", ";
	}
}

static void header(FILE *f, const struct model *m, const struct view_info *vi)
{
	const struct snapshot *s = model_current(m);
	const struct sys_rates *r = &m->rates;
	char when[16];

	fmt_clock(s->wall, when, sizeof(when));
	fprintf(f, "memtop %s - %s, refresh %.1fs, %zu processes, %zu shown\n", vi->version, when,
		vi->delay, s->ntasks, m->nrows);
	figures(f, m, SF_MEM, "");
	fputc('\n', f);
	figures(f, m, SF_SWAP, "");
	fputc('\n', f);
	figures(f, m, SF_VM, "");
	fputc('\n', f);
	if (s->bpf.enabled) {
		figures(f, m, SF_BPF, "on");
		fprintf(f, "%s%s%s\n", swapin_mode_text(&s->bpf), s->bpf.reason[0] ? "; " : "",
			s->bpf.reason);
	} else {
		fprintf(f, "%s\n", s->bpf.reason[0] ? s->bpf.reason : "BPF off");
	}
	figures(f, m, SF_SELF, "");
	fputc('\n', f);
	if (s->bpf.have_reclaim) {
		const struct reclaim_stats *rc = &r->reclaim;
		char lead[200];
		snprintf(lead, sizeof(lead),
			 "direct %llu in %lluus, memcg %llu in %lluus, shrink_slab %llu in %lluus",
			 (unsigned long long)rc->direct.count,
			 (unsigned long long)rc->direct.total_us,
			 (unsigned long long)rc->memcg.count,
			 (unsigned long long)rc->memcg.total_us,
			 (unsigned long long)rc->shrink_slab.count,
			 (unsigned long long)rc->shrink_slab.total_us);
		figures(f, m, SF_RECLAIM, lead);
		fputc('\n', f);
	}
}

void view_batch(FILE *f, const struct model *m, const struct view_info *vi)
{
	const struct snapshot *s = model_current(m);
	char line[512];
	header(f, m, vi);
	for (size_t i = 0; i < s->nevents; i++) {
		if (s->events[i].type != MT_EV_OOM_KILL)
			continue;
		fmt_oom_line(&s->events[i], line, sizeof(line), vi->utf8);
		fprintf(f, "%s\n", line);
	}
	fputc('\n', f);
	for (int c = 0; c < COL_COUNT; c++) {
		const struct column *col = &columns[c];
		if (!(m->prefs->cols & COL_BIT(c)))
			continue;
		if (col->width == 0)
			fprintf(f, "%s", col->title);
		else if (col->unit == UNIT_TEXT)
			fprintf(f, "%-*s ", col->width, col->title);
		else
			fprintf(f, "%*s ", col->width, col->title);
	}
	fputc('\n', f);
	for (size_t i = 0; i < m->nrows; i++) {
		for (int c = 0; c < COL_COUNT; c++) {
			const struct column *col = &columns[c];
			char cell[1024];
			if (!(m->prefs->cols & COL_BIT(c)))
				continue;
			cell_text(&m->rows[i], (enum col_id)c, cell, sizeof(cell), vi->utf8);
			if (col->width == 0)
				fprintf(f, "%s", cell);
			else if (col->unit == UNIT_TEXT)
				fprintf(f, "%-*.*s ", col->width, col->width, cell);
			else
				fprintf(f, "%*s ", col->width, cell);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	fflush(f);
}
