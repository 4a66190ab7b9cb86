/* The snapshot: what sources fill in one refresh. Plain data, no behaviour. */
#ifndef MEMTOP_SNAPSHOT_H
#define MEMTOP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgcolumns.h"
#include "columns.h"
#include "nodes.h"

#define MT_COMM_LEN   16 /* kernel TASK_COMM_LEN */
#define MT_HIST_SLOTS 32 /* log2 microsecond buckets */

/* The /proc/meminfo values (KiB) and /proc/vmstat counters memtop reads, as sysfigs.def
 * declares them: snapshot.mem[MI_...] and snapshot.vm[VS_...] */
enum meminfo_id {
#define MEMINFO(id, key, name)		MI_##id,
#define MEMINFO_FIG(id, key, name, ...) MI_##id,
#include "sysfigs.def"
	MI_COUNT
};

enum vmstat_id {
#define VMSTAT(id, key, name)	       VS_##id,
#define VMSTAT_FIG(id, key, name, ...) VS_##id,
#include "sysfigs.def"
	VS_COUNT
};

/* Which values the kernel had: a key missing from the file is absent, not 0. The snapshot
 * keeps each value's presence against its default (mem_presence bit MI_x, vm_presence bit
 * VS_x): the values recorded before presence was (the rows of sysfigs.def up to SwapFree
 * and oom_kill) are present by default, the later ones absent. So a recording made before
 * presence was recorded, whose presence fields read 0, has its values and the later ones
 * absent. */
#define MI_PRESENT_DEFAULT ((1ull << (MI_SWAP_FREE + 1)) - 1)
#define VS_PRESENT_DEFAULT ((1ull << (VS_OOM_KILL + 1)) - 1)
_Static_assert(MI_COUNT <= 64 && VS_COUNT <= 64, "a value's presence is a bit of 64");

struct sys_psi { /* /proc/pressure/memory */
	bool present;
	double some_avg10;
	double full_avg10;
	/* the totals= of the some and full lines: microseconds stalled since boot */
	bool totals;
	uint64_t some_total_us, full_total_us;
};

struct self_state {	    /* memtop's own protection */
	uint64_t locked_kb; /* VmLck */
	int oom_score_adj;
	bool adj_lowered; /* its oom_score_adj is the one asked for (as root) */
};

struct self_cost {	 /* what memtop itself costs */
	double cpu_s;	 /* CPU time it has used since it started, user + system, all threads */
	uint64_t rss_kb; /* its resident size (statm) */
	bool bpf_stats;	 /* the kernel's BPF statistics are on (kernel.bpf_stats_enabled) */
	/* its BPF programs' run time since it started, as the kernel counts it while the
	 * statistics are on; read only then */
	uint64_t bpf_run_ns;
};

/* Its fields ordered so no padding is between them: a snapshot holds one per process */
struct proc_sample {
	int32_t pid;
	int32_t ppid;
	uint32_t uid;
	unsigned valid;		    /* the columns (COL_BIT) whose figures were read */
	unsigned tried;		    /* the costly columns (COL_BIT) whose collectors ran for it */
	bool kthread;		    /* a kernel thread (PF_KTHREAD) */
	char comm[MT_COMM_LEN + 1]; /* raw, untrusted */
	uint64_t start_ticks;	    /* with pid, identifies a process across refreshes */
	const char *cmd;  /* raw, untrusted; owned by the collector, valid for two refreshes */
	const char *user; /* owned by the collector */
	/* its memory cgroup as /proc/PID/cgroup names it, while the CGROUP column is wanted;
	 * raw, untrusted; owned by the collector, valid for two refreshes; NULL: not read */
	const char *cgroup;
	/* the ids (directory inode numbers) of its memory cgroup (v1) and of its cgroup in
	 * the v2 hierarchy, where the task iterator read them (procs_cg_ids); 0: not read;
	 * MTB_CG_ID_NONE (all ones): none, every thread of it has exited */
	uint64_t memcg_id;
	uint64_t cgroup2_id;
	/* the figures of the column table (columns.h) a sample keeps, column c's in
	 * fig[pv_of[c]]: KiB, scores, and for rate columns the cumulative counter (faults;
	 * BPF swap-ins in pages and reclaim stalls in ns, since memtop started) */
	uint64_t fig[PV_COUNT];
};

