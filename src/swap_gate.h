/* The swap gate keeps the swap-in program (count_memcg_events, which fires on every page
 * fault) attached only while swap-ins can happen: while pages are in swap. Pages reach
 * swap only through reclaim's writeout, whose tracepoint is rare and cheap; it wakes a
 * thread that attaches the program at once, before those pages can be read back. Where
 * that tracepoint is missing, the program stays attached while swap is configured. */
#ifndef MEMTOP_SWAP_GATE_H
#define MEMTOP_SWAP_GATE_H

#include <stdbool.h>

struct swapin_bpf;
struct swap_gate;

/* Attaches the writeout program and starts the wake-up thread; skel must be loaded with
 * neither count_memcg_events nor writeout attached. Returns NULL with errno on failure. */
struct swap_gate *swap_gate_start(struct swapin_bpf *skel);

/* Attaches or detaches by the state of swap now; returns whether attached. */
bool swap_gate_check(struct swap_gate *g);

/* Whether the writeout tracepoint gates the program (false: attached with any swap). */
bool swap_gate_lazy(const struct swap_gate *g);

/* Stops the thread and detaches both programs. */
void swap_gate_stop(struct swap_gate *g);

#endif
