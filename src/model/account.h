/* The memory account: MemTotal split into parts that sum to it, each from /proc/meminfo
 * (account.c gives each part's formula; doc/columns.md, "The memory account", explains them), with
 * its share of MemTotal and its change per minute; and the details the account's files
 * give while they are read (the largest tmpfs mounts, the System V shm segments). The
 * model computes it at every refresh (a few additions), so that the change per minute is
 * known as soon as a view shows it. */
#ifndef MEMTOP_ACCOUNT_H
#define MEMTOP_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kbtrend.h"
#include "snapshot.h"

enum account_part {
	AP_ANON,	       /* AnonPages */
	AP_PAGE_CACHE,	       /* Cached - Shmem + Buffers */
	AP_SWAP_CACHE,	       /* SwapCached */
	AP_SHMEM,	       /* Shmem */
	AP_SLAB_RECLAIMABLE,   /* SReclaimable */
	AP_SLAB_UNRECLAIMABLE, /* SUnreclaim */
	AP_PAGE_TABLES,	       /* PageTables */
	AP_KERNEL_STACKS,      /* KernelStack */
	AP_VMALLOC,	       /* VmallocUsed less the kernel stacks it maps */
	AP_PERCPU,	       /* Percpu */
	AP_HUGE_PAGES,	       /* Hugetlb (or HugePages_Total x Hugepagesize) */
	AP_ZSWAP,	       /* Zswap */
	AP_FREE,	       /* MemFree */
	AP_OTHER_KERNEL,       /* MemTotal less all the others: may be negative */
	AP_COUNT
};

struct account_part_def {
	const char *json;    /* its key in JSON's account{} */
	const char *label;   /* in the table */
	char key;	     /* its letter on the bar */
	const char *formula; /* of /proc/meminfo's values, for the manual */
};
extern const struct account_part_def account_parts[AP_COUNT];

#define ACCOUNT_TOP_TMPFS 5  /* the largest tmpfs mounts kept */
#define ACCOUNT_TOP_SHM	  10 /* the largest shm segments kept */

struct account {
	bool valid;	   /* MemTotal was read: the parts are */
	uint64_t total_kb; /* MemTotal */
	int64_t kb[AP_COUNT];
	unsigned known; /* the parts whose values the kernel had (bit per part); the others 0 */
	double per_min[AP_COUNT]; /* KiB per minute over the last minute */
	unsigned trend;		  /* the parts with a change per minute (bit per part) */
	int64_t sum_kb;		  /* of the parts: MemTotal, but for a value left out */
	/* the page cache's dirty and mapped pages (Dirty; Mapped, which counts mapped shmem
	 * too); valid where known */
	uint64_t dirty_kb, mapped_kb;
	bool dirty_known, mapped_known;
	/* the details, where the snapshot read them */
	bool details;
	struct tmpfs_mount tmpfs[ACCOUNT_TOP_TMPFS]; /* largest used first */
	size_t ntmpfs, tmpfs_all;		     /* kept, and mounts in all */
	uint64_t tmpfs_used_kb;			     /* of them all */
	int shm_err;				     /* errno of /proc/sysvipc/shm, 0: read */
	struct shm_segment shm[ACCOUNT_TOP_SHM];     /* largest first */
	size_t nshm, shm_all;
	uint64_t shm_size_kb, shm_rss_kb; /* of them all */
	/* kernel stacks are vmalloc'd (CONFIG_VMAP_STACK): /proc/vmallocinfo showed some,
	 * remembered once read; stacks_kb, what it counted (or KernelStack where not read) */
	bool stacks_vmapped, stacks_seen;
	uint64_t stacks_kb;
	struct kb_trend trends[AP_COUNT];
};

/* The account of snapshot s; its change per minute from the samples kept */
void account_update(struct account *a, const struct snapshot *s);
/* Part p's share of MemTotal, percent */
double account_share(const struct account *a, int p);

#endif
