/* Text of one table cell, shared by the screen and the batch view. */
#ifndef MEMTOP_CELLS_H
#define MEMTOP_CELLS_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "text.h"

/* The COMMAND cell: the tree's lines, then the escaped command line (at most 1023
 * bytes of it, cut at a character). In width columns (< 0: no limit) the lines leave the
 * command 8 columns at least, and a command that does not fit is cmd_brief's (its
 * program's and an interpreter's script's directories dropped). Returns strlen(buf). */
size_t cmd_cell(const struct row *r, char *buf, size_t size, bool utf8, int width);

/* A number as a cell shows it in its unit: sizes in human units, rates, shares, ids.
 * Process and cgroup cells alike. */
static inline size_t number_cell(double v, enum col_unit unit, char *buf, size_t size)
{
	switch (unit) {
	case UNIT_ID:
		return fmt_fixed(v, 0, buf, size);
	case UNIT_KB:
		return fmt_kb(u64_held(v), buf, size);
	case UNIT_PCT:
		return fmt_fixed(v, v >= 99.95 ? 0 : 1, buf, size);
	case UNIT_RATE:
	case UNIT_US_RATE:
		return fmt_rate(v, buf, size);
	case UNIT_KB_MIN:
		return fmt_skb(v, buf, size);
	case UNIT_SECS:
		return fmt_secs(v, buf, size);
	case UNIT_TEXT:
		break;
	}
	return fmt_cut("", 0, buf, size);
}

/* Formats column c of a table's row r into buf: sizes in human units, rates, escaped
 * text, "max" for no limit; "-" where the row has no value of it (its collector is off).
 * Returns strlen(buf). Inline: it runs for every cell of every process in batch text. */
static inline size_t table_cell(const struct column *cols, int c, const struct table_row *r,
				char *buf, size_t size, bool utf8)
{
	const struct column *col = &cols[c];
	const char *t = table_text(col, r);

	if (t)
		return col->cell ? col->cell(t, buf, size, utf8, col->width)
				 : escape_display(t, buf, size, utf8);
	if (table_unlimited(cols, c, r))
		return fmt_cut("max", 3, buf, size);
	if (!(r->valid & TABLE_BIT(c)))
		return fmt_cut("-", 1, buf, size);
	return number_cell(table_number(cols, c, r), col->unit, buf, size);
}

/* A figure not yet known (the BPF programs still loading): "…", "..." without UTF-8.
 * Returns strlen(buf). */
static inline size_t unknown_cell(char *buf, size_t size, bool utf8)
{
	return utf8 ? fmt_cut("\xe2\x80\xa6", 3, buf, size) : fmt_cut("...", 3, buf, size);
}

/* A process's cell: table_cell, the COMMAND cell with the tree's lines */
static inline size_t cell_text(const struct row *r, enum col_id c, char *buf, size_t size,
			       bool utf8)
{
	struct table_row v = proc_row_view(r);

	if (c == COL_CMD)
		return cmd_cell(r, buf, size, utf8, -1);
	return table_cell(columns, c, &v, buf, size, utf8);
}

/* The tree view's lines before a row's command ("│  └─ "), depth 0 none, in at most
 * max_cols columns (< 0: no limit): deep rows lose their leftmost levels first. A folded
 * row's ends in + ("│  └+ ", a root's "+ "), as htop marks it. Returns the columns used. */
int tree_prefix(const struct row *r, char *buf, size_t size, bool utf8, int max_cols);

/* ", swap-ins counted at the block layer" or ", swap-ins counted per fault" (what the swap-in
 * counter costs), or
 * "" while nothing counts them, for the BPF status lines. */
const char *swapin_mode_text(const struct bpf_state *b);

/* "12:34:56" local time of a wall-clock timestamp. */
void fmt_clock(double wall, char *buf, size_t size);

/* The forecast that runs out first (model.h forecast), escaped: "memory lasts ~12 min at
 * this rate; next OOM victim: 1234 (Main)", "/uxleak reaches its 300M limit in ~35 s;
 * victim 21505 (grow.py)" (the victim's short name, procname.h), with "(as of 8 s ago)" while kept,
 * "memory steady now" after;
 * "" (returns 0) when none */
size_t fmt_forecast(const struct model *m, char *buf, size_t size, bool utf8);

/* An exited process (exited.h) as a line: "12:13:22 pid 123 (name) root, last RSS 9.6M",
 * escaped */
struct exited_proc;
void fmt_exited_line(const struct exited_proc *e, char *buf, size_t size, bool utf8);
/* One line describing an OOM kill, escaped, for the screen and batch text. */
void fmt_oom_line(const struct mt_event *e, char *buf, size_t size, bool utf8);
/* The same with the victim named name (raw): its short name (oom_victim_name) */
void fmt_oom_line_named(const struct mt_event *e, const char *name, char *buf, size_t size,
			bool utf8);

#endif
