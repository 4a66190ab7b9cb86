#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cells.h"
#include "sysfig.h"
#include "text.h"
#include "draw_header.h"

/* From this many lines, a header line that does not fit wraps onto a second one instead of
 * leaving figures out */
#define HEADER_WRAP_ROWS 30

static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};

void meter(struct ui *u, int y, const char *label, const struct segment *seg, int nseg,
	   uint64_t total, const char *text)
{
	int x = 0, w = u->cv.cols;
	put_text(&u->cv, y, x, w, ROLE_LABEL, label, false);
	x += (int)strlen(label);
	put_text(&u->cv, y, x++, 1, ROLE_METER_FRAME, "[", false);
	int inner = w - x - 1, tlen = (int)strlen(text);
	if (inner < 1)
		return;
	double cells = 0;
	int drawn = 0;
	for (int i = 0; i < nseg && total; i++) {
		cells += (double)seg[i].value / (double)total * inner;
		int upto = (int)cells;
		if (upto > inner)
			upto = inner;
		attrset(theme_attr(u->cv.theme, seg[i].role));
		for (; drawn < upto; drawn++) {
			move(y, x + drawn);
			if (u->cv.utf8)
				addstr(seg[i].glyph_utf8);
			else
				addch((chtype)seg[i].glyph_ascii);
		}
		int eighth = (int)((cells - upto) * 8);
		if (i == nseg - 1 && u->cv.utf8 && eighth > 0 && drawn < inner) {
			move(y, x + drawn++);
			addstr(eighths[eighth]);
		}
	}
	attrset(A_NORMAL);
	if (tlen <= inner)
		put_text(&u->cv, y, x + inner - tlen, tlen, ROLE_VALUE, text, false);
	put_text(&u->cv, y, x + inner, 1, ROLE_METER_FRAME, "]", false);
}

/* The Lim meter: memtop runs in a memory cgroup whose limit (its own or an ancestor's)
 * is below RAM */
static bool lim_shown(const struct snapshot *s)
{
	return s && s->cg_self.limited && s->cg_self.limit_kb;
}

/* Mem, Lim where memtop's cgroup is limited, Swp; returns the lines used */
static int meters(struct ui *u, const struct snapshot *s)
{
	int y = 1;
	struct mem_split ms;
	char a[8], b[8], text[32];
	mem_split(s->mem, &ms);
	const struct segment mem[] = {
		{ms.used_kb, ROLE_METER_USED, "█", '|'},
		{ms.buffers_kb, ROLE_METER_BUFFERS, "▓", '#'},
		{ms.cache_kb, ROLE_METER_CACHE, "░", '.'},
	};
	fmt_kb(ms.used_kb, a, sizeof(a));
	fmt_kb(s->mem[MI_MEM_TOTAL], b, sizeof(b));
	snprintf(text, sizeof(text), "%s/%s", a, b);
	meter(u, 0, "Mem", mem, 3, s->mem[MI_MEM_TOTAL], text);
	if (lim_shown(s)) {
		const struct segment lim[] = {{s->cg_self.usage_kb, ROLE_METER_USED, "█", '|'}};
		fmt_kb(s->cg_self.usage_kb, a, sizeof(a));
		fmt_kb(s->cg_self.limit_kb, b, sizeof(b));
		snprintf(text, sizeof(text), "%s/%s", a, b);
		meter(u, y++, "Lim", lim, 1, s->cg_self.limit_kb, text);
	}
	const struct segment swp[] = {{ms.swap_used_kb, ROLE_METER_SWAP, "█", '|'}};
	fmt_kb(ms.swap_used_kb, a, sizeof(a));
	fmt_kb(s->mem[MI_SWAP_TOTAL], b, sizeof(b));
	snprintf(text, sizeof(text), "%s/%s", a, b);
	if (!s->mem[MI_SWAP_TOTAL]) /* rather than 0K/0K */
		snprintf(text, sizeof(text), "no swap");
	meter(u, y++, "Swp", swp, 1, s->mem[MI_SWAP_TOTAL], text);
	return y;
}

/* One header line's figures, from the system figure table: "label value" items, or a
 * dimmed text where a figure is off ("PSI off", once) */
struct item {
	const char *label;
	char value[32];
	bool off;
	int drop;
	int row; /* the line it goes on, -1: left out */
};

/* A rate of the first refresh, which spans the time since boot (or the process's life):
 * shown as "-" until the second refresh gives one over an interval, as JSON's
 * rate_since_s says of it */
static bool first_rate(enum sf_unit unit, const struct model *m)
{
	return (unit == SF_RATE || unit == SF_NS_RATE) && !model_previous(m);
}

