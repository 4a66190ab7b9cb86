#include "bpf_source.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "../bpf/memtop.h"
#include "bpf/oomkill.skel.h"
#include "bpf/reclaim.skel.h"
#include "bpf/swapin.skel.h"
#include "bpf_procs.h"
#include "kmsg.h"
#include "oom_merge.h"
#include "swap_gate.h"
#include "pidns.h"
#include "util.h"

_Static_assert(MTB_HIST_SLOTS == MT_HIST_SLOTS, "histogram slots differ");
_Static_assert(MTB_COMM_LEN == MT_COMM_LEN, "comm lengths differ");

#define MAX_LINKS 16

enum concern { C_OOM, C_RECLAIM, C_SWAPIN, NCONCERNS };

static const char *const concern_names[NCONCERNS] = {
	[C_OOM] = "OOM kill tracing",
	[C_RECLAIM] = "reclaim latency",
	[C_SWAPIN] = "swap-ins per process",
};

struct bpf_source {
	struct oomkill_bpf *oom;
	struct reclaim_bpf *reclaim;
	struct swapin_bpf *swapin;
	struct ring_buffer *rb;
	struct bpf_link *links[MAX_LINKS];
	int nlinks;
	/* count_memcg_events runs on every page fault: attached only while pages are in swap */
	struct swap_gate *swap_gate;
	char why[NCONCERNS][96]; /* why a concern is off; empty when on */
	int err[NCONCERNS];
	char reason[160];
	struct oom_merge *kills; /* kills from the kernel log, and from before start */
	long page_size;
	struct snapshot *cur; /* target of ring buffer callbacks */
	double mono_to_wall;
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* Attaches every program of obj meant to attach by its section name to links; on failure
 * detaches what it attached and names the tracepoint in why. */
static int attach_all(struct bpf_source *b, struct bpf_object *obj, char *why, size_t len)
{
	int first = b->nlinks;
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj)
	{
		const char *sec = bpf_program__section_name(prog);
		const char *tp = strchr(sec, '/') ? strchr(sec, '/') + 1 : sec;
		struct bpf_link *link = NULL;
		int err = -E2BIG;

		if (!bpf_program__autoattach(prog))
			continue;
		if (b->nlinks < MAX_LINKS) {
			link = bpf_program__attach(prog);
			err = link ? 0 : -errno;
		}
		if (link) {
			b->links[b->nlinks++] = link;
			continue;
		}
		if (err == -ENOENT)
			snprintf(why, len, "no tracepoint %s", tp);
		else
			snprintf(why, len, "attaching %s: %s", tp, strerror(-err));
		while (b->nlinks > first)
			bpf_link__destroy(b->links[--b->nlinks]);
		return err;
	}
	return 0;
}

static void fail_why(char *why, size_t len, const char *what, int err)
{
	if (!why[0])
		snprintf(why, len, "%s: %s", what, strerror(-err));
}

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

/* What the programs need to know from kernel BTF, read once and freed before loading. */
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

static int on_oom_event(void *ctx, void *data, size_t len);

static int load_oom(struct bpf_source *b, const struct kfacts *k, char *why, size_t len)
{
	struct oomkill_bpf *skel = NULL;
	int err;

	if (!k->victim_task) {
		snprintf(why, len, "tracepoint mark_victim lacks the task");
		return -ENOTSUP;
	}
	skel = oomkill_bpf__open();
	if (!skel) {
		err = -errno;
		goto fail;
	}
	skel->rodata->mm_file_idx = k->mm_file;
	skel->rodata->mm_anon_idx = k->mm_anon;
	skel->rodata->mm_shmem_idx = k->mm_shmem;
	PIDNS_CONFIGURE(skel);
	err = oomkill_bpf__load(skel);
	if (err)
		goto fail;
	b->rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_oom_event, b, NULL);
	if (!b->rb) {
		err = -errno;
		goto fail;
	}
	err = attach_all(b, skel->obj, why, len);
	if (err)
		goto fail;
	b->oom = skel;
	return 0;
fail:
	fail_why(why, len, "loading", err);
	ring_buffer__free(b->rb);
	b->rb = NULL;
	oomkill_bpf__destroy(skel);
	return err;
}

