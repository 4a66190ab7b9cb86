#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "text.h"
#include "draw_header.h"

struct segment {
	uint64_t value;
	enum role role;
	const char *glyph_utf8; /* full cell */
	char glyph_ascii;
};

static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};

/* A meter like htop's: label[bar   text], segments stacked left to right. */
static void meter(struct ui *u, int y, const char *label, const struct segment *seg, int nseg,
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

static void memory_lines(struct ui *u, const struct snapshot *s)
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
	meter(u, 0, "Mem", mem, 3, s->mem.mem_total_kb, text);
	const struct segment swp[] = {{ms.swap_used_kb, ROLE_METER_SWAP, "█", '|'}};
	fmt_kb(ms.swap_used_kb, a, sizeof(a));
	fmt_kb(s->mem.swap_total_kb, b, sizeof(b));
	snprintf(text, sizeof(text), "%s/%s", a, b);
	meter(u, 1, "Swp", swp, 1, s->mem.swap_total_kb, text);

	fmt_kb(s->mem.mem_available_kb, a, sizeof(a));
	fmt_kb(ms.used_kb, b, sizeof(b));
	fmt_kb(ms.buffers_kb, c, sizeof(c));
	fmt_kb(ms.cache_kb, d, sizeof(d));
	fmt_kb(ms.free_kb, e, sizeof(e));
	int x = put_pair(&u->cv, 2, 0, "Avail", a);
	x = put_pair(&u->cv, 2, x, "Used", b);
	x = put_pair(&u->cv, 2, x, "Buffers", c);
	x = put_pair(&u->cv, 2, x, "Cache", d);
	put_pair(&u->cv, 2, x, "Free", e);
}

static void activity_line(struct ui *u, const struct snapshot *s)
{
	const struct sys_rates *r = &u->m->rates;
	char a[16], b[16], c[16], d[16], psi[32];
	fmt_rate(r->pgfault, a, sizeof(a));
	fmt_rate(r->pgmajfault, b, sizeof(b));
	fmt_rate(r->pswpin, c, sizeof(c));
	fmt_rate(r->pswpout, d, sizeof(d));
	int x = put_pair(&u->cv, 3, 0, "Faults/s", a);
	x = put_pair(&u->cv, 3, x, "Major/s", b);
	x = put_pair(&u->cv, 3, x, "Swap-in/s", c);
	x = put_pair(&u->cv, 3, x, "Swap-out/s", d);
	if (s->psi.present) {
		snprintf(psi, sizeof(psi), "some %.2f full %.2f", s->psi.some_avg10,
			 s->psi.full_avg10);
		put_pair(&u->cv, 3, x, "PSI", psi);
	} else {
		put_text(&u->cv, 3, x, u->cv.cols - x, ROLE_ROW_DIM, "PSI off", false);
	}
}

static void status_line(struct ui *u, const struct snapshot *s)
{
	char a[48], b[16], sort[32], when[16];
	snprintf(a, sizeof(a), "%zu, %zu shown", s->ntasks, u->m->nrows);
	snprintf(b, sizeof(b), "%.1fs", u->delay);
	snprintf(sort, sizeof(sort), "%s %s%s", columns[u->m->sort].title,
		 (columns[u->m->sort].ascending != u->m->invert) ? "asc" : "desc",
		 u->m->tree ? ", tree" : "");
	int x = put_pair(&u->cv, 4, 0, "Tasks", a);
	x = put_pair(&u->cv, 4, x, "Refresh", b);
	x = put_pair(&u->cv, 4, x, "Sort", sort);
	if (u->paused && x < u->cv.cols)
		put_text(&u->cv, 4, x, u->cv.cols - x, ROLE_ALERT, "PAUSED", false);
	fmt_clock(s->wall, when, sizeof(when));
	int w = (int)strlen(when);
	if (u->cv.cols - w > x + 8)
		put_text(&u->cv, 4, u->cv.cols - w, w, ROLE_HEADER, when, false);
}

static void bpf_line(struct ui *u, const struct snapshot *s)
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
		put_text(&u->cv, 5, 0, u->cv.cols,
			 s->bpf.reason[0] || s->bpf.ring_drops ? ROLE_WARNING : ROLE_LABEL, line,
			 false);
	} else {
		put_text(&u->cv, 5, 0, u->cv.cols, ROLE_WARNING,
			 s->bpf.reason[0] ? s->bpf.reason : "BPF off", false);
	}
}

static void oom_banner(struct ui *u, int y)
{
	const struct model *m = u->m;
	char line[512], what[400], more[32] = "";
	uint64_t unseen = m->oom_live - u->oom_acked;
	fmt_oom_line(&m->oom[m->noom - 1], what, sizeof(what), u->cv.utf8);
	if (unseen > 1)
		snprintf(more, sizeof(more), " (%" PRIu64 " new)", unseen);
	snprintf(line, sizeof(line), "%s%s  [a: acknowledge, o: history]", what, more);
	put_text(&u->cv, y, 0, u->cv.cols, ROLE_ALERT, line, true);
}

int header_rows(const struct ui *u)
{
	(void)u;
	return 6;
}

void draw_header(struct ui *u)
{
	const struct snapshot *s = model_current(u->m);
	if (!s)
		return;
	memory_lines(u, s);
	activity_line(u, s);
	status_line(u, s);
	if (u->m->oom_live > u->oom_acked)
		oom_banner(u, 5);
	else
		bpf_line(u, s);
}
