/* The recording's decoder: a sample's fields back into a snapshot, against the previous
 * sample (reccodec.h); recencode.c writes them. Every length and count is checked against
 * the bytes left: a damaged block is an error, never a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reccodec_impl.h"
#include "util.h"

/* Reads one: *changed false where it is the base's; else a new string or NULL */
static char *get_ptr_str(struct rcur *c, bool *changed)
{
	uint64_t n = rc_varint(c);
	*changed = n != 0;
	if (n < 2)
		return NULL;
	const uint8_t *p = n - 2 <= 1u << 20 ? rc_bytes(c, n - 2) : NULL;
	if (!p) {
		c->bad = true;
		return NULL;
	}
	char *s = xmalloc(n - 1);
	memcpy(s, p, n - 2);
	s[n - 2] = '\0';
	return s;
}

/* The cgroups' processes as coded (a part of size 0, recfmt.h): unchanged, or new bytes */
static void get_tasks(struct rcur *c, struct rbuf *tasks)
{
	uint64_t n = rc_varint(c);
	const uint8_t *b = n ? rc_bytes(c, n - 1) : NULL;

	if (b) {
		tasks->n = 0;
		if (n > 1)
			rb_bytes(tasks, b, n - 1);
	}
}

static void get_sys(struct rcur *c, const struct rec_schema *sc, struct rec_state *rs)
{
	struct snapshot *st = &rs->sys;

	for (int i = 0; i < sc->nsys && !c->bad; i++) {
		const struct rec_field *f = sc->sys[i] >= 0 ? &rec_sys_fields[sc->sys[i]] : NULL;
		char *p = f ? (char *)st + f->off : NULL;
		if (f && !f->size) {
			get_tasks(c, &rs->parts[rec_part_of(f)]);
			continue;
		}
		switch (sc->sys_type[i]) {
		case RF_DBL: {
			uint64_t x = rc_varint(c), y;
			if (p) {
				memcpy(&y, p, 8);
				y ^= x;
				memcpy(p, &y, 8);
			}
			break;
		}
		case RF_HIST:
			for (size_t k = 0; k < sizeof(struct mt_hist) / 8; k++) {
				uint64_t d = (uint64_t)rc_svarint(c), v;
				if (p) {
					memcpy(&v, p + 8 * k, 8);
					v += d;
					memcpy(p + 8 * k, &v, 8);
				}
			}
			break;
		case RF_CHARS: {
			uint64_t n = rc_varint(c);
			if (!n)
				break;
			const uint8_t *b = rc_bytes(c, n - 1);
			if (p && b) {
				size_t k = n - 1 < f->size ? n - 1 : f->size - 1;
				memset(p, 0, f->size);
				memcpy(p, b, k);
				p[strnlen(p, k)] = '\0';
			}
			break;
		}
		default: {
			uint64_t d = (uint64_t)rc_svarint(c);
			if (f)
				rec_field_set(st, f, rec_field_get(st, f) + d);
		}
		}
	}
}

/* An event's fields: 14 varints and strings, a byte each at least */
#define EVENT_MIN_BYTES 14

static void get_event(struct rcur *c, struct mt_event *e)
{
	uint64_t ts;
	e->type = (enum mt_event_type)rc_varint(c);
	ts = rc_varint(c);
	memcpy(&e->ts, &ts, 8);
	e->earlier = rc_varint(c) != 0;
	e->pid = (int32_t)rc_svarint(c);
	rc_str(c, e->comm, sizeof(e->comm));
	e->uid = (uint32_t)rc_varint(c);
	e->total_vm_kb = rc_varint(c);
	e->anon_rss_kb = rc_varint(c);
	e->file_rss_kb = rc_varint(c);
	e->shmem_rss_kb = rc_varint(c);
	rc_str(c, e->memcg, sizeof(e->memcg));
	e->memcg_id = rc_varint(c);
	e->trigger_pid = (int32_t)rc_svarint(c);
	rc_str(c, e->trigger_comm, sizeof(e->trigger_comm));
}

static void take_str(struct rec_state *st, struct rcur *c, char **s)
{
	bool changed;
	char *t = get_ptr_str(c, &changed);
	if (!changed)
		return;
	bury(st, *s);
	*s = t;
}

