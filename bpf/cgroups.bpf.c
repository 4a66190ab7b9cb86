// SPDX-License-Identifier: GPL-2.0
/* The memory cgroups' page counters in one read: a cgroup iterator that writes, per
 * cgroup of the memory hierarchy, what its small files (memory.current, memory.max,
 * memory.usage_in_bytes, memory.limit_in_bytes, ...) would say, unformatted
 * (bpf/memtop.h: struct mtb_cgroup_rec). The files cost the kernel a few microseconds
 * each to format; these are a dozen reads.
 *
 * The struct mem_cgroup is read with bpf_probe_read_kernel (BPF_CORE_READ), with no
 * kfunc (bpf_rdonly_cast, Linux 6.2, would fail the whole object on 6.1). A dozen helper
 * calls a cgroup cost about a microsecond; the files cost thirty.
 *
 * Each record also gives the tree: the cgroup's kernfs name and its parent's id, from
 * which user space makes the paths without listing the directories. A walk's output
 * must fit the seq_file's buffer (8 pages): the iterator holds cgroup_mutex for one
 * read() and fails the next with EOPNOTSUPP. So the reader starts a walk again at the
 * first cgroup that did not fit: cg_skip, set by user space between walks, is the place
 * (seq_num) of the first cgroup written. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "memtop.h"

char LICENSE[] SEC("license") = "GPL";

__u64 cg_skip = 0; /* .bss: user space sets it before a walk */

/* a record with room for its name */
struct rec_out {
	struct mtb_cgroup_rec r;
	char name[MTB_CG_NAME_MAX + 8];
};

/* kernels before 4.16 named a page counter's usage "count" and its max "limit" */
struct page_counter___old {
	atomic_long_t count;
	unsigned long limit;
};

static __u64 counter_usage(struct page_counter *c)
{
	if (bpf_core_field_exists(c->usage))
		return BPF_CORE_READ(c, usage.counter);
	return BPF_CORE_READ((struct page_counter___old *)c, count.counter);
}

static __u64 counter_max(struct page_counter *c)
{
	if (bpf_core_field_exists(c->max))
		return BPF_CORE_READ(c, max);
	return BPF_CORE_READ((struct page_counter___old *)c, limit);
}

/* The part of a struct mem_cgroup that holds the figures, from its page counters to
 * soft_limit (1.7 KiB on Linux 6.18), read in one helper call where it fits: a dozen
 * calls cost a microsecond a cgroup, one a fifth of that. */
#define MEMCG_SPAN 4096
struct memcg_bytes {
	__u8 b[MEMCG_SPAN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct memcg_bytes);
} cg_scratch SEC(".maps");

static __always_inline __u64 at(const struct memcg_bytes *buf, __u32 off)
{
	if (off > MEMCG_SPAN - 8)
		return 0;
	return *(const __u64 *)&buf->b[off];
}

static __always_inline __u32 later(__u32 a, __u32 b)
{
	return a > b ? a : b;
}

/* The figures of memcg_figures() from one read, where the kernel has every field (cgroup
 * v1's too) within MEMCG_SPAN bytes; false if not (nothing read) */
static bool memcg_bulk(struct mem_cgroup *m, struct mtb_cgroup_rec *r)
{
	struct memcg_bytes *buf;
	__u32 zero = 0, base, end;
	int e;

	if (!bpf_core_field_exists(m->memory.usage) || !bpf_core_field_exists(m->memory.high) ||
	    !bpf_core_field_exists(m->memsw) || !bpf_core_field_exists(m->kmem) ||
	    !bpf_core_field_exists(m->soft_limit) || !bpf_core_field_exists(m->memory_events) ||
	    !bpf_core_enum_value_exists(enum memcg_memory_event, MEMCG_OOM_KILL))
		return false;
	e = bpf_core_enum_value(enum memcg_memory_event, MEMCG_OOM_KILL);
	if (e < 0 || e >= 16)
		return false;
	base = bpf_core_field_offset(m->memory);
	end = later(bpf_core_field_offset(m->soft_limit), bpf_core_field_offset(m->kmem.usage));
	end = later(end, bpf_core_field_offset(m->memsw.max));
	end = later(end, bpf_core_field_offset(m->memory.max));
	end = later(end, bpf_core_field_offset(m->memory_events) + 8 * (__u32)e);
	if (end < base || end - base > MEMCG_SPAN - 8)
		return false;
	buf = bpf_map_lookup_elem(&cg_scratch, &zero);
	if (!buf)
		return false;
	end = end - base + 8;
	barrier_var(end);
	if (end > MEMCG_SPAN || bpf_probe_read_kernel(buf->b, end, (char *)m + base))
		return false;
	r->usage = at(buf, bpf_core_field_offset(m->memory.usage) - base);
	r->max = at(buf, bpf_core_field_offset(m->memory.max) - base);
	r->high = at(buf, bpf_core_field_offset(m->memory.high) - base);
	r->low = at(buf, bpf_core_field_offset(m->memory.low) - base);
	r->min = at(buf, bpf_core_field_offset(m->memory.min) - base);
	r->swap = at(buf, bpf_core_field_offset(m->memsw.usage) - base);
	r->swap_max = at(buf, bpf_core_field_offset(m->memsw.max) - base);
	r->kmem = at(buf, bpf_core_field_offset(m->kmem.usage) - base);
	r->soft_limit = at(buf, bpf_core_field_offset(m->soft_limit) - base);
	r->oom_kill = at(buf, bpf_core_field_offset(m->memory_events) + 8 * (__u32)e - base);
	r->have |= MTB_CG_KMEM | MTB_CG_EVENTS;
	return true;
}