static int items_of(const struct model *m, enum sf_group g, struct item *it)
{
	const char *last_off = NULL;
	int n = 0;

	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *f = &sys_figures[i];
		struct item *t = &it[n];

		if (f->group != g || !f->header)
			continue;
		if (sys_figure_valid(f, m)) {
			*t = (struct item){.label = f->label, .drop = f->drop};
			sys_figure_text(f, m, t->value, sizeof(t->value));
			if (first_rate(f->unit, m)) /* since boot: no rate yet */
				snprintf(t->value, sizeof(t->value), "-");
			n++;
		} else if (f->off && (!last_off || strcmp(last_off, f->off))) {
			*t = (struct item){.label = f->off, .off = true, .drop = f->drop};
			n++;
		}
		if (!sys_figure_valid(f, m))
			last_off = f->off;
	}
	return n;
}

static int item_width(const struct item *t)
{
	return (int)strlen(t->label) + (t->off ? 2 : (int)strlen(t->value) + 3);
}

/* Places the items on lines of the canvas's width: on max_lines lines (-1: one, or two
 * where the screen is tall); what does not fit leaves out the items a person needs least
 * (highest drop). Returns the lines used. */
static int place(const struct canvas *cv, struct item *it, int n, int max_lines)
{
	if (max_lines < 0)
		max_lines = cv->rows >= HEADER_WRAP_ROWS ? 2 : 1;
	for (int i = 0; i < n; i++)
		it[i].row = 0;
	for (;;) {
		int line = 0, x = 0, worst = -1;
		for (int i = 0; i < n; i++) {
			if (it[i].row < 0)
				continue;
			int w = item_width(&it[i]);
			if (x && x + w - 2 > cv->cols) {
				line++;
				x = 0;
			}
			it[i].row = line;
			x += w;
		}
		if (line < max_lines)
			return n ? line + 1 : 0;
		for (int i = 0; i < n; i++)
			if (it[i].row >= 0 && it[i].drop &&
			    (worst < 0 || it[i].drop >= it[worst].drop))
				worst = i;
		if (worst < 0)
			return max_lines; /* the rest is cut at the edge */
		it[worst].row = -1;
	}
}

/* Draws a group's figures from line y on max_lines lines at most (-1: as many as the
 * screen's height gives them); returns the lines used */
static int figure_lines(const struct ui *u, enum sf_group g, int y, int max_lines, bool draw)
{
	struct item it[32];

	if (!max_lines)
		return 0;
	int n = items_of(u->m, g, it), lines = place(&u->cv, it, n, max_lines), x = 0, row = 0;

	for (int i = 0; draw && i < n; i++) {
		if (it[i].row < 0)
			continue;
		if (it[i].row != row) {
			row = it[i].row;
			x = 0;
		}
		if (it[i].off) {
			put_text(&u->cv, y + row, x, u->cv.cols - x, ROLE_ROW_DIM, it[i].label,
				 false);
			x += item_width(&it[i]);
		} else {
			x = put_pair(&u->cv, y + row, x, it[i].label, it[i].value);
		}
	}
	return lines;
}

/* The BPF status, then memtop's own figures (the header's figures of SF_SELF): where both
 * do not fit, the figures needed least go first, then the status is cut short of the rest,
 * which stand at the right end */
static void bpf_line(struct ui *u, const struct snapshot *s, int y)
{
	char line[256];
	enum role role = ROLE_WARNING;
	if (s->bpf.enabled) {
		char drops[48] = "";
		if (s->bpf.ring_drops)
			snprintf(drops, sizeof(drops), ", %llu EVENTS DROPPED",
				 (unsigned long long)s->bpf.ring_drops);
		snprintf(line, sizeof(line), "BPF on: %d programs, %llu OOM kills seen%s%s%s%s",
			 s->bpf.programs, (unsigned long long)s->bpf.oom_kills,
			 swapin_mode_text(&s->bpf), drops, s->bpf.reason[0] ? "; " : "",
			 s->bpf.reason);
		if (!s->bpf.reason[0] && !s->bpf.ring_drops)
			role = ROLE_LABEL;
	} else if (s->bpf.loading) {
		snprintf(line, sizeof(line), "BPF loading%s", u->cv.utf8 ? "\xe2\x80\xa6" : "...");
		role = ROLE_LABEL;
	} else {
		snprintf(line, sizeof(line), "%s", s->bpf.reason[0] ? s->bpf.reason : "BPF off");
	}
	struct item it[32];
	struct canvas room = u->cv;
	int n = items_of(u->m, SF_SELF, it), len = (int)strlen(line), w = -2;
	room.rows = 0; /* one line */
	room.cols = u->cv.cols - len - 2;
	place(&room, it, n, -1);
	for (int i = 0; i < n; i++)
		w += it[i].row >= 0 ? item_width(&it[i]) : 0;
	int x = len + 2 + w <= u->cv.cols ? len + 2 : u->cv.cols - w;
	if (x < 0)
		x = 0;
	if (w < 0 || x > 2)
		put_words(&u->cv, y, 0, w < 0 ? u->cv.cols : x - 2, role, line, false);
	for (int i = 0; i < n; i++) {
		if (it[i].row < 0)
			continue;
		if (it[i].off) {
			put_text(&u->cv, y, x, u->cv.cols - x, ROLE_ROW_DIM, it[i].label, false);
			x += item_width(&it[i]);
		} else {
			x = put_pair(&u->cv, y, x, it[i].label, it[i].value);
		}
	}
}