/* Column c's figure in a process's sample p, for a column a sample keeps (pv_of[c] >= 0) */
#define PROC_FIG(p, c) ((p)->fig[pv_of[c]])

enum mt_event_type {
	MT_EV_OOM_KILL = 1,
};

struct mt_event {
	enum mt_event_type type;
	double ts;    /* wall clock, seconds since the epoch */
	bool earlier; /* from the kernel log, before memtop started */
	int32_t pid;
	char comm[MT_COMM_LEN + 1];
	uint32_t uid;
	uint64_t total_vm_kb;
	uint64_t anon_rss_kb;
	uint64_t file_rss_kb;
	uint64_t shmem_rss_kb;
	char memcg[128];
	uint64_t memcg_id; /* the memory cgroup's id (its directory's inode); 0: not known */
	int32_t trigger_pid;
	char trigger_comm[MT_COMM_LEN + 1];
};

struct mt_hist { /* log2 buckets: slot i holds [2^i, 2^(i+1)) us, slot 0 holds [0, 2) */
	uint64_t count;
	uint64_t total_us;
	uint64_t slots[MT_HIST_SLOTS];
};

struct reclaim_stats { /* cumulative since memtop started */
	struct mt_hist direct;
	struct mt_hist memcg;
	struct mt_hist shrink_slab;
	uint64_t nr_reclaimed;
	uint64_t kswapd_wakeups;
};

#define MT_BPF_CONCERNS 8 /* at most */

struct bpf_state {
	bool enabled;
	bool loading;	  /* the BPF object is loading still: its figures are not yet known */
	char reason[160]; /* why counters are off, one line; empty when all is on */
	int programs;	  /* programs attached */
	uint64_t ring_drops;
	uint64_t oom_kills; /* seen by oom/mark_victim since start */
	bool have_oom;	    /* OOM kills are traced (oom/mark_victim) */
	bool have_reclaim;
	bool have_swapin;
	char swapin_mode[8]; /* how swap-ins are counted: "bio", "memcg", "idle" or
			      "none" (this kernel and swap device give no way) */
	struct reclaim_stats reclaim;
	uint64_t swapins; /* pages swapped in system-wide since start (PSWPIN); valid when
			     have_swapin */
	/* each BPF concern (src/bpf/bpf_concern.h): its name ("oom") and "on", or why it is
	 * off */
	struct {
		char name[16];
		char why[96];
		bool on;
	} concern[MT_BPF_CONCERNS];
	int nconcerns;
};

/* One memory cgroup (src/cgroup/cgroup.c). A snapshot holds them in the hierarchy's order: each
 * after its parent, siblings by name. */
/* What named a memory cgroup (cgroup_names.h) */
enum cg_runtime {
	CG_RT_NONE,
	CG_RT_DOCKER,
	CG_RT_PODMAN,
	CG_RT_KUBERNETES,
	CG_RT_SYSTEMD,
	CG_RT_COUNT
};
#define CG_NAME_MAX 256 /* a cgroup's name's bytes at most, its NUL included */

