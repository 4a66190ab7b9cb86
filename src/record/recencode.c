/* The recording's encoder: a sample's fields against the previous sample's
 * (doc/recordings.md has the layout); recdecode.c reads them back. */
#include <stdlib.h>
#include <string.h>

#include "reccodec_impl.h"
#include "util.h"

/* A string beside its base: 0 the same, 1 none, else its length + 2 and its bytes */
static void put_ptr_str(struct rbuf *b, const char *s, const char *base, bool key)
{
	if (!key && (s == base || (s && base && !strcmp(s, base)))) {
		rb_varint(b, 0);
	} else if (!s) {
		rb_varint(b, 1);
	} else {
		size_t n = strlen(s);
		rb_varint(b, n + 2);
		rb_bytes(b, s, n);
	}
}

/* The system fields; the parts coded on their own (parts) against base's (base_parts) */
static void put_sys(struct rbuf *b, const struct snapshot *s, const struct snapshot *base,
		    const struct rbuf *parts, const struct rbuf *base_parts)
{
	for (size_t i = 0; i < rec_nsys_fields; i++) {
		const struct rec_field *f = &rec_sys_fields[i];
		const char *p = (const char *)s + f->off, *q = (const char *)base + f->off;
		if (!f->size) {
			const struct rbuf *tasks = &parts[rec_part_of(f)];
			const struct rbuf *base_tasks = &base_parts[rec_part_of(f)];
			bool same = tasks->n == base_tasks->n &&
				    (!tasks->n || !memcmp(tasks->p, base_tasks->p, tasks->n));
			rb_varint(b, same ? 0 : tasks->n + 1);
			if (!same && tasks->n)
				rb_bytes(b, tasks->p, tasks->n);
		} else if (f->type == RF_DBL) {
			uint64_t x, y;
			memcpy(&x, p, 8);
			memcpy(&y, q, 8);
			rb_varint(b, x ^ y);
		} else if (f->type == RF_HIST) {
			const uint64_t *x = (const uint64_t *)(const void *)p;
			const uint64_t *y = (const uint64_t *)(const void *)q;
			for (size_t k = 0; k < sizeof(struct mt_hist) / 8; k++)
				rb_svarint(b, (int64_t)(x[k] - y[k]));
		} else if (f->type == RF_CHARS) {
			size_t n = strnlen(p, f->size);
			bool same = !strncmp(p, q, f->size);
			rb_varint(b, same ? 0 : n + 1);
			if (!same)
				rb_bytes(b, p, n);
		} else {
			rb_svarint(b, (int64_t)(rec_field_get(s, f) - rec_field_get(base, f)));
		}
	}
}

static char *dup_or_take(char **base, const char *s)
{
	if (base && *base && s && !strcmp(*base, s)) {
		char *t = *base;
		*base = NULL;
		return t;
	}
	return s ? xstrdup(s) : NULL;
}

static void put_procs(struct rec_state *st, struct rbuf *b, const struct snapshot *s, bool key)
{
	struct rec_proc *out = tmp_room(st, s->nprocs);
	unsigned recorded = rec_columns_recorded();
	size_t j = 0;
	int32_t prev = 0;

	rb_varint(b, s->nprocs);
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_sample *p = &s->procs[i];
		struct rec_proc *q = key ? NULL : find_base(st, &j, p->pid);
		if (q && q->p.start_ticks != p->start_ticks)
			q = NULL;
		unsigned fl = q ? 0 : P_ALL;
		if (q) {
			fl |= (p->ppid != q->p.ppid || p->uid != q->p.uid ||
			       p->kthread != q->p.kthread || p->memcg_id != q->p.memcg_id ||
			       p->cgroup2_id != q->p.cgroup2_id)
				      ? P_IDS
				      : 0;
			fl |= strcmp(p->comm, q->p.comm) ? P_COMM : 0;
			fl |= (!p->cmd != !q->cmd || (p->cmd && strcmp(p->cmd, q->cmd))) ? P_CMD
											 : 0;
			fl |= (!p->user != !q->user || (p->user && strcmp(p->user, q->user)))
				      ? P_USER
				      : 0;
			fl |= (!p->cgroup != !q->cgroup ||
			       (p->cgroup && strcmp(p->cgroup, q->cgroup)))
				      ? P_CGROUP
				      : 0;
			fl |= p->valid != q->p.valid || p->tried != q->p.tried ? P_MASKS : 0;
		}
		rb_svarint(b, (int64_t)p->pid - prev);
		prev = p->pid;
		rb_varint(b, fl);
		if (fl & P_NEW)
			rb_varint(b, p->start_ticks);
		if (fl & P_IDS) {
			rb_svarint(b, p->ppid);
			rb_varint(b, p->uid);
			rb_varint(b, p->kthread);
			rb_varint(b, p->memcg_id);
			rb_varint(b, p->cgroup2_id);
		}
		if (fl & P_COMM)
			rb_str(b, p->comm);
		if (fl & P_CMD)
			put_ptr_str(b, p->cmd, NULL, true);
		if (fl & P_USER)
			put_ptr_str(b, p->user, NULL, true);
		if (fl & P_CGROUP)
			put_ptr_str(b, p->cgroup, NULL, true);
		if (fl & P_MASKS) {
			rb_varint(b, p->valid);
			rb_varint(b, p->tried);
		}
		for (unsigned set = p->valid & recorded; set; set &= set - 1) {
			int c = __builtin_ctz(set);
			if (q && (q->p.valid & COL_BIT(c)))
				rb_svarint(b, (int64_t)(PROC_FIG(p, c) - PROC_FIG(&q->p, c)));
			else
				rb_varint(b, PROC_FIG(p, c));
		}
		struct rec_proc *o = &out[i];
		o->p = *p;
		o->cmd = dup_or_take(q ? &q->cmd : NULL, p->cmd);
		o->user = dup_or_take(q ? &q->user : NULL, p->user);
		o->cgroup = dup_or_take(q ? &q->cgroup : NULL, p->cgroup);
		o->p.cmd = o->cmd;
		o->p.user = o->user;
		o->p.cgroup = o->cgroup;
	}
	take_procs(st, s->nprocs, false);
}

