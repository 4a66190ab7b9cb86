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

/* The bytes a cell's text may take in each table, as the cells always had */
#define PROC_CELL 1024
#define CG_CELL	  1200

/* A table as batch text prints it: the columns shown, in order, and each row's cells */
struct batch_table {
	const struct column *cols;
	const int *shown;
	int n;
	const void *rows;
	size_t nrows;
	/* Column c of row i into buf (size bytes); returns strlen(buf) */
	size_t (*cell)(const void *rows, size_t i, int c, char *buf, size_t size, bool utf8);
	/* Where the layouts of the two tables differ: */
	size_t room; /* the bytes a cell's text may take */
	/* A column of width 0 is as wide as its widest cell and its title, and widths count
	 * terminal columns (cgroups); else it takes the rest of the line and widths count
	 * bytes, as printf's do (processes) */
	bool fit;
	/* A cell longer than its column keeps its end (cgroups); else text is cut to the
	 * column and a number runs over it (processes) */
	bool keep_end;
	/* A space after each cell of a width, the last too (processes); else a space between
	 * cells (cgroups) */
	bool space_after;
};

/* What a cell longer than its column does */
enum overflow { RUN_OVER, CUT, KEEP_END };

/* Puts the len bytes of a cell at at in a column of w: text to the left, numbers to the
 * right. cols is what the cell takes in the unit that w counts; the room holds w bytes
 * beyond len. Returns the bytes the cell then takes. */
static size_t place(char *at, size_t len, size_t cols, size_t w, bool left, enum overflow over)
{
	if (cols > w) {
		if (over == RUN_OVER)
			return len;
		if (over == KEEP_END)
			memmove(at, at + len - w, w);
		return w;
	}
	size_t pad = w - cols;
	if (left) {
		memset(at + len, ' ', pad);
	} else {
		memmove(at + pad, at, len);
		memset(at, ' ', pad);
	}
	return len + pad;
}

/* A line of the table: row i's cells, or the titles where i is nrows. Each cell is
 * formatted where it goes. */
static void line(struct tbuf *b, const struct batch_table *t, const size_t *width, size_t i,
		 bool utf8)
{
	bool title = i == t->nrows;

	for (int k = 0; k < t->n; k++) {
		const struct column *col = &t->cols[t->shown[k]];
		size_t w = width[k];
		if (k && !t->space_after)
			tbuf_putc(b, ' ');
		char *at = tbuf_room(b, t->room + w + 1);
		size_t len = title ? fmt_cut(col->title, strlen(col->title), at, t->room)
				   : t->cell(t->rows, i, t->shown[k], at, t->room, utf8);
		if (w) {
			bool text = col->unit == UNIT_TEXT;
			enum overflow over = title	   ? RUN_OVER
					     : t->keep_end ? KEEP_END
					     : text	   ? CUT
							   : RUN_OVER;
			size_t cols = t->fit ? (size_t)cg_text_cols(at, utf8) : len;
			len = place(at, len, cols, w, text, over);
		}
		b->n += len;
		if (w && t->space_after)
			tbuf_putc(b, ' ');
	}
	tbuf_putc(b, '\n');
}

/* The titles, the rows and a blank line */
static void table(struct tbuf *b, const struct batch_table *t, FILE *f, bool utf8)
{
	size_t width[32];
	char text[CG_CELL];

	for (int k = 0; k < t->n; k++) {
		const struct column *col = &t->cols[t->shown[k]];
		width[k] = (size_t)col->width;
		if (col->width || !t->fit)
			continue;
		width[k] = strlen(col->title);
		for (size_t i = 0; i < t->nrows; i++) {
			t->cell(t->rows, i, t->shown[k], text, t->room, utf8);
			size_t w = (size_t)cg_text_cols(text, utf8);
			width[k] = w > width[k] ? w : width[k];
		}
	}
	line(b, t, width, t->nrows, utf8);
	for (size_t i = 0; i < t->nrows; i++) {
		line(b, t, width, i, utf8);
		tbuf_spill(b, f);
	}
	tbuf_putc(b, '\n');
}

static size_t proc_cell(const void *rows, size_t i, int c, char *buf, size_t size, bool utf8)
{
	return cell_text(((struct row *const *)rows)[i], (enum col_id)c, buf, size, utf8);
}

static size_t cg_cell(const void *rows, size_t i, int c, char *buf, size_t size, bool utf8)
{
	return cg_cell_text(&((const struct cg_row *)rows)[i], (enum cgcol_id)c, buf, size, utf8);
}

/* The process table: the columns of the set, text cut to its column, the command line
 * (width 0) as long as it is */
static void process_table(struct tbuf *b, const struct model *m, FILE *f, bool utf8)
{
	int shown[COL_COUNT], n = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if (m->prefs->cols & COL_BIT(c))
			shown[n++] = c;
	table(b,
	      &(struct batch_table){.cols = columns,
				    .shown = shown,
				    .n = n,
				    .rows = m->rows,
				    .nrows = m->nrows,
				    .cell = proc_cell,
				    .room = PROC_CELL,
				    .space_after = true},
	      f, utf8);
}

/* --cgroups: the cgroup table after the processes', in the view's order, the whole path
 * first (as wide as the widest) and the columns shown by default after it */
static void cgroup_table(struct tbuf *b, const struct cg_model *cgm, unsigned cols, FILE *f,
			 bool utf8)
{
	int shown[CGCOL_COUNT] = {CGCOL_PATH}, n = 1;

	for (int c = 0; c < CGCOL_COUNT; c++)
		if (c != CGCOL_PATH && (cols & CGCOL_BIT(c)))
			shown[n++] = c;
	table(b,
	      &(struct batch_table){.cols = cg_columns,
				    .shown = shown,
				    .n = n,
				    .rows = cgm->rows,
				    .nrows = cgm->nrows,
				    .cell = cg_cell,
				    .room = CG_CELL,
				    .fit = true,
				    .keep_end = true},
	      f, utf8);
}

void view_batch(FILE *f, const struct model *m, const struct view_info *vi)
{
	const struct snapshot *s = model_current(m);
	char oom[512];

	header(&out, m, vi);
	for (size_t i = 0; i < s->nevents; i++) {
		if (s->events[i].type != MT_EV_OOM_KILL)
			continue;
		fmt_oom_line(&s->events[i], oom, sizeof(oom), vi->utf8);
		tbuf_printf(&out, "%s\n", oom);
	}
	tbuf_putc(&out, '\n');
	process_table(&out, m, f, vi->utf8);
	if (vi->cgroups)
		cgroup_table(&out, vi->cgroups, m->prefs->cg.cols, f, vi->utf8);
	tbuf_write(&out, f);
}
