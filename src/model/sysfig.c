#include "sysfig.h"

#include <stdio.h>

#include "text.h"

static const struct snapshot *now(const struct model *m)
{
	return model_current(m);
}

static struct mem_split split(const struct model *m)
{
	struct mem_split ms;
	mem_split(now(m)->mem, &ms);
	return ms;
}

/* meminfo_ID, vmstat_ID and rate_ID: a value of sysfigs.def and a counter's rate; has_ID:
 * whether the kernel had the value */
#define MEMINFO(id, key, name)                                                                     \
	static inline double meminfo_##id(const struct model *m)                                   \
	{                                                                                          \
		return (double)now(m)->mem[MI_##id];                                               \
	}                                                                                          \
	static inline bool has_##id(const struct model *m)                                         \
	{                                                                                          \
		return meminfo_present(now(m), MI_##id);                                           \
	}
#define MEMINFO_FIG(id, key, name, ...) MEMINFO(id, key, name)
#define VMSTAT(id, key, name)                                                                      \
	static inline double vmstat_##id(const struct model *m)                                    \
	{                                                                                          \
		return (double)now(m)->vm[VS_##id];                                                \
	}                                                                                          \
	static inline double rate_##id(const struct model *m)                                      \
	{                                                                                          \
		return m->rates.vm[VS_##id];                                                       \
	}                                                                                          \
	static inline bool has_##id(const struct model *m)                                         \
	{                                                                                          \
		return vmstat_present(now(m), VS_##id);                                            \
	}
#define VMSTAT_FIG(id, key, name, ...) VMSTAT(id, key, name)
#include "sysfigs.def"

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

SPLIT(used_kb)
SPLIT(cache_kb)
SPLIT(swap_used_kb)
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

static double psi_some_total(const struct model *m)
{
	return (double)now(m)->psi.some_total_us / 1e6;
}

static double psi_full_total(const struct model *m)
{
	return (double)now(m)->psi.full_total_us / 1e6;
}

/* JSON's: the microseconds as the file gives them */
static double psi_some_us(const struct model *m)
{
	return (double)now(m)->psi.some_total_us;
}

static double psi_full_us(const struct model *m)
{
	return (double)now(m)->psi.full_total_us;
}

static bool psi_totals(const struct model *m)
{
	return now(m)->psi.present && now(m)->psi.totals;
}

/* The pages scanned or reclaimed by every reclaimer: anon + file where the kernel counts
 * them so (5.8), which the reclaim of a memory cgroup's limit adds to while the lines of
 * kswapd, direct reclaim, khugepaged and proactive reclaim leave it out; else the sum of
 * those lines */
struct paging_total {
	int split[2];
	int by[4];
};
static const struct paging_total scanned = {
	{VS_PGSCAN_ANON, VS_PGSCAN_FILE},
	{VS_PGSCAN_KSWAPD, VS_PGSCAN_DIRECT, VS_PGSCAN_KHUGEPAGED, VS_PGSCAN_PROACTIVE},
};
static const struct paging_total stolen = {
	{VS_PGSTEAL_ANON, VS_PGSTEAL_FILE},
	{VS_PGSTEAL_KSWAPD, VS_PGSTEAL_DIRECT, VS_PGSTEAL_KHUGEPAGED, VS_PGSTEAL_PROACTIVE},
};

/* The lines that make total t in the current snapshot (n of them; 0: none) */
static const int *paging_parts(const struct model *m, const struct paging_total *t, size_t *n)
{
	const struct snapshot *s = now(m);

	*n = 0;
	if (vmstat_present(s, t->split[0]) && vmstat_present(s, t->split[1])) {
		*n = 2;
		return t->split;
	}
	if (vmstat_present(s, t->by[0]) && vmstat_present(s, t->by[1]))
		*n = 4;
	return t->by;
}

/* Total t: the counter, or its rate per second */
static double paging_sum(const struct model *m, const struct paging_total *t, bool rate)
{
	size_t n;
	const int *v = paging_parts(m, t, &n);
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		if (vmstat_present(now(m), v[i]))
			sum += rate ? m->rates.vm[v[i]] : (double)now(m)->vm[v[i]];
	return sum;
}

static double pgscan_total(const struct model *m)
{
	return paging_sum(m, &scanned, false);
}

static double pgscan_rate(const struct model *m)
{
	return paging_sum(m, &scanned, true);
}

static bool has_pgscan(const struct model *m)
{
	size_t n;
	paging_parts(m, &scanned, &n);
	return n > 0;
}

static double pgsteal_total(const struct model *m)
{
	return paging_sum(m, &stolen, false);
}

static double pgsteal_rate(const struct model *m)
{
	return paging_sum(m, &stolen, true);
}

static bool has_pgsteal(const struct model *m)
{
	size_t n;
	paging_parts(m, &stolen, &n);
	return n > 0;
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
	return m->fc.exhaustion_s;
}

static bool exhausting(const struct model *m)
{
	return m->fc.exhaustion_s >= 0;
}

static double next_victim(const struct model *m)
{
	return m->fc.next_victim_pid;
}

static bool have_victim(const struct model *m)
{
	return m->fc.next_victim_pid > 0;
}

const struct sf_group_row sf_groups[SF_NGROUPS] = {
	[SF_MEM] = {"Mem:", "system"},	     [SF_SWAP] = {"Swap:", "system"},
	[SF_VM] = {"VM:", "system"},	     [SF_KERNEL] = {"Kernel:", "system"},
	[SF_PAGES] = {"Pages:", "system"},   [SF_HUGE] = {"Huge:", "system"},
	[SF_PAGING] = {"Paging:", "system"}, [SF_NUMA] = {"NUMA:", "system"},
	[SF_BPF] = {"BPF:", "bpf"},	     [SF_RECLAIM] = {"Reclaim:", "reclaim"},
	[SF_SELF] = {"Self:", "self"},
};

/* The rows of sysfigs.def; JSON keys: the figure and its unit (_kb, _per_s), as the column
 * table's. A value the kernel lacks leaves its figures not valid: JSON null. */
#define VALUE_OF(id, getter) .get = getter##_##id, .valid = has_##id, .json_null = true
const struct sys_figure sys_figures[SF_NFIGURES] = {
#define MEMINFO_FIG(id, key, name, ...)                                                            \
	[SF_##id] = {.json = #name, .unit = SF_KB, VALUE_OF(id, meminfo), __VA_ARGS__},
#define MEMINFO_COUNT(id, key, name, ...)                                                          \
	[SF_##id] = {.json = #name, .unit = SF_NUMBER, VALUE_OF(id, meminfo), __VA_ARGS__},
#define VMSTAT_FIG(id, key, name, ...)                                                             \
	[SF_##id] = {.json = #name, .unit = SF_COUNT, VALUE_OF(id, vmstat), __VA_ARGS__},
#define VMSTAT_RATE(id, key, name, grp, lbl, hlp, ...)                                             \
	[SF_##id##_RATE] = {.json = #name "_per_s",                                                \
			    .label = lbl,                                                          \
			    .unit = SF_RATE,                                                       \
			    .group = grp,                                                          \
			    VALUE_OF(id, rate),                                                    \
			    __VA_ARGS__},                                                          \
	[SF_##id] = {.json = #name,                                                                \
		     .unit = SF_COUNT,                                                             \
		     .group = grp,                                                                 \
		     VALUE_OF(id, vmstat),                                                         \
		     .metric = "vm_" #name,                                                        \
		     .help = hlp},
#define FIGURE(id, ...) [SF_##id] = {__VA_ARGS__},
#include "sysfigs.def"
};

const size_t n_sys_figures = SF_NFIGURES;

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
