#include "sysfig.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

static const struct snapshot *now(const struct model *m)
{
	return model_current(m);
}

static struct mem_split split(const struct model *m)
{
	struct mem_split ms;
	mem_split(&now(m)->mem, &ms);
	return ms;
}

#define MEMINFO(f)                                                                                 \
	static double get_##f(const struct model *m)                                               \
	{                                                                                          \
		return (double)now(m)->mem.f;                                                      \
	}
#define VMSTAT(f)                                                                                  \
	static double get_##f(const struct model *m)                                               \
	{                                                                                          \
		return (double)now(m)->vm.f;                                                       \
	}
#define RATE(f)                                                                                    \
	static double rate_##f(const struct model *m)                                              \
	{                                                                                          \
		return m->rates.f;                                                                 \
	}
#define SPLIT(f)                                                                                   \
	static double split_##f(const struct model *m)                                             \
	{                                                                                          \
		return (double)split(m).f;                                                         \
	}
#define BPF(f)                                                                                     \
	static double bpf_##f(const struct model *m)                                               \
	{                                                                                          \
		return (double)now(m)->bpf.f;                                                      \
	}

MEMINFO(mem_total_kb)
MEMINFO(mem_free_kb)
MEMINFO(mem_available_kb)
MEMINFO(buffers_kb)
MEMINFO(cached_kb)
MEMINFO(swap_total_kb)
MEMINFO(swap_free_kb)
SPLIT(used_kb)
SPLIT(cache_kb)
SPLIT(swap_used_kb)
VMSTAT(pgfault)
VMSTAT(pgmajfault)
VMSTAT(pswpin)
VMSTAT(pswpout)
VMSTAT(oom_kill)
RATE(pgfault)
RATE(pgmajfault)
RATE(pswpin)
RATE(pswpout)
BPF(programs)
BPF(ring_drops)
BPF(oom_kills)
BPF(swapins)

static double psi_some(const struct model *m)
{
	return now(m)->psi.some_avg10;
}

static double psi_full(const struct model *m)
{
	return now(m)->psi.full_avg10;
}

static bool psi_present(const struct model *m)
{
	return now(m)->psi.present;
}

static double nprocs(const struct model *m)
{
	return (double)now(m)->ntasks;
}

static double self_locked_kb(const struct model *m)
{
	return (double)now(m)->self.locked_kb;
}

static double self_oom_adj(const struct model *m)
{
	return now(m)->self.oom_score_adj;
}

static bool self_adj_lowered(const struct model *m)
{
	return now(m)->self.adj_lowered;
}

/* CPU time memtop used between the last refresh and this one, drawing included; on the
 * first, since it started (loading its BPF programs included) */
static double self_cpu_ms(const struct model *m)
{
	const struct snapshot *prev = model_previous(m);
	double was = prev ? prev->cost.cpu_s : 0;

	return now(m)->cost.cpu_s > was ? (now(m)->cost.cpu_s - was) * 1e3 : 0;
}

static double self_rss_kb(const struct model *m)
{
	return (double)now(m)->cost.rss_kb;
}

static double self_bpf_run(const struct model *m)
{
	const struct snapshot *prev = model_previous(m);

	return prev ? counter_rate(now(m)->cost.bpf_run_ns, prev->cost.bpf_run_ns, m->rates.dt) : 0;
}

/* The run time was counted over the interval: the statistics were on at both ends */
static bool self_bpf_counted(const struct model *m)
{
	const struct snapshot *prev = model_previous(m);

	return prev && prev->cost.bpf_stats && now(m)->cost.bpf_stats;
}

static double nr_reclaimed(const struct model *m)
{
	return (double)m->rates.reclaim.nr_reclaimed;
}

static double kswapd_wakeups(const struct model *m)
{
	return (double)m->rates.reclaim.kswapd_wakeups;
}

/* the since-start counters behind this interval's figures, in their units */
static double total_reclaimed(const struct model *m)
{
	return (double)now(m)->bpf.reclaim.nr_reclaimed;
}

