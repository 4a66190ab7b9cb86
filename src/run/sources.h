/* All sources behind one call: fills a snapshot from /proc and BPF. */
#ifndef MEMTOP_SOURCES_H
#define MEMTOP_SOURCES_H

#include "pids.h"
#include "snapshot.h"

struct sources;

/* no_bpf: load no BPF programs; verbose: libbpf's messages while loading to stderr */
struct sources *sources_open(bool no_bpf, bool verbose, char *err, size_t errlen);
int sources_collect(struct sources *src, struct snapshot *s, const struct pids_request *req,
		    char *err, size_t errlen);
/* Reads what req->needs for the processes it names into s, already collected. */
void sources_fill(struct sources *src, struct snapshot *s, const struct pids_request *req);
void sources_close(struct sources *src);

#endif
