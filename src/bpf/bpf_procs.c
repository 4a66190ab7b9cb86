#include "bpf_procs.h"

#include <errno.h>
#include <stdlib.h>

#include <bpf/bpf.h>

#define BATCH 256

static void set(struct snapshot *s, __u32 tgid, __u64 v, enum col_id col)
{
	struct proc_sample *p = snapshot_find(s, 0, (int32_t)tgid);

	if (p)
		p->v[col] = v;
}

/* One entry at a time, for kernels without batch lookups on hash maps. */
static void fill_by_key(int fd, struct snapshot *s, enum col_id col)
{
	__u32 key, next;
	__u64 v;
	void *prev = NULL;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(fd, &next, &v) == 0)
			set(s, next, v, col);
		key = next;
		prev = &key;
	}
}

void bpf_procs_fill(int fd, struct snapshot *s, enum col_id col)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 keys[BATCH], batch, count;
	__u64 vals[BATCH];
	void *in = NULL;
	int err;

	for (size_t i = 0; i < s->nprocs; i++) {
		s->procs[i].valid |= COL_BIT(col);
		s->procs[i].v[col] = 0;
	}
	do {
		count = BATCH;
		err = bpf_map_lookup_batch(fd, in, &batch, keys, vals, &count, &opts);
		if (err && err != -ENOENT) {
			/* ENOSPC: a bucket larger than BATCH; EINVAL etc.: no batch support */
			fill_by_key(fd, s, col);
			return;
		}
		for (__u32 i = 0; i < count; i++)
			set(s, keys[i], vals[i], col);
		in = &batch;
	} while (!err);
}
