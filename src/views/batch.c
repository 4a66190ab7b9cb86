#include <string.h>

#include "cells.h"
#include "cgcells.h"
#include "sysfig.h"
#include "text.h"
#include "util.h"
#include "views.h"

/* The text of a refresh, put together here and written at once */
static struct tbuf out;

/* A group's figures from the table: "Mem:  Avail 23G, Used 330M, ..." */
static void figures(struct tbuf *b, const struct model *m, enum sf_group g, const char *lead)
{
	const char *last_off = NULL;
	char v[32];

	tbuf_printf(b, "%-5s %s", sf_group_title[g], lead);
	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *fig = &sys_figures[i];

		if (fig->group != g || !fig->label)
			continue;
		if (!sys_figure_valid(fig, m)) {
			if (fig->off && (!last_off || strcmp(last_off, fig->off)))
				tbuf_printf(b, "%s%s", *lead ? ", " : "", fig->off);
			last_off = fig->off;
			lead = ", ";
			continue;
		}
		sys_figure_text(fig, m, v, sizeof(v));
		tbuf_printf(b, "%s%s %s", *lead ? ", " : "", fig->label, v);
		lead = ", ";
	}
}

/* A NUMA node's figures: "Node 0: Total 7.0G, Free 5.6G, File 844M, Anon 114M, Slab 90M" */
static void node_line(struct tbuf *b, const struct node_mem *n)
{
	char v[16];

	tbuf_printf(b, "Node %d:", n->node);
	for (int f = 0; f < NF_COUNT; f++) {
		fmt_kb(n->kb[f], v, sizeof(v));
		tbuf_printf(b, "%s %s %s", f ? "," : "", node_figures[f].label, v);
	}
	tbuf_putc(b, '\n');
}

static void header(struct tbuf *b, const struct model *m, const struct view_info *vi)
{
	const struct snapshot *s = model_current(m);
	const struct sys_rates *r = &m->rates;
	char when[16];

	fmt_clock(s->wall, when, sizeof(when));
	tbuf_printf(b, "memtop %s - %s, refresh %.1fs, %zu processes, %zu shown\n", vi->version,
		    when, vi->delay, s->ntasks, m->nrows);
	figures(b, m, SF_MEM, "");
	tbuf_putc(b, '\n');
	figures(b, m, SF_SWAP, "");
	tbuf_putc(b, '\n');
	for (size_t i = 0; i < s->nnodes; i++) /* "Node 0: Total 7.0G, Free 5.6G, ..." */
		node_line(b, &s->nodes[i]);
	char forecast[200];
	if (fmt_forecast(m, forecast, sizeof(forecast), vi->utf8))
		tbuf_printf(b, "%-5s %s\n", "Lasts:", forecast);
	if (s->cg_self.limited && s->cg_self.limit_kb) { /* memtop runs under a memory limit */
		char used[8], limit[8], path[600];
		fmt_kb(s->cg_self.usage_kb, used, sizeof(used));
		fmt_kb(s->cg_self.limit_kb, limit, sizeof(limit));
		escape_display(s->cg_self.path ? s->cg_self.path : "", path, sizeof(path),
			       vi->utf8);
		tbuf_printf(b, "%-5s Used %s, Limit %s, %.1f%%, cgroup %s\n", "Lim:", used, limit,
			    100.0 * (double)s->cg_self.usage_kb / (double)s->cg_self.limit_kb,
			    path);
	}
	figures(b, m, SF_VM, "");
	tbuf_putc(b, '\n');
	if (s->bpf.enabled) {
		figures(b, m, SF_BPF, "on");
		tbuf_printf(b, "%s%s%s\n", swapin_mode_text(&s->bpf), s->bpf.reason[0] ? "; " : "",
			    s->bpf.reason);
	} else {
		tbuf_printf(b, "%s\n", s->bpf.reason[0] ? s->bpf.reason : "BPF off");
	}
	figures(b, m, SF_SELF, "");
	tbuf_putc(b, '\n');
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
		figures(b, m, SF_RECLAIM, lead);
		tbuf_putc(b, '\n');
	}
}

/* The cells of a row, as "%s" for the last column (width 0), "%-*.*s " for text and "%*s "
 * for numbers. Each is formatted where it goes: CELL bytes, as the cells always had. */
