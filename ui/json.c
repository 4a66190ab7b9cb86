#include <inttypes.h>

#include "text.h"
#include "views.h"

static void hist(FILE *f, const char *name, const struct mt_hist *h)
{
	fprintf(f, "\"%s\":{\"count\":%" PRIu64 ",\"total_us\":%" PRIu64 ",\"buckets\":[", name,
		h->count, h->total_us);
	bool first = true;
	for (int i = 0; i < MT_HIST_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		uint64_t lo = i == 0 ? 0 : 1ull << i, hi = (1ull << (i + 1)) - 1;
		fprintf(f, "%s{\"lo_us\":%" PRIu64 ",\"hi_us\":%" PRIu64 ",\"count\":%" PRIu64 "}",
			first ? "" : ",", lo, hi, h->slots[i]);
		first = false;
	}
	fputs("]}", f);
}

static void event(FILE *f, const struct mt_event *e)
{
	fprintf(f, "{\"type\":\"oom_kill\",\"ts\":%.3f,\"earlier\":%s,\"pid\":%d,\"comm\":", e->ts,
		e->earlier ? "true" : "false", e->pid);
	json_string(f, e->comm);
	fprintf(f,
		",\"uid\":%u,\"total_vm_kb\":%" PRIu64 ",\"anon_rss_kb\":%" PRIu64
		",\"file_rss_kb\":%" PRIu64 ",\"shmem_rss_kb\":%" PRIu64 ",\"memcg\":",
		e->uid, e->total_vm_kb, e->anon_rss_kb, e->file_rss_kb, e->shmem_rss_kb);
	json_string(f, e->memcg);
	fprintf(f, ",\"trigger_pid\":%d,\"trigger_comm\":", e->trigger_pid);
	json_string(f, e->trigger_comm);
	fputc('}', f);
}

static void num_or_null(FILE *f, const char *key, bool valid, uint64_t kb)
{
	if (valid)
		fprintf(f, ",\"%s\":%" PRIu64, key, kb);
	else
		fprintf(f, ",\"%s\":null", key);
}

static void process(FILE *f, const struct model *m, const struct row *r)
{
	const struct proc_sample *p = r->p;
	fprintf(f, "{\"pid\":%d,\"ppid\":%d,\"user\":", p->pid, p->ppid);
	json_string(f, p->user);
	fputs(",\"comm\":", f);
	json_string(f, p->comm);
	fputs(",\"cmd\":", f);
	json_string(f, p->cmd);
	fprintf(f,
		",\"rss_kb\":%" PRIu64 ",\"vsz_kb\":%" PRIu64 ",\"shr_kb\":%" PRIu64
		",\"txt_kb\":%" PRIu64 ",\"data_kb\":%" PRIu64 ",\"swap_kb\":",
		p->rss_kb, p->vsz_kb, p->shr_kb, p->txt_kb, p->data_kb);
	if (p->swap_valid)
		fprintf(f, "%" PRIu64, p->swap_kb);
	else
		fputs("null", f);
	if (m->cols & COL_BIT(COL_PSS))
		num_or_null(f, "pss_kb", p->rollup_valid, p->pss_kb);
	if (m->cols & COL_BIT(COL_USS))
		num_or_null(f, "uss_kb", p->rollup_valid, p->uss_kb);
	if (m->cols & COL_BIT(COL_OOM))
		num_or_null(f, "oom_score", p->oom_valid, (uint64_t)p->oom_score);
	fprintf(f, ",\"mem_pct\":%.2f,\"minflt_per_s\":%.2f,\"majflt_per_s\":%.2f", r->mem_pct,
		r->minflt_rate, r->majflt_rate);
	if (p->bpf_valid)
		fprintf(f, ",\"swapin_per_s\":%.2f,\"reclaim_stall_us_per_s\":%.1f", r->swapin_rate,
			r->reclaim_us_rate);
	else
		fputs(",\"swapin_per_s\":null,\"reclaim_stall_us_per_s\":null", f);
	fputc('}', f);
}

void view_json(FILE *f, const struct model *m, const struct view_info *vi)
{
	(void)vi;
	const struct snapshot *s = model_current(m);
	const struct sys_mem *mem = &s->mem;
	const struct sys_rates *r = &m->rates;
	fprintf(f, "{\"ts\":%.3f,\"interval_s\":%.3f,\"system\":{", s->wall, r->dt);
	fprintf(f,
		"\"mem_total_kb\":%" PRIu64 ",\"mem_free_kb\":%" PRIu64
		",\"mem_available_kb\":%" PRIu64 ",\"buffers_kb\":%" PRIu64
		",\"cached_kb\":%" PRIu64 ",\"swap_total_kb\":%" PRIu64
		",\"swap_free_kb\":%" PRIu64,
		mem->mem_total_kb, mem->mem_free_kb, mem->mem_available_kb, mem->buffers_kb,
		mem->cached_kb, mem->swap_total_kb, mem->swap_free_kb);
	fprintf(f,
		",\"pgfault_per_s\":%.2f,\"pgmajfault_per_s\":%.2f,\"pswpin_per_s\":%.2f,"
		"\"pswpout_per_s\":%.2f,\"pgfault\":%" PRIu64 ",\"pgmajfault\":%" PRIu64
		",\"pswpin\":%" PRIu64 ",\"pswpout\":%" PRIu64 ",\"oom_kill\":%" PRIu64,
		r->pgfault, r->pgmajfault, r->pswpin, r->pswpout, s->vm.pgfault, s->vm.pgmajfault,
		s->vm.pswpin, s->vm.pswpout, s->vm.oom_kill);
	if (s->psi.present)
		fprintf(f, ",\"psi_some_avg10\":%.2f,\"psi_full_avg10\":%.2f", s->psi.some_avg10,
			s->psi.full_avg10);
	fprintf(f, ",\"nprocs\":%zu},\"processes\":[", s->ntasks);
	for (size_t i = 0; i < m->nrows; i++) {
		if (i)
			fputc(',', f);
		process(f, m, &m->rows[i]);
	}
	fputs("],\"events\":[", f);
	bool first = true;
	for (size_t i = 0; i < s->nevents; i++) {
		if (s->events[i].type != MT_EV_OOM_KILL)
			continue;
		if (!first)
			fputc(',', f);
		event(f, &s->events[i]);
		first = false;
	}
	fputs("],\"reclaim\":{", f);
	hist(f, "direct", &r->reclaim.direct);
	fputc(',', f);
	hist(f, "memcg", &r->reclaim.memcg);
	fputc(',', f);
	hist(f, "shrink_slab", &r->reclaim.shrink_slab);
	fprintf(f, ",\"nr_reclaimed\":%" PRIu64 ",\"kswapd_wakeups\":%" PRIu64 "}",
		r->reclaim.nr_reclaimed, r->reclaim.kswapd_wakeups);
	fprintf(f, ",\"bpf\":{\"enabled\":%s,\"reason\":", s->bpf.enabled ? "true" : "false");
	json_string(f, s->bpf.reason);
	fprintf(f,
		",\"programs\":%d,\"ring_drops\":%" PRIu64 ",\"oom_kills\":%" PRIu64
		",\"swapins\":%" PRIu64 ",\"swapin_mode\":",
		s->bpf.programs, s->bpf.ring_drops, s->bpf.oom_kills, s->bpf.swapins);
	json_string(f, s->bpf.swapin_mode[0] ? s->bpf.swapin_mode : "off");
	fputs("}}\n", f);
	fflush(f);
}
