/* The BPF object loaded on a thread of its own, so that the first refresh (from /proc)
 * does not wait for the kernel to verify memtop's programs. The thread only builds a
 * struct bpf_source, exactly as bpf_source_open would, and hands it over ready: the
 * refresh takes it when it is done (sources.c), and from then on it is the refresh's
 * alone. Closing is bpf_source_close of what bpf_loader_take returns, the one cleanup
 * path, whether the load had finished or not. */
#ifndef MEMTOP_BPF_LOADER_H
#define MEMTOP_BPF_LOADER_H

#include <stdbool.h>

#include "bpf_source.h"

struct bpf_loader;

/* Starts loading on a thread. NULL when no thread could be made (then the caller loads
 * with bpf_source_open itself). */
struct bpf_loader *bpf_loader_start(const struct bpf_opts *o);

/* Waits until the load is done, secs at most; whether it is */
bool bpf_loader_wait(const struct bpf_loader *l, double secs);

/* The source, once loaded (wait: waits for it), the loader then freed and *l NULL; NULL
 * while it is still loading (without wait) or when *l is NULL. */
struct bpf_source *bpf_loader_take(struct bpf_loader **l, bool wait);

/* Whether MEMTOP_BPF_GATE holds the load (bpf_loader.c): for the tests that watch the
 * refreshes before it, so nothing is loaded before the first refresh either */
bool bpf_loader_gated(void);

#endif
