#include <inttypes.h>
#include <string.h>

#include "cells.h"
#include "cgcells.h"
#include "account_out.h"
#include "slab_text.h"
#include "sysfig.h"
#include "text.h"
#include "util.h"
#include "views.h"

/* The text of a refresh, put together here and written at once */
static struct tbuf out;

/* A group's figures from the table: "Mem:  Avail 23G, Used 330M, ..."; those not valid
 * are left out, or their .off shown once; "-" where none is shown */
static void figures(struct tbuf *b, const struct model *m, enum sf_group g, const char *lead)
{
	const char *last_off = NULL;
	size_t start;
	char v[32];

	tbuf_printf(b, "%-5s %s", sf_groups[g].title, lead);
	start = b->n;
	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *fig = &sys_figures[i];
		const char *sep = *lead || b->n > start ? ", " : "";

		if (fig->group != g || !fig->label)
			continue;
		if (!sys_figure_valid(fig, m)) {
			if (fig->off && (!last_off || strcmp(last_off, fig->off)))
				tbuf_printf(b, "%s%s", sep, fig->off);
			last_off = fig->off;
			continue;
		}
		sys_figure_text(fig, m, v, sizeof(v));
		tbuf_printf(b, "%s%s %s", sep, fig->label, v);
	}
	if (!*lead && b->n == start)
		tbuf_putc(b, '-');
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
	char why[VERDICT_TEXT * 4];
	escape_display(m->verdict.text, why, sizeof(why), vi->utf8);
	tbuf_printf(b, "Verdict: %s\n", why);
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
	for (enum sf_group g = SF_KERNEL; g <= SF_NUMA; g++) {
		figures(b, m, g, "");
		tbuf_putc(b, '\n');
	}
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

static size_t proc_cell(const void *rows, size_t i, int c, char *buf, size_t size, bool utf8)
{
	return cell_text(((struct row *const *)rows)[i], (enum col_id)c, buf, size, utf8);
}

static size_t cg_cell(const void *rows, size_t i, int c, char *buf, size_t size, bool utf8)
{
	return cg_cell_text(&((const struct cg_row *)rows)[i], (enum cgcol_id)c, buf, size, utf8);
}

/* A table as batch text prints it, and where the layouts of the two tables differ */
struct batch_table {
	const struct column *cols;
	int ncols;
	int first; /* a column shown first whatever the set; -1 none */
	/* Column c of row i of rows into buf (size bytes); returns strlen(buf) */
	size_t (*cell)(const void *rows, size_t i, int c, char *buf, size_t size, bool utf8);
	size_t room; /* the bytes a cell's text may take, as the cells always had */
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

/* The processes: the columns of the set, text cut to its column, the command line
 * (width 0) as long as it is */
static const struct batch_table proc_table = {.cols = columns,
					      .ncols = COL_COUNT,
					      .first = -1,
					      .cell = proc_cell,
					      .room = 1024,
					      .space_after = true};

/* --cgroups: the whole path first (as wide as the widest), the set's columns after it */
#define CG_CELL 1200
static const struct batch_table cg_table = {.cols = cg_columns,
					    .ncols = CGCOL_COUNT,
					    .first = CGCOL_PATH,
					    .cell = cg_cell,
					    .room = CG_CELL,
					    .fit = true,
					    .keep_end = true};

/* A table's rows and the columns they show, in order, and how wide */
struct shown {
	const struct batch_table *t;
	const void *rows;
	size_t nrows;
	int col[32];
	size_t width[32];
	int n;
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
static void line(struct tbuf *b, const struct shown *s, size_t i, bool utf8)
{
	const struct batch_table *t = s->t;
	bool title = i == s->nrows;

	for (int k = 0; k < s->n; k++) {
		const struct column *col = &t->cols[s->col[k]];
		size_t w = s->width[k];
		if (k && !t->space_after)
			tbuf_putc(b, ' ');
		char *at = tbuf_room(b, t->room + w + 1);
		size_t len = title ? fmt_cut(col->title, strlen(col->title), at, t->room)
				   : t->cell(s->rows, i, s->col[k], at, t->room, utf8);
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

/* The table's columns of set, their titles, the rows and a blank line */
static void table(struct tbuf *b, const struct batch_table *t, unsigned set, const void *rows,
		  size_t nrows, FILE *f, bool utf8)
{
	struct shown s = {.t = t, .rows = rows, .nrows = nrows};
	char text[CG_CELL];

	if (t->first >= 0)
		s.col[s.n++] = t->first;
	for (int c = 0; c < t->ncols; c++)
		if (c != t->first && (set & TABLE_BIT(c)))
			s.col[s.n++] = c;
	for (int k = 0; k < s.n; k++) {
		const struct column *col = &t->cols[s.col[k]];
		s.width[k] = (size_t)col->width;
		if (col->width || !t->fit)
			continue;
		s.width[k] = strlen(col->title);
		for (size_t i = 0; i < nrows; i++) {
			t->cell(rows, i, s.col[k], text, t->room, utf8);
			size_t w = (size_t)cg_text_cols(text, utf8);
			s.width[k] = w > s.width[k] ? w : s.width[k];
		}
	}
	line(b, &s, nrows, utf8);
	for (size_t i = 0; i < nrows; i++) {
		line(b, &s, i, utf8);
		tbuf_spill(b, f);
	}
	tbuf_putc(b, '\n');
}

/* The processes that exited over the last minute, newest first; nothing when none */
static void exited(struct tbuf *b, const struct exited_list *x, bool utf8)
{
	char line[512];

	if (!x->n)
		return;
	tbuf_printf(b, "Exited: %zu in the last minute\n", x->n);
	for (size_t i = x->n; i-- > 0;) {
		fmt_exited_line(&x->p[i], line, sizeof(line), utf8);
		tbuf_printf(b, "  %s\n", line);
	}
	tbuf_putc(b, '\n');
}

/* The totals per user, as smem -u: a table, the largest PSS first */
static void users(struct tbuf *b, const struct user_totals *t, bool utf8)
{
	char name[256], cell[64], kb[4][16];

	tbuf_puts(b, "USER       COUNT  SWAP   USS   PSS   RSS\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct user_total *u = &t->u[i];
		escape_display(u->name ? u->name : "", name, sizeof(name), utf8);
		fmt_cut(name, strlen(name), cell, 9);
		for (int c = USERCOL_SWAP; c <= USERCOL_RSS; c++)
			fmt_kb(u->v[c], kb[c - USERCOL_SWAP], sizeof(kb[0]));
		tbuf_printf(b, "%-8s %7" PRIu64 " %5s %5s %5s %5s\n", cell, u->v[USERCOL_NPROCS],
			    kb[0], kb[1], kb[2], kb[3]);
	}
	tbuf_putc(b, '\n');
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
	table(&out, &proc_table, m->prefs->cols, m->rows, m->nrows, f, vi->utf8);
	exited(&out, &m->exited, vi->utf8);
	if (vi->users)
		users(&out, vi->users, vi->utf8);
	if (vi->cgroups)
		table(&out, &cg_table, m->prefs->cg.cols, vi->cgroups->rows, vi->cgroups->nrows, f,
		      vi->utf8);
	if (vi->slab)
		slab_text(&out, vi->slab, vi->utf8);
	if (vi->account)
		account_text(&out, vi->account, vi->utf8);
	tbuf_write(&out, f);
}
