/* memtop's own cost: the CPU time it has used, its resident size, and the run time of its
 * BPF programs while the kernel's BPF statistics are on. The statistics cost every BPF
 * program on the machine, so memtop turns them on only when asked (--bpf-stats). */
#ifndef MEMTOP_SELFCOST_H
#define MEMTOP_SELFCOST_H

#include <stdbool.h>

#include "snapshot.h"

/* --bpf-stats: at the first collect that finds BPF programs of memtop's attached, turns
 * kernel.bpf_stats_enabled on where it is off, and off again when memtop exits (every
 * return from main and exit(); the loops turn SIGINT, SIGTERM and SIGHUP into a return).
 * Without it memtop never writes the setting. */
void selfcost_want_bpf_stats(bool want);

/* Fills c. Where --bpf-stats asked for the statistics and they cannot be had, says why
 * in bpf->reason, which bpf_source_collect has filled. */
void selfcost_collect(struct self_cost *c, struct bpf_state *bpf);

#endif