static void put_event(struct rbuf *b, const struct mt_event *e)
{
	uint64_t ts;
	memcpy(&ts, &e->ts, 8);
	rb_varint(b, (uint64_t)e->type);
	rb_varint(b, ts);
	rb_varint(b, e->earlier);
	rb_svarint(b, e->pid);
	rb_str(b, e->comm);
	rb_varint(b, e->uid);
	rb_varint(b, e->total_vm_kb);
	rb_varint(b, e->anon_rss_kb);
	rb_varint(b, e->file_rss_kb);
	rb_varint(b, e->shmem_rss_kb);
	rb_str(b, e->memcg);
	rb_varint(b, e->memcg_id);
	rb_svarint(b, e->trigger_pid);
	rb_str(b, e->trigger_comm);
}

/* The cgroups: each against the previous sample's at the same place, when the same */
static void put_cgroups(struct rec_state *st, struct rbuf *b, const struct snapshot *s, bool key)
{
	rb_varint(b, s->ncgroups);
	for (size_t i = 0; i < s->ncgroups; i++) {
		const struct cg_sample *g = &s->cgroups[i];
		const struct cg_sample *q = !key && i < st->ncgs && st->cgs[i].id == g->id &&
							    !strcmp(st->cgs[i].path, g->path)
						    ? &st->cgs[i]
						    : NULL;
		rb_varint(b, q != NULL);
		if (!q) {
			rb_varint(b, g->id);
			rb_str(b, g->path);
		}
		rb_varint(b, g->depth);
		rb_svarint(b, g->parent);
		rb_varint(b, g->valid);
		rb_varint(b, g->unlimited);
		rb_varint(b, g->removed);
		for (int c = 0; c < CGCOL_COUNT; c++) {
			if (!rec_cgcolumn_recorded(c) || !(g->valid & CGCOL_BIT(c)))
				continue;
			if (q && (q->valid & CGCOL_BIT(c)))
				rb_svarint(b, (int64_t)(g->v[c] - q->v[c]));
			else
				rb_varint(b, g->v[c]);
		}
	}
	for (size_t i = 0; i < st->ncgs; i++)
		free(st->cgs[i].path);
	if (s->ncgroups > st->cgcap) {
		st->cgcap = s->ncgroups;
		st->cgs = xrealloc(st->cgs, st->cgcap * sizeof(*st->cgs));
	}
	st->ncgs = s->ncgroups;
	for (size_t i = 0; i < s->ncgroups; i++) {
		st->cgs[i] = s->cgroups[i];
		st->cgs[i].path = xstrdup(s->cgroups[i].path);
		st->cgs[i].name = NULL; /* the snapshot's */
	}
}

void rec_encode(struct rec_state *st, const struct snapshot *s, bool key, struct rbuf *out)
{
	static const struct snapshot zero;
	static const struct rbuf none[REC_PARTS];
	struct rbuf parts[REC_PARTS] = {{0}};

	rec_tasks_put(&parts[REC_PART_TASKS], s);
	rec_names_put(&parts[REC_PART_NAMES], s);
	put_sys(out, s, key ? &zero : &st->sys, parts, key ? none : st->parts);
	for (int i = 0; i < REC_PARTS; i++) {
		SWAP(st->parts[i], parts[i]);
		free(parts[i].p);
	}
	put_ptr_str(out, s->cg_self.path, st->cg_self_path, key);
	put_procs(st, out, s, key);
	put_cgroups(st, out, s, key);
	rb_varint(out, s->nevents);
	for (size_t i = 0; i < s->nevents; i++)
		put_event(out, &s->events[i]);
	st->sys = *s;
	free(st->cg_self_path);
	st->cg_self_path = s->cg_self.path ? xstrdup(s->cg_self.path) : NULL;
	st->have = true;
}
