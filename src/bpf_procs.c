#include "bpf_procs.h"

#include <errno.h>
#include <stdlib.h>

#include <bpf/bpf.h>

#define BATCH 256

static int cmp_pid(const void *key, const void *elem)
{
	int32_t pid = *(const int32_t *)key;
	const struct proc_sample *p = elem;

	return (pid > p->pid) - (pid < p->pid);
}

static uint64_t *field_of(struct proc_sample *p, size_t offset)
{
	return (uint64_t *)((char *)p + offset);
}

static void set(struct snapshot *s, __u32 tgid, __u64 v, size_t offset)
{
	int32_t pid = (int32_t)tgid;
	struct proc_sample *p = bsearch(&pid, s->procs, s->nprocs, sizeof(*p), cmp_pid);

	if (p)
		*field_of(p, offset) = v;
}

/* One entry at a time, for kernels without batch lookups on hash maps. */
static void fill_by_key(int fd, struct snapshot *s, size_t offset)
{
	__u32 key, next;
	__u64 v;
	void *prev = NULL;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(fd, &next, &v) == 0)
			set(s, next, v, offset);
		key = next;
		prev = &key;
	}
}

void bpf_procs_fill(int fd, struct snapshot *s, size_t offset)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 keys[BATCH], batch, count;
	__u64 vals[BATCH];
	void *in = NULL;
	int err;

	for (size_t i = 0; i < s->nprocs; i++) {
		s->procs[i].bpf_valid = true;
		*field_of(&s->procs[i], offset) = 0;
	}
	do {
		count = BATCH;
		err = bpf_map_lookup_batch(fd, in, &batch, keys, vals, &count, &opts);
		if (err && err != -ENOENT) {
			/* ENOSPC: a bucket larger than BATCH; EINVAL etc.: no batch support */
			fill_by_key(fd, s, offset);
			return;
		}
		for (__u32 i = 0; i < count; i++)
			set(s, keys[i], vals[i], offset);
		in = &batch;
	} while (!err);
}