static int load_reclaim(struct bpf_source *b, char *why, size_t len)
{
	struct reclaim_bpf *skel = reclaim_bpf__open();
	int err;

	if (!skel) {
		err = -errno;
		goto fail;
	}
	PIDNS_CONFIGURE(skel);
	err = reclaim_bpf__load(skel);
	if (err)
		goto fail;
	err = attach_all(b, skel->obj, why, len);
	if (err)
		goto fail;
	b->reclaim = skel;
	return 0;
fail:
	fail_why(why, len, "loading", err);
	reclaim_bpf__destroy(skel);
	return err;
}

static int load_swapin(struct bpf_source *b, char *why, size_t len)
{
	struct swapin_bpf *skel = swapin_bpf__open();
	int err;

	if (!skel) {
		err = -errno;
		goto fail;
	}
	bpf_program__set_autoattach(skel->progs.count_memcg_events, false);
	bpf_program__set_autoattach(skel->progs.writeout, false);
	bpf_program__set_autoattach(skel->progs.swap_bio, false);
	PIDNS_CONFIGURE(skel);
	err = swapin_bpf__load(skel);
	if (err)
		goto fail;
	err = attach_all(b, skel->obj, why, len);
	if (err)
		goto fail;
	b->swapin = skel;
	b->swap_gate = swap_gate_start(skel);
	return 0;
fail:
	fail_why(why, len, "loading", err);
	swapin_bpf__destroy(skel);
	return err;
}

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* One line: which counters are off and why. */
static void make_reason(struct bpf_source *b, bool disabled)
{
	char *r = b->reason;
	size_t len = sizeof(b->reason);
	int nfail = 0, ndenied = 0;

	for (int c = 0; c < NCONCERNS; c++) {
		nfail += b->why[c][0] != 0;
		ndenied += b->why[c][0] && (b->err[c] == -EPERM || b->err[c] == -EACCES);
	}
	if (disabled)
		append(r, len, "BPF off: --no-bpf");
	else if (access("/sys/kernel/btf/vmlinux", R_OK))
		append(r, len, "BPF off: kernel without BTF (/sys/kernel/btf/vmlinux)");
	else if (ndenied == NCONCERNS && geteuid())
		append(r, len,
		       "BPF off: not root (OOM kills, reclaim latency, swap-ins per process "
		       "need root)");
	else if (ndenied == NCONCERNS)
		append(r, len, "BPF off: permission denied loading programs");
	else if (nfail == NCONCERNS)
		append(r, len, "BPF off: %s", b->why[C_RECLAIM]);
	else
		for (int c = 0; c < NCONCERNS; c++)
			if (b->why[c][0])
				append(r, len, "%s%s off: %s", r[0] ? "; " : "", concern_names[c],
				       b->why[c]);
	if (oom_merge_following(b->kills))
		append(r, len, "; OOM kills from the kernel log");
}

struct bpf_source *bpf_source_open(bool disabled)
{
	struct bpf_source *b = xcalloc(1, sizeof(*b));
	struct kfacts k;

