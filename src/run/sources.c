#include "sources.h"

#include <stdlib.h>
#include <unistd.h>

#include "bpf_loader.h"
#include "bpf_pins.h"
#include "bpf_source.h"
#include "cgroup.h"
#include "guard.h"
#include "marks.h"
#include "numa.h"
#include "proc_walk.h"
#include "procfs.h"
#include "replay.h"
#include "selfcost.h"
#include "slabinfo.h"
#include "account_files.h"
#include "util.h"

struct sources {
	struct proc_walk *walk;
	struct pids_collector *pids;
	struct bpf_source *bpf;	   /* NULL while the loader has it */
	struct bpf_loader *loader; /* the BPF object loading on its thread; NULL: none */
	bool bpf_later;		   /* BPF_LATER: the loader not started yet */
	struct bpf_opts opts;	   /* how it loads then */
	long collects;		   /* refreshes taken */
	struct cg_reader *cg;
	struct slab_reader *slab;
	struct replay *rp; /* a recording instead of the above */
};

/* The loader's object, once it is ready: from then on the refresh's own */
static void take_bpf(struct sources *src, bool wait)
{
	if (!src->loader || !(src->bpf = bpf_loader_take(&src->loader, wait)))
		return;
	cg_use_bpf(src->cg, bpf_source_cgroups(src->bpf));
}

/* BPF_LATER beside a service that pins its programs (bpf_pins.h): they are taken now (a
 * few milliseconds, nothing loaded), so that the first refresh walks the processes with
 * the service's task iterator instead of /proc; where there are none, the load stays for
 * later */
static void pins_now(struct sources *src)
{
	char rec[8];

	if (geteuid() || !bpf_pins_service(rec, sizeof(rec)))
		return;
	src->opts.pins_only = true;
	src->bpf = bpf_source_open(&src->opts);
	src->opts.pins_only = false;
	src->bpf_later = !src->bpf;
}

/* From this many processes on, a first refresh through the BPF task iterator (about 2 µs
 * a process), its programs loaded first (100-150 ms of CPU), is out before one through
 * /proc (about 35 µs a process), and the load's peak comes while memtop holds little */
#define BPF_FIRST_PROCS 4000

/* BPF_LATER with many processes, as root: loads now, for the first refresh (where no
 * service's pins were taken, and no test holds the load back) */
static void many_now(struct sources *src)
{
	if (!src->bpf_later || geteuid() || bpf_loader_gated() ||
	    proc_walk_count(src->walk, BPF_FIRST_PROCS) < BPF_FIRST_PROCS)
		return;
	src->bpf_later = false;
	src->bpf = bpf_source_open(&src->opts);
}

struct sources *sources_open(enum bpf_when when, const struct bpf_opts *o, char *err, size_t errlen)
{
	struct sources *src = xcalloc(1, sizeof(*src));
	src->walk = proc_walk_new(err, errlen);
	if (src->walk)
		src->pids = pids_new(err, errlen);
	if (!src->pids) {
		proc_walk_free(src->walk);
		free(src);
		return NULL;
	}
	mark("proc walk, libproc2 opened");
	/* libbpf's messages go to stderr while loading: then nothing else is on the
	 * terminal. Later: its thread starts once the first screen is out (sources_start_bpf),
	 * not to take a CPU from the first refresh on a machine with few */
	src->bpf_later = when == BPF_LATER && !o->verbose;
	src->opts = *o;
	src->opts.off = when == BPF_NO	    ? "--no-bpf"
			: when == BPF_NEVER ? "not loaded for one refresh (-n 1)"
					    : NULL;
	if (!src->bpf_later)
		src->bpf = bpf_source_open(&src->opts);
	else
		pins_now(src);
	many_now(src);
	src->opts.recording = NULL; /* the caller's; a service loads now, none later */
	mark("bpf opened (unless later)");
	src->cg = cg_open();
	mark("cg_open");
	src->slab = slab_reader_new();
	mark("slab reader");
	cg_use_bpf(src->cg, bpf_source_cgroups(src->bpf));
	return src;
}

