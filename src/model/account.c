#include "account.h"

#include <stdlib.h>
#include <string.h>

const struct account_part_def account_parts[AP_COUNT] = {
	[AP_ANON] = {"anon", "Processes' anonymous", 'a', "AnonPages"},
	[AP_PAGE_CACHE] = {"page_cache", "Page cache (files)", 'c', "Cached - Shmem + Buffers"},
	[AP_SWAP_CACHE] = {"swap_cache", "Swap cache", 'w', "SwapCached"},
	[AP_SHMEM] = {"shmem", "Shmem and tmpfs", 's', "Shmem"},
	[AP_SLAB_RECLAIMABLE] = {"slab_reclaimable", "Slab reclaimable", 'r', "SReclaimable"},
	[AP_SLAB_UNRECLAIMABLE] = {"slab_unreclaimable", "Slab unreclaimable", 'u', "SUnreclaim"},
	[AP_PAGE_TABLES] = {"page_tables", "Page tables", 'p', "PageTables"},
	[AP_KERNEL_STACKS] = {"kernel_stacks", "Kernel stacks", 'k', "KernelStack"},
	[AP_VMALLOC] = {"vmalloc", "Vmalloc", 'v',
			"VmallocUsed, less the kernel stacks where vmalloc maps them"},
	[AP_PERCPU] = {"percpu", "Per-CPU", 'e', "Percpu"},
	[AP_HUGE_PAGES] = {"huge_pages", "Huge pages reserved", 'h',
			   "Hugetlb (else HugePages_Total x Hugepagesize)"},
	[AP_ZSWAP] = {"zswap", "Zswap pool", 'z', "Zswap"},
	[AP_FREE] = {"free", "Free", 'f', "MemFree"},
	[AP_OTHER_KERNEL] = {"other_kernel", "Other kernel", 'o',
			     "MemTotal less all the parts above"},
};

/* Value mi of s, and whether the kernel had it */
static bool value(const struct snapshot *s, int mi, int64_t *out)
{
	*out = (int64_t)s->mem[mi];
	return meminfo_present(s, mi);
}

/* Part p is the sum of the values given (a negative index subtracts the value), known where
 * they all are */
static void part(struct account *a, const struct snapshot *s, int p, const int *mis, size_t n)
{
	int64_t sum = 0, v;
	bool known = true;

	for (size_t i = 0; i < n; i++) {
		known &= value(s, abs(mis[i]) - 1, &v);
		sum += mis[i] < 0 ? -v : v;
	}
	a->kb[p] = known ? sum : 0;
	a->known |= known ? 1u << p : 0;
}

/* The kernel stacks VmallocUsed counts: what vmallocinfo showed where it was read now,
 * else KernelStack where it showed some before, else none */
static int64_t vmapped_stacks(struct account *a, const struct snapshot *s)
{
	if (s->acct.read && s->acct.stacks_read) {
		a->stacks_seen = true;
		a->stacks_vmapped = s->acct.vmalloc_stacks_kb > 0;
		a->stacks_kb = s->acct.vmalloc_stacks_kb;
		return (int64_t)a->stacks_kb;
	}
	return a->stacks_vmapped ? (int64_t)s->mem[MI_KERNEL_STACK] : 0;
}

#define V(mi)  ((mi) + 1) /* a value added */
#define NV(mi) (-(mi)-1)  /* a value subtracted */
#define PART(p, ...)                                                                               \
	part(a, s, p, (const int[]){__VA_ARGS__}, sizeof((const int[]){__VA_ARGS__}) / sizeof(int))