struct cg_sample {
	char *path; /* as /proc/PID/cgroup names it, "/" for the root; raw, untrusted */
	/* the container, pod or unit it holds (cgroup_names.h), NULL where none: raw,
	 * untrusted, shorter than CG_NAME_MAX; and what named it (enum cg_runtime) */
	char *name;
	uint8_t runtime;
	uint64_t id;	/* its directory's inode number: the kernel's cgroup id (kernfs node
			   id), which BPF programs read */
	uint32_t depth; /* below the hierarchy's root (mounted directory): 0 */
	int32_t parent; /* index of its parent among the snapshot's cgroups; -1: none */
	/* the figures of the cgroup column table (cgcolumns.h), by column: KiB, counts, PSI
	 * averages in hundredths; for rate columns the cumulative counter */
	uint64_t v[CGCOL_COUNT];
	unsigned valid;	    /* the columns (CGCOL_BIT) whose figures were read */
	unsigned unlimited; /* of those, the limits that are "max" (v1: the largest value) */
	/* it no longer exists: listed for the OOM kills counted in it (its OOM column alone
	 * has a value), an hour after the last */
	bool removed;
	/* a cgroup with a limit: its processes and those below it, the snapshot's cg_tasks
	 * from task0 on (cgroup_tasks.c); whether its OOM kill takes them all (v2
	 * memory.oom.group) */
	uint32_t task0, ntasks;
	bool oom_group;
	/* the forecast the model made (forecast.h): its growth, KiB a minute, and seconds to
	 * its limit; the process its OOM kill would take (0: none); which of them it has
	 * (CGCOL_BIT of CGCOL_GROWTH, CGCOL_LIMIT_IN, CGCOL_VICTIM) */
	double growth_kb_min, limit_in_s;
	int32_t victim;
	unsigned trend;
};

/* A process of a limited cgroup, in the order its cgroup.procs lists it */
struct cg_task {
	int32_t pid;
	int16_t oom_score_adj;
};

/* memtop's own memory cgroup, and the limit it lives under */
struct cg_self {
	bool present;	   /* found in /proc/self/cgroup and under the hierarchy read */
	char *path;	   /* the cgroup whose limit is lowest: memtop's own or an ancestor's;
			      memtop's own where none is below MemTotal */
	uint64_t usage_kb; /* that cgroup's */
	uint64_t limit_kb; /* its limit, where limited */
	bool limited;	   /* its limit is below MemTotal */
};

/* One cache of /proc/slabinfo (the slab screen, --slab) */
struct slab_cache {
	char name[64]; /* raw, untrusted */
	uint64_t active_objs, num_objs;
	uint64_t objsize; /* bytes */
	uint64_t objperslab, pagesperslab;
	uint64_t active_slabs, num_slabs;
	/* /sys/kernel/slab/NAME/reclaim_account: 1 for a SLAB_RECLAIM_ACCOUNT cache (counted
	 * in SReclaimable), 0 not, -1 unknown (no such file) */
	int8_t reclaim;
};

/* /proc/slabinfo, read while the slab screen is open or with --slab */
struct slab_info {
	bool read;		   /* asked for this refresh (then caches, or err) */
	int err;		   /* errno of the read; 0: read */
	struct slab_cache *caches; /* in the file's order */
	size_t n, cap;
};

/* A tmpfs mount (/proc/self/mountinfo), its use by statfs: blocks less free blocks */
struct tmpfs_mount {
	char path[256]; /* the first mount point of its filesystem; raw, untrusted */
	uint64_t size_kb, used_kb;
};

/* A System V shared memory segment (/proc/sysvipc/shm) */
struct shm_segment {
	int32_t key, shmid;
	uint64_t size_kb; /* its size, rounded up */
	uint64_t rss_kb;  /* resident (in Shmem); 0 where the kernel does not say */
	uint64_t nattch;  /* processes attached */
};

/* The memory account's details, read while its screen is open or with --account */
struct account_files {
	bool read;		    /* asked for this refresh */
	struct tmpfs_mount *mounts; /* every tmpfs filesystem once, in mountinfo's order */
	size_t nmounts, mounts_cap;
	int shm_err; /* errno of /proc/sysvipc/shm; 0: read into segs */
	struct shm_segment *segs;
	size_t nsegs, segs_cap;
	/* /proc/vmallocinfo's pages of kernel stacks (alloc_thread_stack_node, where
	 * CONFIG_VMAP_STACK maps them so, counted in VmallocUsed and KernelStack both) */
	bool stacks_read;
	uint64_t vmalloc_stacks_kb;
};

