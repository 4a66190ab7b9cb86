/* The source of the snapshots behind one interface: the live machine (/proc and BPF) or a
 * recording (--replay, replay.h), which fills a snapshot as /proc and BPF fill it. */
#ifndef MEMTOP_SOURCES_H
#define MEMTOP_SOURCES_H

#include "bpf_source.h"
#include "pids.h"
#include "snapshot.h"

struct sources;
struct replay;

/* When the BPF programs load: now, before the first refresh; later, on a thread
 * (bpf_loader.h), the refreshes till it is done without them (snapshot bpf.loading); not
 * at all, for --no-bpf or for a single refresh, which would show none of their figures */
enum bpf_when { BPF_NOW, BPF_LATER, BPF_NO, BPF_NEVER };

/* The live machine, its BPF programs loaded when says (with verbose: now, libbpf's
 * messages while loading to stderr) */
struct sources *sources_open(enum bpf_when when, const struct bpf_opts *o, char *err,
			     size_t errlen);
/* BPF_LATER: starts loading the BPF object on its thread, once the first refresh is out
 * (else the second refresh starts it); nothing otherwise */
void sources_start_bpf(struct sources *src);
/* Waits for the BPF object loading on its thread, secs at most (none loading: returns) */
void sources_wait_bpf(struct sources *src, double secs);
/* A recording, owned from then (closed by sources_close) */
struct sources *sources_replay(struct replay *rp);
/* The next refresh into s (model_begin's): the machine now, what req asks for; or the
 * recording's sample at its cursor (replay_collect), req unused. Returns 0, or -1 with a
 * one-line reason in err. */
int sources_collect(struct sources *src, struct snapshot *s, const struct pids_request *req,
		    char *err, size_t errlen);
/* Reads what req->needs for the processes it names into s, already collected. A recording
 * holds what it holds: false, s unchanged. */
bool sources_fill(struct sources *src, struct snapshot *s, const struct pids_request *req);
/* The recording, NULL for the live machine */
struct replay *sources_recording(const struct sources *src);
void sources_close(struct sources *src);

#endif