static double total_wakeups(const struct model *m)
{
	return (double)now(m)->bpf.reclaim.kswapd_wakeups;
}

static double self_cpu_total_ms(const struct model *m)
{
	return now(m)->cost.cpu_s * 1e3;
}

static double self_bpf_run_total(const struct model *m)
{
	return (double)now(m)->cost.bpf_run_ns;
}

/* Direct and memcg reclaim stalls, microseconds a second, over the interval (BPF) */
static double stall_us_per_s(const struct model *m)
{
	const struct reclaim_stats *r = &m->rates.reclaim;

	return m->rates.dt > 0 ? (double)(r->direct.total_us + r->memcg.total_us) / m->rates.dt : 0;
}

static bool have_reclaim(const struct model *m)
{
	return now(m)->bpf.have_reclaim;
}

static double exhaustion_s(const struct model *m)
{
	return m->exhaustion_s;
}

static bool exhausting(const struct model *m)
{
	return m->exhaustion_s >= 0;
}

static double next_victim(const struct model *m)
{
	return m->next_victim_pid;
}

static bool have_victim(const struct model *m)
{
	return m->next_victim_pid > 0;
}

const char *const sf_group_title[SF_NGROUPS] = {
	[SF_MEM] = "Mem:", [SF_SWAP] = "Swap:",	      [SF_VM] = "VM:",
	[SF_BPF] = "BPF:", [SF_RECLAIM] = "Reclaim:", [SF_SELF] = "Self:",
};

const char *const sf_group_json[SF_NGROUPS] = {
	[SF_MEM] = "system", [SF_SWAP] = "system",     [SF_VM] = "system",
	[SF_BPF] = "bpf",    [SF_RECLAIM] = "reclaim", [SF_SELF] = "self",
};

/* JSON keys: the figure and its unit (_kb, _per_s), as the column table's. Metric names:
 * the unit's suffix and _total are added (src/metric.h). */