static void get_proc(struct rec_state *st, const struct rec_schema *sc, struct rcur *c, unsigned fl,
		     const struct rec_proc *q, struct rec_proc *o)
{
	if (fl & P_NEW)
		o->p.start_ticks = rc_varint(c);
	if (fl & P_IDS) {
		o->p.ppid = (int32_t)rc_svarint(c);
		o->p.uid = (uint32_t)rc_varint(c);
		o->p.kthread = rc_varint(c) != 0;
		o->p.memcg_id = rc_varint(c);
		o->p.cgroup2_id = rc_varint(c);
	}
	if (fl & P_COMM)
		rc_str(c, o->p.comm, sizeof(o->p.comm));
	if (fl & P_CMD)
		take_str(st, c, &o->cmd);
	if (fl & P_USER)
		take_str(st, c, &o->user);
	if (fl & P_CGROUP)
		take_str(st, c, &o->cgroup);
	if (fl & P_MASKS) {
		o->fvalid = (uint32_t)rc_varint(c);
		o->ftried = (uint32_t)rc_varint(c);
		o->p.valid = rec_map_mask(o->fvalid, sc->proc, sc->nproc);
		o->p.tried = rec_map_mask(o->ftried, sc->proc, sc->nproc);
	}
	for (int i = 0; i < sc->nproc && !c->bad; i++) {
		if (!sc->proc_rec[i] || !(o->fvalid >> i & 1))
			continue;
		/* its figure in a sample of this memtop's: none for a column it does not know
		 * or does not keep */
		int k = sc->proc[i] >= 0 ? pv_of[sc->proc[i]] : -1;
		uint64_t v = q && (q->fvalid >> i & 1)
				     ? (k >= 0 ? q->p.fig[k] : 0) + (uint64_t)rc_svarint(c)
				     : rc_varint(c);
		if (k >= 0)
			o->p.fig[k] = v;
	}
	/* the views show a process's command line and user: never none, as a live sample's
	 * (a process without a command line shows [comm], ps's way; a user its uid) */
	char none[MT_COMM_LEN + 16];
	if (!o->cmd) {
		snprintf(none, sizeof(none), "[%s]", o->p.comm);
		o->cmd = xstrdup(none);
	}
	if (!o->user) {
		snprintf(none, sizeof(none), "%u", o->p.uid);
		o->user = xstrdup(none);
	}
	o->p.cmd = o->cmd;
	o->p.user = o->user;
	o->p.cgroup = o->cgroup;
}

static const char *get_procs(struct rec_state *st, const struct rec_schema *sc, struct rcur *c,
			     struct snapshot *s, bool key)
{
	uint64_t n = rc_varint(c);
	/* a pid and flags each, and a keyframe's processes their start too */
	if (n > (c->n - c->at) / (key ? 3 : 2))
		return "more processes than bytes";
	if (n > REC_MAX_PROCS)
		return "more processes than a sample holds";
	struct rec_proc *out = tmp_room(st, n);
	size_t j = 0, i;
	int64_t prev = 0;
	const char *why = NULL;
	for (i = 0; i < n && !c->bad; i++) {
		int64_t d = rc_svarint(c);
		unsigned fl = (unsigned)rc_varint(c);
		if (d <= 0 || d > INT32_MAX - prev) { /* prev is a pid: no overflow */
			why = "process ids out of order";
			break;
		}
		int64_t pid = prev + d;
		prev = pid;
		struct rec_proc *q = fl & P_NEW || key ? NULL : find_base(st, &j, (int32_t)pid);
		if (!(fl & P_NEW) && !q) {
			why = "a process's change without the process before it";
			break;
		}
		struct rec_proc *o = &out[i];
		if (q) {
			*o = *q;
			q->cmd = q->user = q->cgroup = NULL; /* taken */
		} else {
			memset(o, 0, sizeof(*o));
		}
		o->p.pid = (int32_t)pid;
		get_proc(st, sc, c, fl, q, o);
	}
	if (why || c->bad) { /* what out took is freed with the state's */
		for (size_t k = 0; k < i && k < n; k++) {
			bury(st, out[k].cmd);
			bury(st, out[k].user);
			bury(st, out[k].cgroup);
		}
		return why ? why : "cut short in the processes";
	}
	take_procs(st, n, true);
	for (i = 0; i < n; i++)
		*snapshot_add_proc(s) = st->procs[i].p;
	return NULL;
}