static void split(struct account *a, const struct snapshot *s)
{
	PART(AP_ANON, V(MI_ANON_PAGES));
	PART(AP_PAGE_CACHE, V(MI_CACHED), NV(MI_SHMEM), V(MI_BUFFERS));
	PART(AP_SWAP_CACHE, V(MI_SWAP_CACHED));
	PART(AP_SHMEM, V(MI_SHMEM));
	PART(AP_SLAB_RECLAIMABLE, V(MI_SRECLAIMABLE));
	PART(AP_SLAB_UNRECLAIMABLE, V(MI_SUNRECLAIM));
	PART(AP_PAGE_TABLES, V(MI_PAGE_TABLES));
	PART(AP_KERNEL_STACKS, V(MI_KERNEL_STACK));
	PART(AP_VMALLOC, V(MI_VMALLOC_USED));
	PART(AP_PERCPU, V(MI_PERCPU));
	if (meminfo_present(s, MI_HUGETLB))
		PART(AP_HUGE_PAGES, V(MI_HUGETLB));
	else if (meminfo_present(s, MI_HUGEPAGES_TOTAL) && meminfo_present(s, MI_HUGEPAGESIZE)) {
		a->kb[AP_HUGE_PAGES] =
			(int64_t)(s->mem[MI_HUGEPAGES_TOTAL] * s->mem[MI_HUGEPAGESIZE]);
		a->known |= 1u << AP_HUGE_PAGES;
	}
	PART(AP_ZSWAP, V(MI_ZSWAP));
	PART(AP_FREE, V(MI_MEM_FREE));
	if (a->known & (1u << AP_VMALLOC)) {
		int64_t v = a->kb[AP_VMALLOC] - vmapped_stacks(a, s);
		a->kb[AP_VMALLOC] = v > 0 ? v : 0;
	}
	a->kb[AP_OTHER_KERNEL] = (int64_t)a->total_kb;
	for (int p = 0; p < AP_OTHER_KERNEL; p++)
		a->kb[AP_OTHER_KERNEL] -= a->kb[p];
	a->known |= 1u << AP_OTHER_KERNEL;
	a->sum_kb = 0;
	for (int p = 0; p < AP_COUNT; p++)
		a->sum_kb += a->kb[p];
}

static int by_used(const void *x, const void *y)
{
	const struct tmpfs_mount *a = x, *b = y;
	return (a->used_kb < b->used_kb) - (a->used_kb > b->used_kb);
}

static int by_size(const void *x, const void *y)
{
	const struct shm_segment *a = x, *b = y;
	return (a->size_kb < b->size_kb) - (a->size_kb > b->size_kb);
}

/* The largest tmpfs mounts and shm segments of the snapshot's details */
static void details(struct account *a, const struct snapshot *s)
{
	const struct account_files *f = &s->acct;
	struct tmpfs_mount *m = f->nmounts ? malloc(f->nmounts * sizeof(*m)) : NULL;
	struct shm_segment *g = f->nsegs ? malloc(f->nsegs * sizeof(*g)) : NULL;

	a->details = f->read;
	a->ntmpfs = a->nshm = a->tmpfs_all = a->shm_all = 0;
	a->tmpfs_used_kb = a->shm_size_kb = a->shm_rss_kb = 0;
	a->shm_err = f->shm_err;
	if (!f->read || (f->nmounts && !m) || (f->nsegs && !g))
		goto out;
	if (m) {
		memcpy(m, f->mounts, f->nmounts * sizeof(*m));
		qsort(m, f->nmounts, sizeof(*m), by_used);
	}
	for (size_t i = 0; i < f->nmounts; i++) {
		a->tmpfs_used_kb += m[i].used_kb;
		if (i < ACCOUNT_TOP_TMPFS)
			a->tmpfs[a->ntmpfs++] = m[i];
	}
	a->tmpfs_all = f->nmounts;
	if (g) {
		memcpy(g, f->segs, f->nsegs * sizeof(*g));
		qsort(g, f->nsegs, sizeof(*g), by_size);
	}
	for (size_t i = 0; i < f->nsegs; i++) {
		a->shm_size_kb += g[i].size_kb;
		a->shm_rss_kb += g[i].rss_kb;
		if (i < ACCOUNT_TOP_SHM)
			a->shm[a->nshm++] = g[i];
	}
	a->shm_all = f->nsegs;
out:
	free(m);
	free(g);
}

void account_update(struct account *a, const struct snapshot *s)
{
	a->valid = meminfo_present(s, MI_MEM_TOTAL) && s->mem[MI_MEM_TOTAL];
	a->total_kb = s->mem[MI_MEM_TOTAL];
	a->known = a->trend = 0;
	memset(a->kb, 0, sizeof(a->kb));
	a->dirty_known = meminfo_present(s, MI_DIRTY);
	a->mapped_known = meminfo_present(s, MI_MAPPED);
	a->dirty_kb = s->mem[MI_DIRTY];
	a->mapped_kb = s->mem[MI_MAPPED];
	details(a, s);
	if (!a->valid)
		return;
	split(a, s);
	for (int p = 0; p < AP_COUNT; p++) {
		if (kb_trend_per_min(&a->trends[p], s->mono, (double)a->kb[p], &a->per_min[p]))
			a->trend |= 1u << p;
		kb_trend_add(&a->trends[p], s->mono, (double)a->kb[p]);
	}
}

double account_share(const struct account *a, int p)
{
	return a->total_kb ? 100.0 * (double)a->kb[p] / (double)a->total_kb : 0;
}