const struct sys_figure sys_figures[] = {
	{"mem_available_kb", "Avail", SF_KB, SF_MEM, true, 0, NULL, get_mem_available_kb, NULL,
	 false, "memory_available", "MemAvailable: memory available without swapping", NULL},
	{"mem_used_kb", "Used", SF_KB, SF_MEM, true, 1, NULL, split_used_kb, NULL, false,
	 "memory_used", "Memory used, as free(1): total less free, buffers and cache", NULL},
	{"buffers_kb", "Buffers", SF_KB, SF_MEM, true, 3, NULL, get_buffers_kb, NULL, false,
	 "memory_buffers", "Buffers (/proc/meminfo)", NULL},
	{"cache_kb", "Cache", SF_KB, SF_MEM, true, 2, NULL, split_cache_kb, NULL, false,
	 "memory_cache", "Page cache and reclaimable slab (Cached + SReclaimable)", NULL},
	{"mem_free_kb", "Free", SF_KB, SF_MEM, true, 2, NULL, get_mem_free_kb, NULL, false,
	 "memory_free", "MemFree: memory unused", NULL},
	{"mem_total_kb", "Total", SF_KB, SF_MEM, false, 0, NULL, get_mem_total_kb, NULL, false,
	 "memory_total", "MemTotal: usable RAM", NULL},
	{"cached_kb", NULL, SF_KB, SF_MEM, false, 0, NULL, get_cached_kb, NULL, false,
	 "memory_cached", "Cached (/proc/meminfo): the page cache", NULL},
	{"swap_total_kb", "Total", SF_KB, SF_SWAP, false, 0, NULL, get_swap_total_kb, NULL, false,
	 "swap_total", "SwapTotal: swap space", NULL},
	{"swap_used_kb", "Used", SF_KB, SF_SWAP, false, 0, NULL, split_swap_used_kb, NULL, false,
	 "swap_used", "Swap space in use", NULL},
	{"swap_free_kb", NULL, SF_KB, SF_SWAP, false, 0, NULL, get_swap_free_kb, NULL, false,
	 "swap_free", "SwapFree: swap space unused", NULL},
	{"pgfault_per_s", "Faults/s", SF_RATE, SF_VM, true, 0, NULL, rate_pgfault, NULL, false,
	 NULL, NULL, NULL},
	{"pgmajfault_per_s", "Major/s", SF_RATE, SF_VM, true, 1, NULL, rate_pgmajfault, NULL, false,
	 NULL, NULL, NULL},
	{"pswpin_per_s", "Swap-in/s", SF_RATE, SF_VM, true, 2, NULL, rate_pswpin, NULL, false, NULL,
	 NULL, NULL},
	{"pswpout_per_s", "Swap-out/s", SF_RATE, SF_VM, true, 3, NULL, rate_pswpout, NULL, false,
	 NULL, NULL, NULL},
	{"psi_some_avg10", "PSI some", SF_AVG, SF_VM, true, 4, "PSI off", psi_some, psi_present,
	 false, "memory_pressure_some_avg10",
	 "Share of the last 10 s in which some tasks stalled on memory (PSI)", NULL},
	{"psi_full_avg10", "full", SF_AVG, SF_VM, true, 4, "PSI off", psi_full, psi_present, false,
	 "memory_pressure_full_avg10",
	 "Share of the last 10 s in which all tasks stalled on memory (PSI)", NULL},
	{"pgfault", NULL, SF_COUNT, SF_VM, false, 0, NULL, get_pgfault, NULL, false, "vm_pgfault",
	 "Page faults since boot (/proc/vmstat pgfault)", NULL},
	{"pgmajfault", NULL, SF_COUNT, SF_VM, false, 0, NULL, get_pgmajfault, NULL, false,
	 "vm_pgmajfault", "Major page faults since boot (/proc/vmstat pgmajfault)", NULL},
	{"pswpin", NULL, SF_COUNT, SF_VM, false, 0, NULL, get_pswpin, NULL, false, "vm_pswpin",
	 "Pages swapped in since boot (/proc/vmstat pswpin)", NULL},
	{"pswpout", NULL, SF_COUNT, SF_VM, false, 0, NULL, get_pswpout, NULL, false, "vm_pswpout",
	 "Pages swapped out since boot (/proc/vmstat pswpout)", NULL},
	{"oom_kill", NULL, SF_COUNT, SF_VM, false, 0, NULL, get_oom_kill, NULL, false,
	 "vm_oom_kill", "OOM kills since boot (/proc/vmstat oom_kill)", NULL},
	{"nprocs", NULL, SF_NUMBER, SF_VM, false, 0, NULL, nprocs, NULL, false, "processes",
	 "Processes on the system", NULL},
	{"programs", "programs", SF_NUMBER, SF_BPF, false, 0, NULL, bpf_programs, NULL, false,
	 "bpf_programs", "BPF programs memtop has attached", NULL},
	{"ring_drops", "ring drops", SF_COUNT, SF_BPF, false, 0, NULL, bpf_ring_drops, NULL, false,
	 "bpf_ring_drops", "Events memtop's BPF ring buffers dropped since it started", NULL},
	{"oom_kills", "OOM kills seen", SF_COUNT, SF_BPF, false, 0, NULL, bpf_oom_kills, NULL,
	 false, "bpf_oom_kills_seen", "OOM kills BPF saw (oom/mark_victim) since memtop started",
	 NULL},
	{"swapins", "swap-ins", SF_COUNT, SF_BPF, false, 0, NULL, bpf_swapins, NULL, false,
	 "bpf_swapin_pages", "Pages swapped in that BPF counted since memtop started", NULL},
	{"exhaustion_s", NULL, SF_SECONDS, SF_MEM, false, 0, NULL, exhaustion_s, exhausting, true,
	 "memory_exhaustion_forecast",
	 "Time until MemAvailable + SwapFree runs out at the last minute's rate (absent: they "
	 "do not shrink)",
	 NULL},
	{"next_victim_pid", NULL, SF_NUMBER, SF_MEM, false, 0, NULL, next_victim, have_victim, true,
	 NULL, NULL, NULL},
	{"stall_us_per_s", "stall us/s", SF_RATE, SF_RECLAIM, false, 0, NULL, stall_us_per_s,
	 have_reclaim, true, NULL, NULL, NULL},
	{"nr_reclaimed", "pages reclaimed", SF_COUNT, SF_RECLAIM, false, 0, NULL, nr_reclaimed,
	 NULL, false, "reclaim_pages", "Pages reclaimed since memtop started (BPF)",
	 total_reclaimed},
	{"kswapd_wakeups", "kswapd wakeups", SF_COUNT, SF_RECLAIM, false, 0, NULL, kswapd_wakeups,
	 NULL, false, "reclaim_kswapd_wakeups", "kswapd wakeups since memtop started (BPF)",
	 total_wakeups},
	{"locked_kb", "locked", SF_KB, SF_SELF, false, 0, NULL, self_locked_kb, NULL, false,
	 "self_locked", "memtop's memory locked in RAM (VmLck)", NULL},
	{"oom_score_adj", "oom_score_adj", SF_NUMBER, SF_SELF, false, 0,
	 "oom_score_adj not lowered (as root, with CAP_SYS_RESOURCE)", self_oom_adj,
	 self_adj_lowered, false, "self_oom_score_adj", "memtop's own oom_score_adj", NULL},
	{"cpu_ms_per_refresh", "CPU/refresh", SF_MS, SF_SELF, true, 0, NULL, self_cpu_ms, NULL,
	 false, "self_cpu", "CPU time memtop used since it started, user and system",
	 self_cpu_total_ms},
	{"rss_kb", "RSS", SF_KB, SF_SELF, true, 2, NULL, self_rss_kb, NULL, false, "self_resident",
	 "memtop's resident size", NULL},
	{"bpf_run_ns_per_s", "BPF run/s", SF_NS_RATE, SF_SELF, true, 1, NULL, self_bpf_run,
	 self_bpf_counted, true, "self_bpf_run",
	 "Run time of memtop's BPF programs while the kernel's BPF statistics are on",
	 self_bpf_run_total},
};