#define CELL   1024
#define SPACES "                "
static void row(struct tbuf *b, const struct row *r, const enum col_id *shown, int n, bool utf8)
{
	for (int k = 0; k < n; k++) {
		const struct column *col = &columns[shown[k]];
		size_t w = (size_t)col->width;
		char *at = tbuf_room(b, CELL + w + 1);
		size_t len = cell_text(r, shown[k], at, CELL, utf8);
		if (w == 0) {
			b->n += len;
			continue;
		}
		/* bytes, as printf's precision and width count them; text to the left, numbers
		 * to the right. The room holds 16 bytes beyond any of these widths. */
		if (col->unit == UNIT_TEXT && w <= 16) {
			memcpy(at + (len < w ? len : w), SPACES, 16);
			len = w;
		} else if (len < w && w <= 16) {
			char t[16];
			memcpy(t, at, 16);
			memcpy(at, SPACES, 16);
			memcpy(at + (w - len), t, 16);
			len = w;
		} else if (col->unit == UNIT_TEXT) {
			len = len < w ? len : w;
			memset(at + len, ' ', w - len);
			len = w;
		} else if (len < w) {
			memmove(at + w - len, at, len);
			memset(at, ' ', w - len);
			len = w;
		}
		at[len] = ' ';
		b->n += len + 1;
	}
	tbuf_putc(b, '\n');
}

/* --cgroups: the cgroup table after the processes', in the view's order, the whole path
 * first (as wide as the widest) and the columns shown by default after it */
static void cgroup_table(struct tbuf *b, const struct cg_model *cgm, unsigned cols, bool utf8)
{
	char text[1200];
	int pw = (int)strlen(cg_columns[CGCOL_PATH].title);

	for (size_t i = 0; i < cgm->nrows; i++) {
		cg_cell_text(&cgm->rows[i], CGCOL_PATH, text, sizeof(text), utf8);
		int w = cg_text_cols(text, utf8);
		pw = w > pw ? w : pw;
	}
	tbuf_printf(b, "%-*s", pw, cg_columns[CGCOL_PATH].title);
	for (int c = 0; c < CGCOL_COUNT; c++)
		if (c != CGCOL_PATH && (cols & CGCOL_BIT(c)))
			tbuf_printf(b, " %*s", cg_columns[c].width, cg_columns[c].title);
	tbuf_putc(b, '\n');
	for (size_t i = 0; i < cgm->nrows; i++) {
		const struct cg_row *r = &cgm->rows[i];
		size_t len = cg_cell_text(r, CGCOL_PATH, text, sizeof(text), utf8);
		tbuf_put(b, text, len);
		for (int k = cg_text_cols(text, utf8); k < pw; k++)
			tbuf_putc(b, ' ');
		for (int c = 0; c < CGCOL_COUNT; c++) {
			if (c == CGCOL_PATH || !(cols & CGCOL_BIT(c)))
				continue;
			size_t w = (size_t)cg_columns[c].width;
			len = cg_cell_text(r, (enum cgcol_id)c, text, sizeof(text), utf8);
			tbuf_putc(b, ' ');
			for (size_t k = len; k < w; k++)
				tbuf_putc(b, ' ');
			tbuf_put(b, len > w ? text + len - w : text, len > w ? w : len);
		}
		tbuf_putc(b, '\n');
	}
	tbuf_putc(b, '\n');
}

void view_batch(FILE *f, const struct model *m, const struct view_info *vi)
{
	const struct snapshot *s = model_current(m);
	enum col_id shown[COL_COUNT];
	int n = 0;
	char line[512];

	header(&out, m, vi);
	for (size_t i = 0; i < s->nevents; i++) {
		if (s->events[i].type != MT_EV_OOM_KILL)
			continue;
		fmt_oom_line(&s->events[i], line, sizeof(line), vi->utf8);
		tbuf_printf(&out, "%s\n", line);
	}
	tbuf_putc(&out, '\n');
	for (int c = 0; c < COL_COUNT; c++) {
		const struct column *col = &columns[c];
		if (!(m->prefs->cols & COL_BIT(c)))
			continue;
		shown[n++] = (enum col_id)c;
		if (col->width == 0)
			tbuf_puts(&out, col->title);
		else if (col->unit == UNIT_TEXT)
			tbuf_printf(&out, "%-*s ", col->width, col->title);
		else
			tbuf_printf(&out, "%*s ", col->width, col->title);
	}
	tbuf_putc(&out, '\n');
	for (size_t i = 0; i < m->nrows; i++) {
		row(&out, m->rows[i], shown, n, vi->utf8);
		tbuf_spill(&out, f);
	}
	tbuf_putc(&out, '\n');
	if (vi->cgroups)
		cgroup_table(&out, vi->cgroups, m->prefs->cg.cols, vi->utf8);
	tbuf_write(&out, f);
}
