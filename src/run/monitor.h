/* The refresh pipeline every runner shares (the screen, batch and JSON, --record, --serve
 * and --openmetrics, a replay): the source, the live machine or a recording behind one
 * interface (sources.h); the models of the processes (with their history) and of the
 * cgroups; the recorder; and the drill-down of one process. monitor_refresh is the one
 * refresh: collect, record, step the model, update the cgroups and their recent OOM
 * kills, then the verdict (verdict.h) from both. The runners only say what to read and
 * what to print. */
#ifndef MEMTOP_MONITOR_H
#define MEMTOP_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgmodel.h"
#include "detail.h"
#include "model.h"
#include "record.h"
#include "sources.h"

struct monitor_conf {
	const struct prefs *prefs;     /* the runner's, read at each refresh (keys change them) */
	struct replay *replay;	       /* the source: a recording (owned from then); NULL: live */
	bool no_bpf;		       /* live: no BPF programs, for the machine or a drill-down */
	bool verbose;		       /* libbpf's messages while loading to stderr */
	bool say_fds;		       /* BPF concerns off for the descriptors said on stderr */
	enum bpf_when bpf_when;	       /* live: when the BPF programs load (sources.h) */
	bool pin;		       /* live: --pin, the programs pinned for other memtops */
	uint64_t lock_max;	       /* live: bytes of memtop's working set locked at most */
	const struct record_opts *rec; /* --record: each refresh appended; NULL: none */
};

struct monitor {
	struct model m;
	struct cg_model cgm;  /* the cgroups, in the order the preferences ask for */
	struct detail detail; /* the drill-down's process, while it is open */
	/* the rest is the monitor's own */
	const struct prefs *prefs;
	struct sources *src;
	struct recorder *rec;
	struct drill *drill; /* live: the drill-down's source while it is open */
	bool no_bpf;
	uint64_t lock_max; /* guard_lock's cap */
	long refreshes;	   /* live ones taken */
	size_t at;	   /* a replay: the sample the model took last, SIZE_MAX: none */
	size_t free_held;  /* bytes the allocator held free when it last gave back */
	struct warm *warm; /* beside a --pin service: its last hour, being read (warm.h) */
	char *warm_later;  /* its recording, read once the first screen is out */
	bool warm_wait;	   /* the first refresh waits for it */
};

/* The source, the recorder when c->rec names a file or a directory, the empty models.
 * NULL with a one-line reason in err (c->replay is closed then). */
struct monitor *monitor_open(const struct monitor_conf *c, char *err, size_t errlen);
/* The second refresh waits for the BPF object that started loading after the first,
 * secs (a delay) at most: a refresh from /proc costs several of one from the task
 * iterator */
void monitor_wait_bpf(struct monitor *mon, double secs);
/* Beside a service: its last hour is being read (warming), or read and waiting for the
 * next refresh to take it (ready) */
bool monitor_warming(const struct monitor *mon);
bool monitor_warm_ready(const struct monitor *mon);
/* The command lines a refresh left unread (pids_request names_asked), of every process */
void monitor_fill_names(struct monitor *mon);
/* BPF_LATER: the BPF object starts loading now, on its thread; the runner calls it once
 * its first refresh is out (sources_start_bpf) */
void monitor_start_bpf(struct monitor *mon);
void monitor_close(struct monitor *mon);

/* One refresh: the source's next snapshot (live: what req asks for; a recording: its next
 * sample), appended to the recording being made, the model's step (model_step), the
 * cgroups with their rates, in order, marked by the recent OOM kills, and the model's
 * verdict from both. Returns 0, or -1
 * with a one-line reason in err. Memtop's working set is locked once it is steady (guard.h),
 * c->lock_max bytes at most. */
int monitor_refresh(struct monitor *mon, const struct pids_request *req, char *err, size_t errlen);
/* What the recorder passed over (damage) since it last said: true with one line in buf */
bool monitor_warning(struct monitor *mon, char *buf, size_t size);
/* The costly columns (model_wanted) of processes pids read into the refresh taken, for
 * rows that came on screen since or the processes exported alone; a recording holds what
 * it holds */
void monitor_fill(struct monitor *mon, const int32_t *pids, size_t n);
/* The rows again, processes and cgroups, after a change of order or filter: no new data */
void monitor_reorder(struct monitor *mon);

/* A recording as the source: NULL when live */
struct replay *monitor_replay(const struct monitor *mon);
/* Its samples (0 when live) */
size_t monitor_samples(const struct monitor *mon);
/* The moves through a recording */
enum monitor_seek {
	SEEK_BACK,
	SEEK_FORWARD,
	SEEK_TIME,
	SEEK_NEXT_OOM,
	SEEK_PREV_OOM,
	SEEK_FIRST,
	SEEK_LAST
};
/* The sample a move from mon->at goes to, into *to (SEEK_TIME: the first at or after
 * wall-clock time t); NULL, or why there is none (then *to is mon->at) */
const char *monitor_seek_target(const struct monitor *mon, enum monitor_seek how, double t,
				size_t *to);
/* The model at sample i: one refresh when i is the next, else on a cleared model from
 * the sample before i and those up to MONITOR_SEEK_WINDOW seconds before i, before the
 * range of --begin too (the rates the live run printed at i; the figures over time, the
 * growth columns and the forecast, look back ten minutes). Returns 0, or -1 with a one-line reason
 * in err (mon->at is then the last sample taken). */
#define MONITOR_SEEK_WINDOW 660.0
int monitor_seek(struct monitor *mon, size_t i, char *err, size_t errlen);

/* The drill-down of process pid into mon->detail: live, its own source (drill.h), read
 * again by monitor_detail_refresh; in a replay, what the refresh taken holds of it. *title:
 * its command line, or its name. Returns 0, -1 when the process is gone (live; said), 1
 * when the refresh has no such process (a replay; not said). */
int monitor_detail_open(struct monitor *mon, int32_t pid, const char **title);
/* mon->detail again, after a refresh or a move: 0, -1 when the process is gone (the detail
 * keeps what was seen last), 1 when no drill-down is open */
int monitor_detail_refresh(struct monitor *mon);
void monitor_detail_close(struct monitor *mon);
/* The drill-down's leak tracer (live): a window of secs started, or (secs <= 0) the one
 * running ended; with window, the running one's length made secs. Then the detail again. */
void monitor_detail_leaks(struct monitor *mon, double secs, bool window);
/* When the leak tracer's window ends (clock_mono()), 0 when none runs */
double monitor_detail_leaks_end(const struct monitor *mon);

#endif