	b->page_size = sysconf(_SC_PAGESIZE);
	libbpf_set_print(quiet);
	if (!disabled && access("/sys/kernel/btf/vmlinux", R_OK) == 0) {
		kfacts_read(&k);
		b->err[C_OOM] = load_oom(b, &k, b->why[C_OOM], sizeof(b->why[C_OOM]));
		b->err[C_RECLAIM] = load_reclaim(b, b->why[C_RECLAIM], sizeof(b->why[C_RECLAIM]));
		b->err[C_SWAPIN] = load_swapin(b, b->why[C_SWAPIN], sizeof(b->why[C_SWAPIN]));
	}
	/* after attaching, so a kill is either in the log now or in the ring buffer */
	b->kills = oom_merge_open(kmsg_open(), !b->oom);
	make_reason(b, disabled);
	return b;
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

static int on_oom_event(void *ctx, void *data, size_t len)
{
	struct bpf_source *b = ctx;
	const struct mtb_oom_event *e = data;
	uint64_t kb = b->page_size / 1024;

	if (len < sizeof(*e) || !b->cur)
		return 0;
	struct mt_event *ev = snapshot_add_event(b->cur);
	ev->type = MT_EV_OOM_KILL;
	ev->ts = e->ts_ns / 1e9 + b->mono_to_wall;
	ev->pid = e->pid;
	snprintf(ev->comm, sizeof(ev->comm), "%.*s", MTB_COMM_LEN, e->comm);
	ev->uid = e->uid;
	ev->total_vm_kb = e->total_vm_pages * kb;
	ev->anon_rss_kb = e->anon_pages * kb;
	ev->file_rss_kb = e->file_pages * kb;
	ev->shmem_rss_kb = e->shmem_pages * kb;
	join_memcg(e, ev->memcg, sizeof(ev->memcg));
	ev->trigger_pid = e->trigger_pid;
	snprintf(ev->trigger_comm, sizeof(ev->trigger_comm), "%.*s", MTB_COMM_LEN, e->trigger_comm);
	return 0;
}

static void copy_hist(struct mt_hist *dst, const struct mtb_hist *src)
{
	dst->count = src->count;
	dst->total_us = src->total_us;
	for (int i = 0; i < MT_HIST_SLOTS; i++)
		dst->slots[i] = src->slots[i];
}

void bpf_source_collect(struct bpf_source *b, struct snapshot *s)
{
	struct bpf_state *st = &s->bpf;
	size_t first_new = s->nevents;

	memset(st, 0, sizeof(*st));
	snprintf(st->reason, sizeof(st->reason), "%s", b->reason);
	st->enabled = b->oom || b->reclaim || b->swapin;
	st->programs = b->nlinks;
	if (b->swap_gate) {
		const char *mode;

		st->programs += swap_gate_check(b->swap_gate, s->vm.pswpin, &mode);
		snprintf(st->swapin_mode, sizeof(st->swapin_mode), "%s", mode);
	}
	if (b->oom) {
		st->oom_kills = b->oom->bss->oom_kills;
		st->ring_drops = b->oom->bss->ring_drops;
		b->cur = s;
		b->mono_to_wall = clock_wall() - clock_mono();
		ring_buffer__consume(b->rb);
		b->cur = NULL;
	}
	oom_merge_collect(b->kills, s, first_new);

	if (b->reclaim) {
		const struct reclaim_bpf__bss *r = b->reclaim->bss;

		st->have_reclaim = true;
		copy_hist(&st->reclaim.direct, &r->hists[MTB_RC_DIRECT]);
		copy_hist(&st->reclaim.memcg, &r->hists[MTB_RC_MEMCG]);
		copy_hist(&st->reclaim.shrink_slab, &r->hists[MTB_RC_SLAB]);
		st->reclaim.nr_reclaimed = r->nr_reclaimed;
		st->reclaim.kswapd_wakeups = r->kswapd_wakeups;
	}
	if (b->swapin) {
		st->have_swapin = true;
		st->swapins = b->swapin->bss->swapins;
	}
	for (size_t i = 0; i < s->nprocs && (b->reclaim || b->swapin); i++) {
		s->procs[i].bpf_valid = true;
		s->procs[i].swapins = 0;
		s->procs[i].reclaim_ns = 0;
	}
	if (b->swapin)
		bpf_procs_fill(bpf_map__fd(b->swapin->maps.tgid_swapins), s, BPF_PROCS_SWAPINS);
	if (b->reclaim)
		bpf_procs_fill(bpf_map__fd(b->reclaim->maps.tgid_reclaim), s, BPF_PROCS_RECLAIM);
}

void bpf_source_close(struct bpf_source *b)
{
	if (!b)
		return;
	while (b->nlinks > 0)
		bpf_link__destroy(b->links[--b->nlinks]);
	swap_gate_stop(b->swap_gate);
	ring_buffer__free(b->rb);
	oomkill_bpf__destroy(b->oom);
	reclaim_bpf__destroy(b->reclaim);
	swapin_bpf__destroy(b->swapin);
	oom_merge_close(b->kills);
	free(b);
}
