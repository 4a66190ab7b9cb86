/* Concern: OOM kills, from oom/mark_victim through the log of kills (bpf/oomkill.bpf.c,
 * struct mtb_oom_slot), read at each collect from where this memtop last read. */
#include "bpf_concern.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "kbtf.h"
#include "util.h"

_Static_assert(MTB_COMM_LEN == MT_COMM_LEN, "comm lengths differ");

struct oom {
	struct bpf_concern_state c; /* first: bpf_concern_start's */
	struct bpf_link *signal;    /* signal_generate, where mark_victim gives a pid alone */
	long page_size;
	uint64_t next;	     /* the next kill of the log to read */
	uint64_t kills_base; /* the programs' count when this memtop started */
	uint64_t drops;	     /* kills the log overwrote before they were read */
};

/* The anonymous MM_* enum's rss counter indexes, from the kernel's BTF */
static void mm_indexes(const struct btf *btf, struct memtop_bpf *skel)
{
	for (__u32 id = 1; btf && id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e = btf_is_enum(t) ? btf_enum(t) : NULL;

		for (int i = 0; e && i < btf_vlen(t); i++, e++) {
			const char *name = btf__name_by_offset(btf, e->name_off);

			if (!strcmp(name, "MM_FILEPAGES"))
				skel->rodata->mm_file_idx = e->val;
			else if (!strcmp(name, "MM_ANONPAGES"))
				skel->rodata->mm_anon_idx = e->val;
			else if (!strcmp(name, "MM_SHMEMPAGES"))
				skel->rodata->mm_shmem_idx = e->val;
		}
	}
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

static void add_kill(const struct oom *o, struct snapshot *s, const struct mtb_oom_event *e,
		     double mono_to_wall)
{
	uint64_t kb = o->page_size / 1024;
	struct mt_event *ev = snapshot_add_event(s);

	ev->type = MT_EV_OOM_KILL;
	ev->ts = e->ts_ns / 1e9 + mono_to_wall;
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
}

/* Kill n of the log into *slot: 1 when read whole, 0 while it is still being written, -1
 * when a later kill took its slot */
static int read_slot(int fd, uint64_t n, struct mtb_oom_slot *slot)
{
	__u32 k = (__u32)(n % MTB_OOM_LOG);
	struct mtb_oom_slot again;

	if (bpf_map_lookup_elem(fd, &k, slot) || !slot->seq)
		return 0;
	if (slot->seq != n + 1)
		return slot->seq > n + 1 ? -1 : 0;
	/* the copy is whole where the slot still holds kill n after it */
	if (bpf_map_lookup_elem(fd, &k, &again) || again.seq != n + 1)
		return -1;
	return 1;
}

/* oom/mark_victim passes (task, uid) since Linux 6.8; before, the victim's pid alone,
 * and the task is taken from the SIGKILL the kill sent just before (signal_generate). */
static int oom_configure(struct memtop_bpf *skel, const struct btf *kernel, char *why, size_t len)
{
	bool task = kbtf_tp_arg_is(kernel, "mark_victim", 0, "task_struct");

	if (kbtf_tp_nargs(kernel, "mark_victim") < 1) {
		snprintf(why, len, "no tracepoint oom/mark_victim");
		return -ENOTSUP;
	}
	if (!task && !kbtf_tp_arg_is(kernel, "signal_generate", 2, "task_struct")) {
		snprintf(why, len, "mark_victim gives no task, nor signal_generate");
		return -ENOTSUP;
	}
	skel->rodata->victim_pid_only = !task;
	bpf_program__set_autoload(skel->progs.oom_signal, !task);
	mm_indexes(kernel, skel);
	return 0;
}

static int oom_start(void *state, char *why, size_t len)
{
	struct oom *o = state;

	o->page_size = sysconf(_SC_PAGESIZE);
	/* the kills from before are the kernel log's */
	o->next = o->c.skel->bss->oom_logged;
	o->kills_base = o->c.skel->bss->oom_kills;
	/* with another memtop's programs, its link does this */
	if (o->c.pins || !o->c.skel->rodata->victim_pid_only)
		return 0;
	o->signal = bpf_program__attach(o->c.skel->progs.oom_signal);
	if (!o->signal) {
		bpf_concern_why(why, len, "attaching signal_generate", -errno);
		return -errno;
	}
	return 0;
}

static void oom_stop(void *state)
{
	struct oom *o = state;

	bpf_link__destroy(o->signal);
}

static int oom_links(const void *state)
{
	const struct oom *o = state;

	return o->signal != NULL;
}

static void oom_collect(void *state, struct snapshot *s)
{
	struct oom *o = state;
	const volatile struct memtop_bpf__bss *bss = o->c.skel->bss;
	int fd = bpf_map__fd(o->c.skel->maps.oom_log);
	uint64_t head = bss->oom_logged;
	double mono_to_wall = clock_mono_to_wall();
	struct mtb_oom_slot slot;

	s->bpf.have_oom = true;
	s->bpf.oom_kills = bss->oom_kills - o->kills_base;
	if (head - o->next > MTB_OOM_LOG) {
		o->drops += head - o->next - MTB_OOM_LOG;
		o->next = head - MTB_OOM_LOG;
	}
	for (; o->next < head; o->next++) {
		int got = read_slot(fd, o->next, &slot);
		if (!got)
			break; /* being written: at the next collect */
		if (got < 0)
			o->drops++;
		else
			add_kill(o, s, &slot.e, mono_to_wall);
	}
	s->bpf.ring_drops = o->drops;
}

const struct bpf_concern bpf_oom = {
	.name = "OOM kill tracing",
	.needs = "OOM kills",
	.oom_kills = true,
	.progs = {SKEL_PROG(mark_victim)},
	.later = {SKEL_PROG(oom_signal)}, /* its configure says whether it loads */
	.fds = 1,			  /* oom_signal's link */
	.state_size = sizeof(struct oom),
	.configure = oom_configure,
	.start = oom_start,
	.collect = oom_collect,
	.links = oom_links,
	.stop = oom_stop,
};