static const char *get_cgroups(struct rec_state *st, const struct rec_schema *sc, struct rcur *c,
			       struct snapshot *s)
{
	char path[4096];
	uint64_t n = rc_varint(c);
	if (n > (c->n - c->at) / 6)
		return "more cgroups than bytes";
	if (n > REC_MAX_CGROUPS)
		return "more cgroups than a sample holds";
	struct cg_sample *base = st->cgs;
	size_t nbase = st->ncgs;
	st->cgs = xcalloc(n ? n : 1, sizeof(*st->cgs));
	st->ncgs = st->cgcap = n;
	for (size_t i = 0; i < n && !c->bad; i++) {
		const struct cg_sample *q = NULL;
		uint64_t id;
		if (rc_varint(c)) {
			if (i >= nbase) {
				c->bad = true;
				break;
			}
			q = &base[i];
			id = q->id;
			snprintf(path, sizeof(path), "%s", q->path);
		} else {
			id = rc_varint(c);
			rc_str(c, path, sizeof(path));
		}
		struct cg_sample *g = snapshot_add_cgroup(s, path), *b = &st->cgs[i];
		g->id = id;
		g->depth = (uint32_t)rc_varint(c);
		int64_t parent = rc_svarint(c);
		if (parent < -1 || parent >= (int64_t)i)
			c->bad = true;
		g->parent = (int32_t)parent;
		uint32_t fvalid = (uint32_t)rc_varint(c);
		g->valid = rec_map_mask(fvalid, sc->cg, sc->ncg);
		g->unlimited = rec_map_mask(rc_varint(c), sc->cg, sc->ncg);
		g->removed = rc_varint(c) != 0;
		for (int k = 0; k < sc->ncg && !c->bad; k++) {
			if (!sc->cg_rec[k] || !(fvalid >> k & 1))
				continue;
			int col = sc->cg[k];
			uint64_t v = q && (q->valid >> k & 1)
					     ? (col >= 0 ? q->v[col] : 0) + (uint64_t)rc_svarint(c)
					     : rc_varint(c);
			if (col >= 0)
				g->v[col] = v;
		}
		*b = *g;
		b->name = NULL; /* the snapshot's */
		b->valid = fvalid;
		b->path = xstrdup(path);
	}
	for (size_t i = 0; i < nbase; i++)
		free(base[i].path);
	free(base);
	return c->bad ? "cut short in the cgroups" : NULL;
}

int rec_decode(struct rec_state *st, const struct rec_schema *sc, const uint8_t *in, size_t n,
	       bool key, struct snapshot *s, char *err, size_t errlen)
{
	struct rcur c = {in, n, 0, false};
	const char *why = NULL;

	st->gen++;
	sweep(st, false);
	if (key)
		rec_state_reset(st);
	else if (!st->have)
		why = "a change without the sample before it";
	if (!why) {
		get_sys(&c, sc, st);
		take_str(st, &c, &st->cg_self_path);
		why = c.bad ? "cut short in the system fields" : get_procs(st, sc, &c, s, key);
	}
	if (!why)
		why = get_cgroups(st, sc, &c, s);
	if (!why)
		why = rec_tasks_get(st->parts[REC_PART_TASKS].p, st->parts[REC_PART_TASKS].n, s);
	if (!why)
		why = rec_names_get(st->parts[REC_PART_NAMES].p, st->parts[REC_PART_NAMES].n, s);
	uint64_t nev = why ? 0 : rc_varint(&c);
	if (nev > (c.n - c.at) / EVENT_MIN_BYTES)
		why = "more events than bytes";
	else if (nev > REC_MAX_EVENTS)
		why = "more events than a sample holds";
	for (uint64_t i = 0; !why && i < nev && !c.bad; i++) {
		struct mt_event e = {0};
		get_event(&c, &e);
		if (e.type == MT_EV_OOM_KILL)
			*snapshot_add_event(s) = e;
	}
	if (!why && (c.bad || c.at != c.n))
		why = c.bad ? "cut short in the events" : "bytes after the sample's fields";
	if (why) {
		snprintf(err, errlen, "%s (byte %zu of its %zu)", why, c.at, n);
		rec_state_reset(st);
		return -1;
	}
	for (size_t f = 0; f < rec_nsys_fields; f++) {
		const struct rec_field *fl = &rec_sys_fields[f];
		memcpy((char *)s + fl->off, (const char *)&st->sys + fl->off, fl->size);
	}
	s->cg_self.path = st->cg_self_path ? xstrdup(st->cg_self_path) : NULL;
	if (s->nnodes > MT_MAX_NODES) /* recorded by a memtop that holds more */
		s->nnodes = MT_MAX_NODES;
	st->have = true;
	return 0;
}
