#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "text.h"
#include "tui_int.h"

#define PANE_KEYS "Esc/q back  Up/Down/PgUp/PgDn scroll  o OOM kills  r reclaim"

/* the short name within this file */
#define add pane_add

void pane_add(struct pane *p, enum role r, const char *fmt, ...)
{
	if (p->n == PANE_LINES)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->text[p->n], sizeof(p->text[0]), fmt, ap);
	va_end(ap);
	p->role[p->n++] = r;
}

void pane_show(struct tui *t, const char *title, const struct pane *p, const char *keys)
{
	put_text(t, 0, 0, t->cols, ROLE_HELP_TITLE, title, false);
	int room = t->rows - 2;
	if (t->pane_top > p->n - room)
		t->pane_top = p->n - room > 0 ? p->n - room : 0;
	for (int i = 0; i < room && t->pane_top + i < p->n; i++)
		put_text(t, 1 + i, 0, t->cols, p->role[t->pane_top + i], p->text[t->pane_top + i],
			 true);
	put_text(t, t->rows - 1, 0, t->cols, ROLE_STATUS, keys, true);
}

bool pane_scroll_key(struct tui *t, int key)
{
	int page = t->rows - 2;
	switch (key) {
	case KEY_UP:
		t->pane_top--;
		break;
	case KEY_DOWN:
		t->pane_top++;
		break;
	case KEY_PPAGE:
		t->pane_top -= page;
		break;
	case KEY_NPAGE:
		t->pane_top += page;
		break;
	case KEY_HOME:
		t->pane_top = 0;
		break;
	default:
		return false;
	}
	if (t->pane_top < 0)
		t->pane_top = 0;
	return true;
}

void pane_key(struct tui *t, int key)
{
	if (pane_scroll_key(t, key))
		return;
	switch (key) {
	case 'o':
		t->screen = SCREEN_OOM;
		t->pane_top = 0;
		break;
	case 'r':
		t->screen = SCREEN_RECLAIM;
		t->pane_top = 0;
		break;
	case 27:
	case 'q':
	case KEY_F(10):
		t->screen = SCREEN_MAIN;
		break;
	}
}

void draw_oom_banner(struct tui *t, int y)
{
	const struct model *m = t->m;
	char line[512], what[400], more[32] = "";
	uint64_t unseen = m->oom_live - t->oom_acked;
	fmt_oom_line(&m->oom[m->noom - 1], what, sizeof(what), t->utf8);
	if (unseen > 1)
		snprintf(more, sizeof(more), " (%" PRIu64 " new)", unseen);
	snprintf(line, sizeof(line), "%s%s  [a: acknowledge, o: history]", what, more);
	put_text(t, y, 0, t->cols, ROLE_ALERT, line, true);
}

void draw_oom_pane(struct tui *t)
{
	static struct pane p;
	const struct model *m = t->m;
	const struct snapshot *s = model_current(m);
	p.n = 0;
	add(&p, ROLE_LABEL,
	    "%" PRIu64 " kills since memtop started, %" PRIu64
	    " ring buffer drops; * = before memtop started (kernel log)",
	    m->oom_live, s ? s->bpf.ring_drops : 0);
	add(&p, ROLE_TABLE_HEADER, "%-9s %7s %-15s %5s %5s %5s %5s %s", "TIME", "PID", "NAME",
	    "UID", "ANON", "FILE", "SHMEM", "MEMCG, KILLED BY");
	if (!m->noom)
		add(&p, ROLE_ROW_DIM, "no OOM kills seen");
	for (size_t i = m->noom; i-- > 0;) {
		const struct mt_event *e = &m->oom[i];
		char when[16], comm[80], tcomm[80], memcg[200], anon[8], file[8], shmem[8];
		fmt_clock(e->ts, when, sizeof(when));
		if (e->earlier)
			strcat(when, "*");
		escape_display(e->comm, comm, sizeof(comm), t->utf8);
		escape_display(e->trigger_comm, tcomm, sizeof(tcomm), t->utf8);
		escape_display(e->memcg[0] ? e->memcg : "-", memcg, sizeof(memcg), t->utf8);
		fmt_kb(e->anon_rss_kb, anon, sizeof(anon));
		fmt_kb(e->file_rss_kb, file, sizeof(file));
		fmt_kb(e->shmem_rss_kb, shmem, sizeof(shmem));
		char by[120] = "";
		if (e->trigger_pid)
			snprintf(by, sizeof(by), ", by %d (%s)", e->trigger_pid, tcomm);
		add(&p, i + 1 == m->noom ? ROLE_WARNING : ROLE_ROW,
		    "%-9s %7d %-15.15s %5u %5s %5s %5s %s%s", when, e->pid, comm, e->uid, anon,
		    file, shmem, memcg, by);
	}
	pane_show(t, "OOM kills, newest first", &p, PANE_KEYS);
}