static void memcg_figures(struct mem_cgroup *m, struct mtb_cgroup_rec *r)
{
	if (memcg_bulk(m, r))
		return;
	r->usage = counter_usage(&m->memory);
	r->max = counter_max(&m->memory);
	if (bpf_core_field_exists(m->memory.high)) {
		r->high = BPF_CORE_READ(m, memory.high);
		r->low = BPF_CORE_READ(m, memory.low);
		r->min = BPF_CORE_READ(m, memory.min);
	}
	/* one counter on v2 (swap), memory + swap on v1 (memsw): a union since 5.x */
	if (bpf_core_field_exists(m->memsw)) {
		r->swap = counter_usage(&m->memsw);
		r->swap_max = counter_max(&m->memsw);
	} else if (bpf_core_field_exists(m->swap)) {
		r->swap = counter_usage(&m->swap);
		r->swap_max = counter_max(&m->swap);
	}
	if (bpf_core_field_exists(m->kmem) && bpf_core_field_exists(m->soft_limit)) {
		r->kmem = counter_usage(&m->kmem);
		r->soft_limit = BPF_CORE_READ(m, soft_limit);
		r->have |= MTB_CG_KMEM;
	}
	if (bpf_core_field_exists(m->memory_events) &&
	    bpf_core_enum_value_exists(enum memcg_memory_event, MEMCG_OOM_KILL)) {
		int e = bpf_core_enum_value(enum memcg_memory_event, MEMCG_OOM_KILL);

		if (e >= 0 && e < 16 &&
		    !bpf_probe_read_kernel(&r->oom_kill, sizeof(r->oom_kill), &m->memory_events[e]))
			r->have |= MTB_CG_EVENTS;
	}
}

/* The figures of memory.stat that memtop shows (anon, file, kernel, refaults), from the
 * counters the file prints, the subtree's (memcg_vmstats.state: v1's total_ lines, v2's
 * lines), in a thirtieth of the time the file takes to print its fifty lines (0.3 us
 * against 9 on Linux 6.18). Flavors of the kernel's types: CO-RE finds each enumerator's
 * value and the array's size in the running kernel, where any of them may be missing. A
 * place that some kernel changed shows as a disagreement with the files at start
 * (src/cgroup/cgroup_from_bpf.c's self-check, which compares the root's, the largest, too), and
 * memtop reads the files instead. */
struct memcg_vmstats___mt {
	long state[64];
} __attribute__((preserve_access_index));

struct mem_cgroup___mt {
	struct memcg_vmstats___mt *vmstats;
} __attribute__((preserve_access_index));

enum node_stat_item___mt {
	NR_ANON_MAPPED___mt,
	NR_FILE_PAGES___mt,
	WORKINGSET_REFAULT_ANON___mt,
	WORKINGSET_REFAULT_FILE___mt,
	WORKINGSET_REFAULT___mt,
};

enum memcg_stat_item___mt {
	MEMCG_SOCK___mt,
	MEMCG_KMEM___mt,
	MEMCG_NR_STAT___mt,
};

#define STATE_MAX 64 /* state[] longs read: 40 on Linux 6.18, MEMCG_NR_STAT (58) before 6.10 */

/* The place in state[] of the kernel's node_stat_item n, which the compact array (Linux
 * 6.10 on: memcg_node_stat_items[], then every memcg_stat_item) keeps at pos; -1 if the
 * kernel has no such item */
#define NODE_AT(n, pos)                                                                            \
	(!bpf_core_enum_value_exists(enum node_stat_item___mt, n) ? -1                             \
	 : compact						  ? (pos)                          \
		   : (int)bpf_core_enum_value(enum node_stat_item___mt, n))

/* and of memcg_stat_item m: counted from the end of the compact array, which lists them
 * all, in order */
#define MEMCG_AT(m)                                                                                \
	(!bpf_core_enum_value_exists(enum memcg_stat_item___mt, m) ? -1                            \
	 : compact ? (int)nstate - (nr - (int)bpf_core_enum_value(enum memcg_stat_item___mt, m))   \
		   : (int)bpf_core_enum_value(enum memcg_stat_item___mt, m))

/* read into cg_scratch, once memcg_figures() is done with it */
struct state_buf {
	long v[STATE_MAX];
};
_Static_assert(sizeof(struct state_buf) <= sizeof(struct memcg_bytes), "state_buf in cg_scratch");

