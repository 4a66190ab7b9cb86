#include <string.h>

#include "cells.h"
#include "text.h"
#include "views.h"

static void header(FILE *f, const struct model *m, const struct view_info *vi)
{
	const struct snapshot *s = model_current(m);
	const struct sys_rates *r = &m->rates;
	struct mem_split ms;
	char when[16], tot[8], used[8], buf[8], cache[8], fre[8], avail[8], stot[8], sused[8];
	char pf[16], mf[16], si[16], so[16];
	mem_split(&s->mem, &ms);
	fmt_clock(s->wall, when, sizeof(when));
	fmt_kb(s->mem.mem_total_kb, tot, sizeof(tot));
	fmt_kb(ms.used_kb, used, sizeof(used));
	fmt_kb(ms.buffers_kb, buf, sizeof(buf));
	fmt_kb(ms.cache_kb, cache, sizeof(cache));
	fmt_kb(ms.free_kb, fre, sizeof(fre));
	fmt_kb(s->mem.mem_available_kb, avail, sizeof(avail));
	fmt_kb(s->mem.swap_total_kb, stot, sizeof(stot));
	fmt_kb(ms.swap_used_kb, sused, sizeof(sused));
	fmt_rate(r->pgfault, pf, sizeof(pf));
	fmt_rate(r->pgmajfault, mf, sizeof(mf));
	fmt_rate(r->pswpin, si, sizeof(si));
	fmt_rate(r->pswpout, so, sizeof(so));
	fprintf(f, "memtop %s - %s, refresh %.1fs, %zu processes, %zu shown\n", vi->version, when,
		vi->delay, s->ntasks, m->nrows);
	fprintf(f, "Mem:  %s total, %s used, %s buffers, %s cache, %s free, %s avail\n", tot, used,
		buf, cache, fre, avail);
	fprintf(f, "Swap: %s total, %s used\n", stot, sused);
	fprintf(f, "VM:   %s faults/s, %s major/s, %s swap-ins/s, %s swap-outs/s, ", pf, mf, si,
		so);
	if (s->psi.present)
		fprintf(f, "PSI some %.2f full %.2f\n", s->psi.some_avg10, s->psi.full_avg10);
	else
		fprintf(f, "PSI off\n");
	if (s->bpf.enabled)
		fprintf(f, "BPF:  on, %d programs, %llu ring drops%s%s%s\n", s->bpf.programs,
			(unsigned long long)s->bpf.ring_drops, swapin_mode_text(&s->bpf),
			s->bpf.reason[0] ? "; " : "", s->bpf.reason);
	else
		fprintf(f, "%s\n", s->bpf.reason[0] ? s->bpf.reason : "BPF off");
	if (s->bpf.have_reclaim) {
		const struct reclaim_stats *rc = &r->reclaim;
		fprintf(f,
			"Reclaim: direct %llu in %lluus, memcg %llu in %lluus, shrink_slab %llu in "
			"%lluus, %llu pages reclaimed, %llu kswapd wakeups\n",
			(unsigned long long)rc->direct.count,
			(unsigned long long)rc->direct.total_us,
			(unsigned long long)rc->memcg.count, (unsigned long long)rc->memcg.total_us,
			(unsigned long long)rc->shrink_slab.count,
			(unsigned long long)rc->shrink_slab.total_us,
			(unsigned long long)rc->nr_reclaimed,
			(unsigned long long)rc->kswapd_wakeups);
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
		if (!(m->cols & COL_BIT(c)))
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
			if (!(m->cols & COL_BIT(c)))
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