struct snapshot {
	double mono;	   /* CLOCK_MONOTONIC seconds when vmstat and the BPF maps were read */
	double mono_procs; /* the same for the processes' counters (the middle of the walk) */
	double wall;	   /* CLOCK_REALTIME seconds */
	double uptime;	   /* /proc/uptime, seconds */
	long hertz;	   /* clock ticks per second */
	long page_kb;
	uint64_t mem[MI_COUNT]; /* /proc/meminfo, KiB */
	uint64_t vm[VS_COUNT];	/* /proc/vmstat, cumulative counts */
	uint64_t mem_presence;	/* the values present, against MI_PRESENT_DEFAULT */
	uint64_t vm_presence;	/* against VS_PRESENT_DEFAULT */
	struct sys_psi psi;
	struct self_state self;
	struct self_cost cost;
	struct proc_sample *procs;
	size_t nprocs;
	size_t ntasks;	   /* processes on the system, also those -p leaves out */
	bool procs_cg_ids; /* every process's cgroup ids were read (the BPF task iterator) */
	size_t procs_cap;
	struct mt_event *events; /* new since the previous snapshot */
	size_t nevents;
	size_t events_cap;
	struct bpf_state bpf;
	int cg_version;	     /* the memory cgroup hierarchy read: 1, 2, or 0 (none) */
	unsigned cg_cols;    /* the cgroup columns asked for (CGCOL_BIT); 0: none listed */
	double mono_cgroups; /* CLOCK_MONOTONIC seconds when the cgroups were read (the middle) */
	struct cg_sample *cgroups; /* owned, their paths too */
	size_t ncgroups;
	size_t cgroups_cap;
	struct cg_self cg_self;	  /* its path owned */
	struct cg_task *cg_tasks; /* of the cgroups with a limit (cg_sample.task0) */
	size_t ncg_tasks, cg_tasks_cap;
	struct slab_info slab;	   /* its caches owned */
	struct account_files acct; /* its arrays owned */
	/* the NUMA nodes' memory (nodes.h), by node number; 0 nodes: not known (a kernel
	 * without NUMA's sysfs, or a recording made before they were recorded) */
	struct node_mem nodes[MT_MAX_NODES];
	size_t nnodes;
};

/* Whether the kernel had value MI_x or VS_x */
static inline bool meminfo_present(const struct snapshot *s, int mi)
{
	return ((s->mem_presence ^ MI_PRESENT_DEFAULT) >> mi) & 1;
}
static inline bool vmstat_present(const struct snapshot *s, int vs)
{
	return ((s->vm_presence ^ VS_PRESENT_DEFAULT) >> vs) & 1;
}
void snapshot_init(struct snapshot *s);
void snapshot_free(struct snapshot *s);
/* Drops the contents for the next refresh and keeps the allocations of the arrays. */
void snapshot_reuse(struct snapshot *s);
struct proc_sample *snapshot_add_proc(struct snapshot *s);
struct mt_event *snapshot_add_event(struct snapshot *s);
/* A new cgroup at the end, zeroed but for a copy of path, its parent -1 */
struct cg_sample *snapshot_add_cgroup(struct snapshot *s, const char *path);
/* The cgroup whose id is id (0: any) at path among s's; NULL if none */
const struct cg_sample *snapshot_cgroup(const struct snapshot *s, uint64_t id, const char *path);
/* Removes cgroups[i] */
void snapshot_drop_cgroup(struct snapshot *s, size_t i);
/* Orders processes by pid, as a snapshot keeps them */
int snapshot_cmp_pid(const void *a, const void *b);
/* The process pid among procs[from..], sorted by pid; NULL if none */
struct proc_sample *snapshot_find(const struct snapshot *s, size_t from, int32_t pid);

#endif
