#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "text.h"
#include "tui_int.h"

struct segment {
	uint64_t value;
	enum role role;
	const char *glyph_utf8; /* full cell */
	char glyph_ascii;
};

static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};

/* A meter like htop's: label[bar   text], segments stacked left to right. */
static void meter(struct tui *t, int y, const char *label, const struct segment *seg, int nseg,
		  uint64_t total, const char *text)
{
	int x = 0, w = t->cols;
	put_text(t, y, x, w, ROLE_LABEL, label, false);
	x += (int)strlen(label);
	put_text(t, y, x++, 1, ROLE_METER_FRAME, "[", false);
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
		attrset(theme_attr(t->theme, seg[i].role));
		for (; drawn < upto; drawn++) {
			move(y, x + drawn);
			if (t->utf8)
				addstr(seg[i].glyph_utf8);
			else
				addch((chtype)seg[i].glyph_ascii);
		}
		int eighth = (int)((cells - upto) * 8);
		if (i == nseg - 1 && t->utf8 && eighth > 0 && drawn < inner) {
			move(y, x + drawn++);
			addstr(eighths[eighth]);
		}
	}
	attrset(A_NORMAL);
	if (tlen <= inner)
		put_text(t, y, x + inner - tlen, tlen, ROLE_VALUE, text, false);
	put_text(t, y, x + inner, 1, ROLE_METER_FRAME, "]", false);
}

/* Draws "label value" pairs left to right; returns the next x. */
static int pair(struct tui *t, int y, int x, const char *label, const char *value)
{
	if (x >= t->cols)
		return x;
	put_text(t, y, x, t->cols - x, ROLE_LABEL, label, false);
	x += (int)strlen(label) + 1;
	if (x < t->cols)
		put_text(t, y, x, t->cols - x, ROLE_VALUE, value, false);
	return x + (int)strlen(value) + 2;
}

static void memory_lines(struct tui *t, const struct snapshot *s)
{
	struct mem_split ms;
	char a[8], b[8], c[8], d[8], e[8], text[32];
	mem_split(&s->mem, &ms);
	const struct segment mem[] = {
		{ms.used_kb, ROLE_METER_USED, "█", '|'},
		{ms.buffers_kb, ROLE_METER_BUFFERS, "▓", '#'},
		{ms.cache_kb, ROLE_METER_CACHE, "░", '.'},
	};
	fmt_kb(ms.used_kb, a, sizeof(a));
	fmt_kb(s->mem.mem_total_kb, b, sizeof(b));
	snprintf(text, sizeof(text), "%s/%s", a, b);
	meter(t, 0, "Mem", mem, 3, s->mem.mem_total_kb, text);
	const struct segment swp[] = {{ms.swap_used_kb, ROLE_METER_SWAP, "█", '|'}};
	fmt_kb(ms.swap_used_kb, a, sizeof(a));
	fmt_kb(s->mem.swap_total_kb, b, sizeof(b));
	snprintf(text, sizeof(text), "%s/%s", a, b);
	meter(t, 1, "Swp", swp, 1, s->mem.swap_total_kb, text);

	fmt_kb(s->mem.mem_available_kb, a, sizeof(a));
	fmt_kb(ms.used_kb, b, sizeof(b));
	fmt_kb(ms.buffers_kb, c, sizeof(c));
	fmt_kb(ms.cache_kb, d, sizeof(d));
	fmt_kb(ms.free_kb, e, sizeof(e));
	int x = pair(t, 2, 0, "Avail", a);
	x = pair(t, 2, x, "Used", b);
	x = pair(t, 2, x, "Buffers", c);
	x = pair(t, 2, x, "Cache", d);
	pair(t, 2, x, "Free", e);
}

static void activity_line(struct tui *t, const struct snapshot *s)
{
	const struct sys_rates *r = &t->m->rates;
	char a[16], b[16], c[16], d[16], psi[32];
	fmt_rate(r->pgfault, a, sizeof(a));
	fmt_rate(r->pgmajfault, b, sizeof(b));
	fmt_rate(r->pswpin, c, sizeof(c));
	fmt_rate(r->pswpout, d, sizeof(d));
	int x = pair(t, 3, 0, "Faults/s", a);
	x = pair(t, 3, x, "Major/s", b);
	x = pair(t, 3, x, "Swap-in/s", c);
	x = pair(t, 3, x, "Swap-out/s", d);
	if (s->psi.present) {
		snprintf(psi, sizeof(psi), "some %.2f full %.2f", s->psi.some_avg10,
			 s->psi.full_avg10);
		pair(t, 3, x, "PSI", psi);
	} else {
		put_text(t, 3, x, t->cols - x, ROLE_ROW_DIM, "PSI off", false);
	}
}

static void status_line(struct tui *t, const struct snapshot *s)
{
	char a[48], b[16], sort[32], when[16];
	snprintf(a, sizeof(a), "%zu, %zu shown", s->ntasks, t->m->nrows);
	snprintf(b, sizeof(b), "%.1fs", t->delay);
	snprintf(sort, sizeof(sort), "%s %s%s", columns[t->m->sort].title,
		 (columns[t->m->sort].ascending != t->m->invert) ? "asc" : "desc",
		 t->m->tree ? ", tree" : "");
	int x = pair(t, 4, 0, "Tasks", a);
	x = pair(t, 4, x, "Refresh", b);
	x = pair(t, 4, x, "Sort", sort);
	if (t->paused && x < t->cols)
		put_text(t, 4, x, t->cols - x, ROLE_ALERT, "PAUSED", false);
	fmt_clock(s->wall, when, sizeof(when));
	int w = (int)strlen(when);
	if (t->cols - w > x + 8)
		put_text(t, 4, t->cols - w, w, ROLE_HEADER, when, false);
}

static void bpf_line(struct tui *t, const struct snapshot *s)
{
	char line[256];
	if (s->bpf.enabled) {
		char drops[48] = "";
		if (s->bpf.ring_drops)
			snprintf(drops, sizeof(drops), ", %llu EVENTS DROPPED",
				 (unsigned long long)s->bpf.ring_drops);
		snprintf(line, sizeof(line), "BPF on: %d programs, %llu OOM kills seen%s%s%s%s",
			 s->bpf.programs, (unsigned long long)s->bpf.oom_kills,
			 swapin_mode_text(&s->bpf), drops, s->bpf.reason[0] ? "; " : "",
			 s->bpf.reason);
		put_text(t, 5, 0, t->cols,
			 s->bpf.reason[0] || s->bpf.ring_drops ? ROLE_WARNING : ROLE_LABEL, line,
			 false);
	} else {
		put_text(t, 5, 0, t->cols, ROLE_WARNING,
			 s->bpf.reason[0] ? s->bpf.reason : "BPF off", false);
	}
}

void draw_header(struct tui *t)
{
	const struct snapshot *s = model_current(t->m);
	if (!s)
		return;
	memory_lines(t, s);
	activity_line(t, s);
	status_line(t, s);
	if (t->m->oom_live > t->oom_acked)
		draw_oom_banner(t, 5);
	else
		bpf_line(t, s);
}
