#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "oom_list.h"
#include "text.h"
#include "panes.h"

#define PANE_KEYS "Esc/q back  Up/Down/PgUp/PgDn scroll  o OOM kills  r reclaim"

#define add pane_add

#define OOM_KEYS "Esc/q back  Up/Down select  Enter post-mortem  o OOM kills  r reclaim"

enum { PANE_OOM = 1, PANE_RECLAIM, PANE_BACK, PANE_POSTMORTEM };

/* The OOM and reclaim panes': Up/Down move the OOM pane's selection, Enter opens the
 * post-mortem of the kill selected (elsewhere it does nothing) */
const struct binding oom_keys[] = {
	{PANE_OOM, {'o', 0}, "o", "OOM kill history"},
	{PANE_RECLAIM, {'r', 0}, "r", "reclaim latency histograms"},
	{PANE_BACK, {27, 'q', KEY_F(10), 0}, "Esc q", "back to the table"},
	{PANE_POSTMORTEM, {'\n', '\r', KEY_ENTER, 0}, "Enter", "the kill's post-mortem"},
	{0, {0}, NULL, NULL},
};

struct panes_state panes_state;
static struct panes_state *const st = &panes_state;

void panes_open(struct ui *u, enum screen_id id)
{
	if (u->screen != SCREEN_OOM && u->screen != SCREEN_RECLAIM &&
	    u->screen != SCREEN_POSTMORTEM)
		st->back = u->screen;
	u->screen = id;
	st->top = 0;
	if (id == SCREEN_OOM) {
		st->oom_sel = 0;
		st->sel_pid = 0;
	}
}

/* The kills listed (oom_list.h), the selection on the kill it was on while it is listed */
static size_t listed(struct ui *u, struct oom_item *list)
{
	size_t n = oom_list(u, list);
	long i = st->sel_pid ? oom_list_find(list, n, st->sel_ts, st->sel_pid) : -1;

	if (i >= 0)
		st->oom_sel = (int)(n - 1 - (size_t)i);
	if (st->oom_sel >= (int)n)
		st->oom_sel = n ? (int)n - 1 : 0;
	return n;
}

/* The selected kill's time and pid from its place */
static void hold_selection(const struct oom_item *list, size_t n)
{
	st->sel_pid = 0;
	if (st->oom_sel < (int)n) {
		st->sel_ts = list[n - 1 - (size_t)st->oom_sel].e->ts;
		st->sel_pid = list[n - 1 - (size_t)st->oom_sel].e->pid;
	}
}

struct reaction panes_act(struct ui *u, int a)
{
	switch (a) {
	case PANE_OOM:
	case PANE_RECLAIM:
		panes_open(u, a == PANE_OOM ? SCREEN_OOM : SCREEN_RECLAIM);
		break;
	case PANE_BACK:
		u->screen = st->back;
		break;
	case PANE_POSTMORTEM: {
		struct oom_item list[OOM_LIST_MAX];
		size_t n = u->screen == SCREEN_OOM ? listed(u, list) : 0;
		if (!n)
			break;
		const struct mt_event *e = list[n - 1 - (size_t)st->oom_sel].e;
		st->pm_ts = e->ts;
		st->pm_pid = e->pid;
		st->top = 0;
		u->screen = SCREEN_POSTMORTEM;
		break;
	}
	}
	return reacts(REACT_NONE);
}

/* Up, Down, PgUp, PgDn, Home, End move the selected kill */
struct reaction oom_other(struct ui *u, int key)
{
	struct oom_item list[OOM_LIST_MAX];
	int n = (int)listed(u, list), *sel = &st->oom_sel;

	if (key == KEY_END)
		*sel = n - 1;
	else
		pane_scroll(&u->cv, sel, key);
	*sel = list_step(*sel, 0, n);
	hold_selection(list, (size_t)n);
	return reacts(REACT_NONE);
}

/* Up, Down, PgUp, PgDn, Home scroll (the reclaim pane, the post-mortem) */
struct reaction panes_other(struct ui *u, int key)
{
	pane_scroll(&u->cv, &st->top, key);
	return reacts(REACT_NONE);
}

/* The actions on memory done from the screen (src/act/act.h), before the kills, the
 * last ACTIONS_SHOWN, oldest first: "06:31:02 memory.high of /x set 300M -> 250M by
 * you"; returns the lines added */
#define ACTIONS_SHOWN 6
static int actions_lines(struct ui *u, struct pane *p)
{
	const struct act_log *log = u->acts;
	size_t n = log ? log->n : 0, from = n > ACTIONS_SHOWN ? n - ACTIONS_SHOWN : 0;

	if (!n)
		return 0;
	add(p, ROLE_HEADER, "Actions taken from the screen (%zu), the last %zu:", n, n - from);
	for (size_t i = from; i < n; i++) {
		char when[16], text[2 * ACT_LINE_MAX];
		fmt_clock(log->e[i % ACT_LOG_MAX].wall, when, sizeof(when));
		escape_display(log->e[i % ACT_LOG_MAX].text, text, sizeof(text), u->cv.utf8);
		add(p, ROLE_ROW, "%s %s", when, text);
	}
	return 1 + (int)(n - from);
}