void sources_start_bpf(struct sources *src)
{
	if (!src->bpf_later)
		return;
	src->bpf_later = false;
	if (!(src->loader = bpf_loader_start(&src->opts))) { /* no thread: loaded here */
		src->bpf = bpf_source_open(&src->opts);
		cg_use_bpf(src->cg, bpf_source_cgroups(src->bpf));
	}
}

void sources_wait_bpf(struct sources *src, double secs)
{
	if (src->loader && bpf_loader_wait(src->loader, secs))
		take_bpf(src, false);
}

struct sources *sources_replay(struct replay *rp)
{
	struct sources *src = xcalloc(1, sizeof(*src));
	src->rp = rp;
	return src;
}

int sources_collect(struct sources *src, struct snapshot *s, const struct pids_request *req,
		    char *err, size_t errlen)
{
	if (src->rp)
		return replay_collect(src->rp, s, err, errlen);
	if (src->collects++) /* a runner that did not start it after its first output */
		sources_start_bpf(src);
	s->hertz = sysconf(_SC_CLK_TCK);
	s->page_kb = sysconf(_SC_PAGESIZE) / 1024;
	/* meminfo first: whether swap holds pages decides what the walk reads */
	if (procfs_meminfo(s, err, errlen))
		return -1;
	/* the memory account's details beside the meminfo they detail */
	if (req->account)
		account_collect(s);
	/* each NUMA node's meminfo: one small file per node */
	s->nnodes = numa_nodes_read(s->nodes, MT_MAX_NODES);
	mark("meminfo, account, numa");
	take_bpf(src, false);
	double start = clock_mono();
	size_t from = s->nprocs;
	if (bpf_source_walk(src->bpf, s) == 0) {
		/* the kernel's task iterator may start after pid 1 */
		if (!snapshot_find(s, from, 1))
			proc_walk_pid(src->walk, s, 1); /* its cgroup ids 0: not read */
	} else if (proc_walk_collect(src->walk, s, err, errlen)) {
		return -1;
	}
	mark("walk (stat, statm)");
	pids_finish(src->pids, s, from, req);
	mark("pids_finish (cmdline, cgroup, costly files)");
	/* the processes' counters were read over the walk (0.5 s at 10,000 processes): stamp
	 * them with its middle; the system counters and the BPF maps are read together after
	 * it, at one moment, so that each rate spans its own interval */
	s->mono_procs = (start + clock_mono()) / 2;
	/* the cgroups before the BPF maps, which fill the figures of those listed (reclaim
	 * stalls by cgroup id) */
	if (req->cg_cols || req->cg_self)
		cg_collect(src->cg, s, req->cg_cols, req->cg_self);
	mark("cgroups");
	/* the sample's time on both clocks read together: a kill's time (wall, from the
	 * event) is put on the monotonic clock through them (growth.c), and the wall read
	 * before the walk put a kill during it after the refresh whose walk saw its victim
	 * already reaped, as though that refresh came before it */
	s->wall = clock_wall();
	s->mono = clock_mono();
	if (procfs_counters(s, err, errlen))
		return -1;
	size_t first_event = s->nevents;
	mark("counters (vmstat, psi...)");
	bpf_source_collect(src->bpf, s);
	mark("bpf collect");
	/* every kill is counted, listed or not; the removed cgroups with kills after the
	 * listed ones */
	cg_count_kills(src->cg, s, first_event);
	if (s->cg_cols & CGCOL_BIT(CGCOL_OOM_KILLS))
		cg_fill_kills(src->cg, s);
	if (req->slab)
		slab_collect(src->slab, s);
	mark("kills, slab");
	guard_collect(&s->self);
	selfcost_collect(&s->cost, &s->bpf);
	mark("guard, selfcost");
	return 0;
}

bool sources_fill(struct sources *src, struct snapshot *s, const struct pids_request *req)
{
	if (src->rp)
		return false;
	pids_fill(src->pids, s, req);
	return true;
}

struct replay *sources_recording(const struct sources *src)
{
	return src->rp;
}

void sources_close(struct sources *src)
{
	if (!src)
		return;
	pids_free(src->pids);
	proc_walk_free(src->walk);
	take_bpf(src, true);
	bpf_source_close(src->bpf);
	cg_close(src->cg);
	slab_reader_free(src->slab);
	replay_close(src->rp);
	free(src);
}