/* The forecast: memory runs out within the hour at the rate it shrank */
static bool forecast_shown(const struct model *m)
{
	char line[8];

	return fmt_forecast(m, line, sizeof(line), false) > 0;
}

static void forecast_line(struct ui *u, int y)
{
	char line[256];

	fmt_forecast(u->m, line, sizeof(line), u->cv.utf8);
	put_text(&u->cv, y, 0, u->cv.cols, ROLE_ALERT, line, true);
}

static void verdict_line(struct ui *u, int y)
{
	char why[VERDICT_TEXT * 4];
	const struct verdict *v = &u->m->verdict;

	escape_display(v->text, why, sizeof(why), u->cv.utf8);
	put_text(&u->cv, y, 0, u->cv.cols, ROLE_LABEL, "Verdict", false);
	if (u->cv.cols > 8) /* cut to the screen's width */
		put_text(&u->cv, y, 8, u->cv.cols - 8,
			 v->cause == VERDICT_NONE ? ROLE_VALUE : ROLE_ALERT, why, true);
}

/* The header's rows, decided by a fixed priority so that the table does not move as the
 * verdict's causes and the forecasts come and go: the meters, the status line and the BPF
 * line (or the OOM banner) always; then the verdict when it names a cause (verdict.h), the
 * forecast, and the verdict that nothing is wrong (from VERDICT_IDLE_ROWS lines, where
 * the header keeps it a line of its own); the figure lines fill the rest of the rows the
 * header has without them. A verdict or a forecast takes the row of a figure line: the
 * activity line's second, the memory line's second, then the activity line; the memory
 * line's first stays. From VERDICT_ROWS lines the header has a row of its own for them
 * besides, so that both show (while neither needs it, a blank row under the header); below, one of
 * the two at most: the verdict's cause before the forecast. */
#define VERDICT_ROWS	  30
#define VERDICT_IDLE_ROWS 50
struct header_plan {
	int mem, vm;   /* the figure lines' rows */
	bool forecast; /* the forecast's line */
	bool verdict;  /* the verdict's line */
	int blank;     /* the header's own row, unused */
};

static void plan(const struct ui *u, struct header_plan *p)
{
	bool cause = u->m->verdict.cause != VERDICT_NONE, idle = u->cv.rows >= VERDICT_IDLE_ROWS;
	int most = u->cv.rows >= VERDICT_ROWS ? 2 : 1, own = most - 1 + idle;
	int mem = figure_lines(u, SF_MEM, 0, -1, false), vm = figure_lines(u, SF_VM, 0, -1, false);
	int room = mem + vm - (mem > 0) + own, used = 0; /* the memory line stays */

	*p = (struct header_plan){0};
	if ((cause || idle) && used < most && used < room) { /* the verdict first */
		p->verdict = true;
		used++;
	}
	if (forecast_shown(u->m) && used < most && used < room) {
		p->forecast = true;
		used++;
	}
	p->blank = used < own ? own - used : 0;
	for (int give = used - own; give > 0; give--) { /* the figure lines give up rows */
		if (vm > 1)
			vm--;
		else if (mem > 1)
			mem--;
		else
			vm--;
	}
	p->mem = mem;
	p->vm = vm;
}

int header_rows(const struct ui *u)
{
	struct header_plan p;

	if (!model_current(u->m))
		return 6;
	plan(u, &p);
	return 2 + lim_shown(model_current(u->m)) + p.mem + p.vm + p.forecast + p.verdict +
	       p.blank + 2;
}

void draw_header(struct ui *u)
{
	const struct snapshot *s = model_current(u->m);
	struct header_plan p;

	if (!s)
		return;
	plan(u, &p);
	int y = meters(u, s);
	y += figure_lines(u, SF_MEM, y, p.mem, true);
	y += figure_lines(u, SF_VM, y, p.vm, true);
	if (p.forecast)
		forecast_line(u, y++);
	if (p.verdict)
		verdict_line(u, y++);
	status_line(u, s, y++);
	if (u->m->oom_live > u->oom_acked)
		oom_banner(u, y);
	else
		bpf_line(u, s, y);
}
