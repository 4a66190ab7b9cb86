#include "bpf_procs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#define BATCH 256

/* Key i of a batch of keys of key_size bytes */
static uint64_t key_at(const void *keys, size_t key_size, size_t i)
{
	if (key_size == sizeof(__u32)) {
		__u32 k;

		memcpy(&k, (const char *)keys + i * key_size, sizeof(k));
		return k;
	}
	__u64 k;

	memcpy(&k, (const char *)keys + i * key_size, sizeof(k));
	return k;
}

void bpf_map_each(int fd, size_t key_size, void (*fn)(void *ctx, uint64_t key, uint64_t v),
		  void *ctx)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u64 keys[BATCH], vals[BATCH], batch, key, next = 0, v;
	void *in = NULL, *prev = NULL;
	__u32 count;
	int err;

	do {
		count = BATCH;
		err = bpf_map_lookup_batch(fd, in, &batch, keys, vals, &count, &opts);
		if (err && err != -ENOENT)
			break; /* ENOSPC: a bucket larger than BATCH; EINVAL etc.: no batch support
				*/
		for (__u32 i = 0; i < count; i++)
			fn(ctx, key_at(keys, key_size, i), vals[i]);
		in = &batch;
	} while (!err);
	if (!err || err == -ENOENT)
		return;
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(fd, &next, &v) == 0)
			fn(ctx, key_at(&next, key_size, 0), v);
		memcpy(&key, &next, sizeof(key));
		prev = &key;
	}
}

struct fill {
	struct snapshot *s;
	enum col_id col;
};

static void set(void *ctx, uint64_t tgid, uint64_t v)
{
	const struct fill *f = ctx;
	struct proc_sample *p = snapshot_find(f->s, 0, (int32_t)tgid);

	if (p)
		PROC_FIG(p, f->col) = v;
}

void bpf_procs_fill(int fd, struct snapshot *s, enum col_id col)
{
	struct fill f = {s, col};

	for (size_t i = 0; i < s->nprocs; i++) {
		s->procs[i].valid |= COL_BIT(col);
		PROC_FIG(&s->procs[i], col) = 0;
	}
	bpf_map_each(fd, sizeof(__u32), set, &f);
}