static void fmt_us(uint64_t us, char *buf, size_t size)
{
	if (us < 10000)
		snprintf(buf, size, "%" PRIu64 "us", us);
	else if (us < 10000000)
		snprintf(buf, size, "%.1fms", (double)us / 1e3);
	else
		snprintf(buf, size, "%.1fs", (double)us / 1e6);
}

/* One histogram: a summary line, then one line per bucket from the lowest to the
 * highest non-empty one since start, with this interval's and the total counts. */
static void hist_lines(struct tui *t, struct pane *p, const char *name, const struct mt_hist *iv,
		       const struct mt_hist *all)
{
	char a[16], b[16];
	fmt_us(iv->total_us, a, sizeof(a));
	fmt_us(all->total_us, b, sizeof(b));
	add(p, ROLE_HEADER, "%-12s interval: %" PRIu64 " in %s   since start: %" PRIu64 " in %s",
	    name, iv->count, a, all->count, b);
	int lo = -1, hi = -1;
	uint64_t max = 0;
	for (int i = 0; i < MT_HIST_SLOTS; i++) {
		if (!all->slots[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		if (all->slots[i] > max)
			max = all->slots[i];
	}
	if (lo < 0)
		return;
	add(p, ROLE_LABEL, "  %21s %9s %11s  %s", "usecs", "interval", "since start",
	    "distribution");
	int barw = t->cols - 49;
	if (barw > 40)
		barw = 40;
	for (int i = lo; i <= hi; i++) {
		char bar[200] = "";
		int w = barw > 0 && max ? (int)((double)all->slots[i] / (double)max * barw + 0.5)
					: 0;
		for (int k = 0; k < w; k++)
			strcat(bar, t->utf8 ? "█" : "*");
		uint64_t l = i ? 1ull << i : 0, h = (1ull << (i + 1)) - 1;
		add(p, iv->slots[i] ? ROLE_VALUE : ROLE_ROW,
		    "  %10" PRIu64 " -> %-7" PRIu64 " %9" PRIu64 " %11" PRIu64 "  %s", l, h,
		    iv->slots[i], all->slots[i], bar);
	}
}

void draw_reclaim_pane(struct tui *t)
{
	static struct pane p;
	const struct model *m = t->m;
	const struct snapshot *s = model_current(m);
	p.n = 0;
	if (!s || !s->bpf.enabled || !s->bpf.have_reclaim) {
		add(&p, ROLE_WARNING, "%s",
		    s && s->bpf.reason[0] ? s->bpf.reason : "reclaim latency needs BPF");
		pane_show(t, "Reclaim latency", &p, PANE_KEYS);
		return;
	}
	const struct reclaim_stats *iv = &m->rates.reclaim, *all = &s->bpf.reclaim;
	add(&p, ROLE_LABEL,
	    "interval %.1fs   kswapd wakeups %" PRIu64 " (%" PRIu64
	    " since start)   pages reclaimed %" PRIu64 " (%" PRIu64 ")",
	    m->rates.dt, iv->kswapd_wakeups, all->kswapd_wakeups, iv->nr_reclaimed,
	    all->nr_reclaimed);
	add(&p, ROLE_ROW, " ");
	hist_lines(t, &p, "Direct", &iv->direct, &all->direct);
	add(&p, ROLE_ROW, " ");
	hist_lines(t, &p, "Memcg", &iv->memcg, &all->memcg);
	add(&p, ROLE_ROW, " ");
	hist_lines(t, &p, "Shrink slab", &iv->shrink_slab, &all->shrink_slab);
	pane_show(t, "Reclaim latency", &p, PANE_KEYS);
}
