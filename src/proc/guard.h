/* memtop's own protection on a machine short of memory: the OOM killer is told to spare
 * it (oom_score_adj), and once it has reached its steady size its pages are locked in RAM
 * so that reclaim neither drops nor swaps them. */
#ifndef MEMTOP_GUARD_H
#define MEMTOP_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

#define GUARD_OOM_ADJ_DEFAULT (-900)

/* Writes adj to /proc/self/oom_score_adj (lowering it needs CAP_SYS_RESOURCE, as root).
 * Returns 0, or -1 with a one-line reason in err. memtop starts no processes, so no
 * other process inherits it. */
int guard_oom_adj(int adj, char *err, size_t errlen);

/* What it has now: its locked size and oom_score_adj */
void guard_collect(struct self_state *st);

/* Locks memtop's steady working set, at most max bytes (its --lock-max; 0: nothing):
 * the pages resident now of the program's and its libraries' code and data (their files'
 * mappings and the bss after them) and of the main thread's stack. Never the heap, the
 * allocator's other mappings, the threads' stacks or the BPF maps, which grow with the
 * processes and cgroups it lists (guard_lock.c). Once; as root. */
/* Drops from memtop's page tables the code pages of its program and libraries mapped now
 * (MADV_DONTNEED: they stay in the page cache), but a mapping's with a page of its own (a
 * text relocation): called after the first refresh, so that what start-up alone ran
 * (option parsing, the BPF object's load, the first walk's set-up) is no longer counted in
 * its resident size; the second refresh maps again the code a refresh runs, which
 * guard_lock then locks. Once. */
void guard_drop_code(void);
#define GUARD_LOCK_MAX_DEFAULT (16ull << 20)
void guard_lock(uint64_t max);
/* The bytes it locked, in kB (what VmLck counts of it); 0 before guard_lock */
uint64_t guard_locked_kb(void);

#endif