static __always_inline __u64 state_at(const struct state_buf *b, int i)
{
	if (i < 0 || i >= STATE_MAX)
		return 0;
	/* the files print a negative count (per-CPU updates not yet flushed) as 0 */
	return b->v[i] < 0 ? 0 : (__u64)b->v[i];
}

static void memcg_stats(struct mem_cgroup *m, struct mtb_cgroup_rec *r)
{
	struct mem_cgroup___mt *mt = (void *)m;
	struct memcg_vmstats___mt *vs = NULL;
	struct state_buf *buf;
	__u32 zero = 0, nstate, bytes;
	int nr, anon, file, ra, rf, rr, kmem, sock;
	bool compact;

	if (!bpf_core_field_exists(mt->vmstats) || bpf_core_field_size(mt->vmstats) != 8 ||
	    !bpf_core_field_exists(vs->state) ||
	    !bpf_core_enum_value_exists(enum memcg_stat_item___mt, MEMCG_NR_STAT___mt))
		return;
	nstate = bpf_core_field_size(vs->state) / 8;
	nr = bpf_core_enum_value(enum memcg_stat_item___mt, MEMCG_NR_STAT___mt);
	if (!nstate || nstate > STATE_MAX || (int)nstate > nr)
		return;
	compact = (int)nstate < nr;
	anon = NODE_AT(NR_ANON_MAPPED___mt, 14);
	file = NODE_AT(NR_FILE_PAGES___mt, 16);
	ra = NODE_AT(WORKINGSET_REFAULT_ANON___mt, 7);
	rf = NODE_AT(WORKINGSET_REFAULT_FILE___mt, 8);
	rr = compact ? -1 : NODE_AT(WORKINGSET_REFAULT___mt, 0);
	kmem = MEMCG_AT(MEMCG_KMEM___mt);
	sock = MEMCG_AT(MEMCG_SOCK___mt);
	if (bpf_probe_read_kernel(&vs, sizeof(vs), &mt->vmstats) || !vs)
		return;
	buf = bpf_map_lookup_elem(&cg_scratch, &zero);
	if (!buf)
		return;
	bytes = nstate * 8;
	barrier_var(bytes);
	if (bytes > sizeof(buf->v) || bpf_probe_read_kernel(buf->v, bytes, vs->state))
		return;
	if (anon >= 0 && file >= 0 && ((ra >= 0 && rf >= 0) || rr >= 0)) {
		r->anon = state_at(buf, anon);
		r->file = state_at(buf, file);
		r->refaults = rr >= 0 ? state_at(buf, rr) : state_at(buf, ra) + state_at(buf, rf);
		r->have |= MTB_CG_STAT;
	}
	if (kmem >= 0 && sock >= 0) {
		r->kernel = state_at(buf, kmem) + state_at(buf, sock);
		r->have |= MTB_CG_KSTAT;
	}
}

SEC("iter/cgroup")
int cgroups(struct bpf_iter__cgroup *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct cgroup *cg = ctx->cgroup;
	struct cgroup_subsys_state *css, *parent;
	struct kernfs_node *kn;
	struct rec_out out = {};
	struct mtb_cgroup_rec *r = &out.r;
	const char *name;
	__u64 room;
	long len;
	int ssid;

	if (!cg || ctx->meta->seq_num < cg_skip)
		return 0;
	/* the cgroup's own fields by plain loads (a trusted pointer's, walked) */
	kn = cg->kn;
	if (!kn)
		return 0;
	r->id = kn->id;
	parent = cg->self.parent;
	if (parent && parent->cgroup && parent->cgroup->kn)
		r->parent_id = parent->cgroup->kn->id;
	r->seq = ctx->meta->seq_num;
	name = kn->name;
	len = name ? bpf_probe_read_kernel_str(out.name, MTB_CG_NAME_MAX, name) : -1;
	if (len > 0) {
		len -= 1; /* the NUL */
		barrier_var(len);
		len &= MTB_CG_NAME_MAX - 1;
		r->name_len = (__u16)len;
		r->have |= MTB_CG_NAMED;
	} else {
		len = 0;
	}
	if (bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id)) {
		ssid = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
		css = NULL;
		if (ssid >= 0 && ssid < 16)
			bpf_probe_read_kernel(&css, sizeof(css), &cg->subsys[ssid]);
		/* css is the first member of struct mem_cgroup */
		if (css) {
			r->have |= MTB_CG_MEMCG;
			if (cg->level == 0)
				r->have |= MTB_CG_ROOT;
			memcg_figures((struct mem_cgroup *)css, r);
			memcg_stats((struct mem_cgroup *)css, r);
		}
	}
	room = MTB_CG_NAME_ROOM((__u64)len);
	barrier_var(room);
	if (room > MTB_CG_NAME_MAX + 8)
		return 0;
	bpf_seq_write(seq, &out, sizeof(out.r) + room);
	return 0;
}
