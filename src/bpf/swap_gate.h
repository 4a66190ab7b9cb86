/* The swap gate picks how swap-ins are counted, so that nothing runs on every page fault
 * where that can be helped:
 * - bio mode, from the first time swap is configured: the read bios of swap-ins
 *   (block_bio_queue with end_swap_bio_read, or submit_bio_wait's reads of a swap
 *   partition on a synchronous device such as zram; a thread polls /proc/swaps so that
 *   a swapon counts at once), checked against /proc/vmstat at each refresh; a swap-in
 *   without such a bio (a swapfile on zram, swap over a filesystem) ends it for good;
 * - else count_memcg_events PSWPIN, which fires on every page fault, attached only while
 *   swap-ins can happen: while pages are in swap. Pages reach swap only through reclaim's
 *   writeout, whose tracepoint is rare and cheap; it wakes a thread that attaches the
 *   program at once, before those pages can be read back. Where that tracepoint is
 *   missing, the program stays attached while swap is configured. */
#ifndef MEMTOP_SWAP_GATE_H
#define MEMTOP_SWAP_GATE_H

#include <stdbool.h>
#include <stdint.h>

struct memtop_bpf;
struct swap_gate;

/* Attaches the writeout program and starts the wake-up thread; skel must be loaded with
 * neither count_memcg_events nor writeout attached. Returns NULL with errno on failure. */
struct swap_gate *swap_gate_start(struct memtop_bpf *skel);

/* Attaches or detaches by the state of swap now; pswpin is /proc/vmstat's, read at
 * this refresh. Returns how many programs the gate has attached, and in mode how
 * swap-ins are counted: "bio", "memcg" (count_memcg_events attached) or "idle"
 * (nothing per swap-in attached: swap is empty or off). */
int swap_gate_check(struct swap_gate *g, uint64_t pswpin, const char **mode);

/* Stops the thread and detaches both programs. */
void swap_gate_stop(struct swap_gate *g);

#endif
