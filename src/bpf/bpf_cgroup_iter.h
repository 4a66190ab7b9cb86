/* The memory cgroups' page counters from a BPF cgroup iterator (bpf/cgroups.bpf.c), a
 * concern (bpf_concern.h) whose program is loaded with the others but attached only
 * while the cgroup reader asks for it: the iterator's link is made for one hierarchy,
 * at the first read, and destroyed when the cgroup columns are no longer asked for. The
 * reader's side, which turns its records into the columns, is cgroup_from_bpf.c. */
#ifndef MEMTOP_BPF_CGROUP_ITER_H
#define MEMTOP_BPF_CGROUP_ITER_H

#include <stddef.h>

#include "bpf/memtop.h"

struct cg_iter; /* the concern's state */

/* Every cgroup at and below the directory dir (the memory hierarchy's mount point), parents
 * first (the first is dir's), from one read of the iterator, which is made for dir at the
 * first call (and again when dir changes); more walks where the output does not fit one.
 * *recs stays valid until the next call. Returns 0, or a negative errno. */
int bpf_cgroup_iter_read(struct cg_iter *it, const char *dir, const struct mtb_cgroup_rec **recs,
			 size_t *n);
/* The kernfs name of (*recs)[i] of the last read, raw (any byte but '/' and NUL); "" where
 * it was not read (no MTB_CG_NAMED) */
const char *bpf_cgroup_iter_name(const struct cg_iter *it, size_t i);

/* Destroys the iterator's link, if made: the cgroups are not asked for */
void bpf_cgroup_iter_stop(struct cg_iter *it);

#endif