void oom_draw(struct ui *u)
{
	static struct pane p;
	const struct model *m = u->m;
	const struct snapshot *s = model_current(m);
	struct oom_item list[OOM_LIST_MAX];
	size_t n = listed(u, list);
	p.n = 0;
	if (u->rv.on)
		add(&p, ROLE_LABEL,
		    "%zu kill%s in the recording up to this sample; * = before it started (kernel "
		    "log)",
		    n, n == 1 ? "" : "s");
	else
		add(&p, ROLE_LABEL,
		    "%" PRIu64 " kill%s since memtop started, %" PRIu64
		    " ring buffer drop%s; * = before memtop started (kernel log)",
		    m->oom_live, m->oom_live == 1 ? "" : "s", s ? s->bpf.ring_drops : 0,
		    s && s->bpf.ring_drops == 1 ? "" : "s");
	int acts = actions_lines(u, &p);
	add(&p, ROLE_TABLE_HEADER, "%-9s %7s %-15s %5s %5s %5s %5s %s", "TIME", "PID", "NAME",
	    "UID", "ANON", "FILE", "SHMEM", "MEMCG, KILLED BY");
	if (!n)
		add(&p, ROLE_ROW_DIM, "no OOM kills seen");
	for (size_t i = n; i-- > 0;) {
		const struct mt_event *e = list[i].e;
		char when[16], comm[80], tcomm[80], memcg[200], anon[8], file[8], shmem[8];
		fmt_clock(e->ts, when, sizeof(when));
		if (e->earlier)
			strcat(when, "*");
		escape_display(e->comm, comm, sizeof(comm), u->cv.utf8);
		escape_display(e->trigger_comm, tcomm, sizeof(tcomm), u->cv.utf8);
		escape_display(e->memcg[0] ? e->memcg : "-", memcg, sizeof(memcg), u->cv.utf8);
		fmt_kb(e->anon_rss_kb, anon, sizeof(anon));
		fmt_kb(e->file_rss_kb, file, sizeof(file));
		fmt_kb(e->shmem_rss_kb, shmem, sizeof(shmem));
		char by[120] = "";
		if (e->trigger_pid)
			snprintf(by, sizeof(by), ", by %d (%s)", e->trigger_pid, tcomm);
		size_t k = n - 1 - i; /* 0: the newest */
		add(&p,
		    k == (size_t)st->oom_sel ? ROLE_SELECTED
		    : i + 1 == n	     ? ROLE_WARNING
					     : ROLE_ROW,
		    "%-9s %7d %-15.15s %5u %5s %5s %5s %s%s", when, e->pid, comm, e->uid, anon,
		    file, shmem, memcg, by);
	}
	/* the selected kill in view: its line is the third after the actions */
	int line = 2 + acts + st->oom_sel, room = u->cv.rows - 2;
	if (line < st->top)
		st->top = line;
	else if (line >= st->top + room)
		st->top = line - room + 1;
	pane_show(&u->cv, "OOM kills, newest first", &p, &st->top, OOM_KEYS);
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
static void hist_lines(struct ui *u, struct pane *p, const char *name, const struct mt_hist *iv,
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
	int barw = u->cv.cols - 49;
	if (barw > 40)
		barw = 40;
	for (int i = lo; i <= hi; i++) {
		char bar[200] = "";
		int w = barw > 0 && max ? (int)((double)all->slots[i] / (double)max * barw + 0.5)
					: 0;
		for (int k = 0; k < w; k++)
			strcat(bar, u->cv.utf8 ? "█" : "*");
		uint64_t l = i ? 1ull << i : 0, h = (1ull << (i + 1)) - 1;
		add(p, iv->slots[i] ? ROLE_VALUE : ROLE_ROW,
		    "  %10" PRIu64 " -> %-7" PRIu64 " %9" PRIu64 " %11" PRIu64 "  %s", l, h,
		    iv->slots[i], all->slots[i], bar);
	}
}

void reclaim_draw(struct ui *u)
{
	static struct pane p;
	const struct model *m = u->m;
	const struct snapshot *s = model_current(m);
	p.n = 0;
	if (!s || !s->bpf.enabled || !s->bpf.have_reclaim) {
		add(&p, ROLE_WARNING, "%s",
		    s && s->bpf.reason[0] ? s->bpf.reason : "reclaim latency needs BPF");
		pane_show(&u->cv, "Reclaim latency", &p, &st->top, PANE_KEYS);
		return;
	}
	const struct reclaim_stats *iv = &m->rates.reclaim, *all = &s->bpf.reclaim;
	add(&p, ROLE_LABEL,
	    "interval %.1fs   kswapd wakeups %" PRIu64 " (%" PRIu64
	    " since start)   pages reclaimed %" PRIu64 " (%" PRIu64 ")",
	    m->rates.dt, iv->kswapd_wakeups, all->kswapd_wakeups, iv->nr_reclaimed,
	    all->nr_reclaimed);
	add(&p, ROLE_ROW, " ");
	hist_lines(u, &p, "Direct", &iv->direct, &all->direct);
	add(&p, ROLE_ROW, " ");
	hist_lines(u, &p, "Memcg", &iv->memcg, &all->memcg);
	add(&p, ROLE_ROW, " ");
	hist_lines(u, &p, "Shrink slab", &iv->shrink_slab, &all->shrink_slab);
	pane_show(&u->cv, "Reclaim latency", &p, &st->top, PANE_KEYS);
}