const size_t n_sys_figures = sizeof(sys_figures) / sizeof(sys_figures[0]);

/* "850ns", "3.1us", "12ms", "1.2s" */
static void fmt_ns(double ns, char *buf, size_t size)
{
	static const char *const unit[] = {"ns", "us", "ms", "s"};
	int u = 0;

	while (ns >= 999.5 && u < 3) {
		ns /= 1e3;
		u++;
	}
	snprintf(buf, size, u && ns < 9.95 ? "%.1f%s" : "%.0f%s", ns, unit[u]);
}

bool sys_figure_valid(const struct sys_figure *f, const struct model *m)
{
	return model_current(m) && (!f->valid || f->valid(m));
}

void sys_figure_text(const struct sys_figure *f, const struct model *m, char *buf, size_t size)
{
	double v = f->get(m);

	switch (f->unit) {
	case SF_KB:
		fmt_kb((uint64_t)v, buf, size);
		break;
	case SF_RATE:
		fmt_rate(v, buf, size);
		break;
	case SF_COUNT:
	case SF_NUMBER:
		snprintf(buf, size, "%.0f", v);
		break;
	case SF_SECONDS:
		snprintf(buf, size, "%.0fs", v);
		break;
	case SF_AVG:
		snprintf(buf, size, "%.2f", v);
		break;
	case SF_MS:
		snprintf(buf, size, v < 10 ? "%.2fms" : v < 100 ? "%.1fms" : "%.0fms", v);
		break;
	case SF_NS_RATE:
		fmt_ns(v, buf, size);
		break;
	}
}

long sys_figure_by_json(const char *json)
{
	for (size_t f = 0; f < n_sys_figures; f++)
		if (!strcmp(sys_figures[f].json, json))
			return (long)f;
	return -1;
}
