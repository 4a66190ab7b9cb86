/* Concern: OOM kills, from oom/mark_victim through a ring buffer (bpf/oomkill.bpf.c). */
#include "bpf_concern.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "util.h"

_Static_assert(MTB_COMM_LEN == MT_COMM_LEN, "comm lengths differ");

struct oom {
	struct bpf_concern_state c; /* first: bpf_concern_start's */
	struct ring_buffer *rb;
	long page_size;
	struct snapshot *cur; /* target of ring buffer callbacks */
	double mono_to_wall;
};

/* oom/mark_victim takes (task, uid) since Linux 6.8; before, only a pid. */
static bool mark_victim_has_task(const struct btf *btf)
{
	int id = btf ? btf__find_by_name_kind(btf, "btf_trace_mark_victim", BTF_KIND_TYPEDEF) : -1;
	const struct btf_type *t;

	if (id < 0)
		return false;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!btf_is_ptr(t) || !btf_is_func_proto(t = btf__type_by_id(btf, t->type)) ||
	    btf_vlen(t) < 2)
		return false;
	t = btf__type_by_id(btf, btf_params(t)[1].type);
	if (!btf_is_ptr(t))
		return false;
	t = btf__type_by_id(btf, t->type);
	return btf_is_struct(t) && !strcmp(btf__name_by_offset(btf, t->name_off), "task_struct");
}

/* What the program needs to know from kernel BTF, read once and freed before loading. */
struct kfacts {
	bool victim_task;
	int mm_file, mm_anon, mm_shmem; /* the anonymous MM_* enum, rss counter indexes */
};

static void kfacts_read(struct kfacts *k)
{
	struct btf *btf = btf__load_vmlinux_btf();

	*k = (struct kfacts){.mm_file = 0, .mm_anon = 1, .mm_shmem = 3};
	if (libbpf_get_error(btf))
		return;
	k->victim_task = mark_victim_has_task(btf);
	for (__u32 id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e = btf_is_enum(t) ? btf_enum(t) : NULL;

		for (int i = 0; e && i < btf_vlen(t); i++, e++) {
			const char *name = btf__name_by_offset(btf, e->name_off);

			if (!strcmp(name, "MM_FILEPAGES"))
				k->mm_file = e->val;
			else if (!strcmp(name, "MM_ANONPAGES"))
				k->mm_anon = e->val;
			else if (!strcmp(name, "MM_SHMEMPAGES"))
				k->mm_shmem = e->val;
		}
	}
	btf__free(btf);
}

static void join_memcg(const struct mtb_oom_event *e, char *out, size_t len)
{
	size_t off = 0;
	int depth = e->cg_depth < MTB_CG_LEVELS ? (int)e->cg_depth : MTB_CG_LEVELS;

	out[0] = '\0';
	if (!e->cg_valid)
		return;
	if (e->cg_truncated)
		off = snprintf(out, len, "/...");
	for (int i = depth - 1; i >= 0 && off < len; i--)
		off += snprintf(out + off, len - off, "/%.*s", MTB_CG_NAME, e->cg[i]);
	if (!depth)
		snprintf(out, len, "/");
}

static int on_event(void *ctx, void *data, size_t len)
{
	struct oom *o = ctx;
	const struct mtb_oom_event *e = data;
	uint64_t kb = o->page_size / 1024;

	if (len < sizeof(*e) || !o->cur)
		return 0;
	struct mt_event *ev = snapshot_add_event(o->cur);
	ev->type = MT_EV_OOM_KILL;
	ev->ts = e->ts_ns / 1e9 + o->mono_to_wall;
	ev->pid = e->pid;
	snprintf(ev->comm, sizeof(ev->comm), "%.*s", MTB_COMM_LEN, e->comm);
	ev->uid = e->uid;
	ev->total_vm_kb = e->total_vm_pages * kb;
	ev->anon_rss_kb = e->anon_pages * kb;
	ev->file_rss_kb = e->file_pages * kb;
	ev->shmem_rss_kb = e->shmem_pages * kb;
	join_memcg(e, ev->memcg, sizeof(ev->memcg));
	ev->memcg_id = e->cg_valid ? e->cg_id : 0;
	ev->trigger_pid = e->trigger_pid;
	snprintf(ev->trigger_comm, sizeof(ev->trigger_comm), "%.*s", MTB_COMM_LEN, e->trigger_comm);
	return 0;
}

static int oom_configure(struct memtop_bpf *skel, char *why, size_t len)
{
	struct kfacts k;

	kfacts_read(&k);
	if (!k.victim_task) {
		snprintf(why, len, "tracepoint mark_victim lacks the task");
		return -ENOTSUP;
	}
	skel->rodata->mm_file_idx = k.mm_file;
	skel->rodata->mm_anon_idx = k.mm_anon;
	skel->rodata->mm_shmem_idx = k.mm_shmem;
	return 0;
}

static int oom_start(void *state, char *why, size_t len)
{
	struct oom *o = state;
	int err;

	o->page_size = sysconf(_SC_PAGESIZE);
	o->rb = ring_buffer__new(bpf_map__fd(o->c.skel->maps.events), on_event, o, NULL);
	if (o->rb)
		return 0;
	err = -errno;
	bpf_concern_why(why, len, "ring buffer", err);
	return err;
}

static void oom_stop(void *state)
{
	struct oom *o = state;

	ring_buffer__free(o->rb);
}

static void oom_collect(void *state, struct snapshot *s)
{
	struct oom *o = state;

	s->bpf.have_oom = true;
	s->bpf.oom_kills = o->c.skel->bss->oom_kills;
	s->bpf.ring_drops = o->c.skel->bss->ring_drops;
	o->cur = s;
	o->mono_to_wall = clock_mono_to_wall();
	ring_buffer__consume(o->rb);
	o->cur = NULL;
}

const struct bpf_concern bpf_oom = {
	.name = "OOM kill tracing",
	.needs = "OOM kills",
	.oom_kills = true,
	.progs = {SKEL_PROG(mark_victim)},
	.state_size = sizeof(struct oom),
	.configure = oom_configure,
	.start = oom_start,
	.collect = oom_collect,
	.stop = oom_stop,
};
