#include "groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define INDEX_SLOTS  4096 /* a power of two, over twice GROUPS_MAX + 1 */
#define NAME_MAX_LEN 255  /* a group's name is cut to this */

/* The process column each group counter sums */
static const enum col_id counter_col[GROUPCOL_COUNTERS] = {COL_MINFLT, COL_MAJFLT, COL_SWAPIN,
							   COL_RECLAIM};

int groups_load(struct groups *gs, const char *path, char *err, size_t errlen)
{
	memset(gs, 0, sizeof(*gs));
	if (group_rules_read(&gs->rules, path, err, errlen))
		return -1;
	gs->index = xcalloc(INDEX_SLOTS, sizeof(*gs->index));
	return 0;
}

/* What a rule reads of a process */
struct subject {
	const char *comm, *cmd, *user, *cgroup;
	char exe[256]; /* argv[0]: the command line's first word */
	const char *exe_base;
	uint32_t uid;
	char matches[256]; /* what the first cmdline expression matched */
};

static void subject_of(struct subject *x, const char *comm, const char *cmd, const char *user,
		       uint32_t uid, const char *cgroup)
{
	x->comm = comm;
	x->cmd = cmd ? cmd : "";
	x->user = user;
	x->uid = uid;
	x->cgroup = cgroup;
	size_t n = strcspn(x->cmd, " ");
	snprintf(x->exe, sizeof(x->exe), "%.*s", (int)n, x->cmd);
	const char *slash = strrchr(x->exe, '/');
	x->exe_base = slash ? slash + 1 : x->exe;
	x->matches[0] = '\0';
}

static bool any_name(const struct group_list *l, const char *s)
{
	for (size_t i = 0; s && i < l->n; i++)
		if (!strcmp(l->s[i], s))
			return true;
	return false;
}

/* Whether every expression of l matches the first GROUPS_TEXT_MAX bytes of s */
static bool all_match(const struct group_list *l, const char *s, char *first, size_t size)
{
	regmatch_t mt[1];
	size_t len = s ? strnlen(s, GROUPS_TEXT_MAX) : 0;

	for (size_t i = 0; i < l->n; i++) {
		mt[0] = (regmatch_t){.rm_so = 0, .rm_eo = (regoff_t)len};
		if (!s || regexec(&l->re[i], s, 1, mt, REG_STARTEND))
			return false;
		if (!i && first)
			snprintf(first, size, "%.*s", (int)(mt[0].rm_eo - mt[0].rm_so),
				 s + mt[0].rm_so);
	}
	return true;
}

static bool rule_matches(const struct group_rule *r, struct subject *x)
{
	const struct group_list *m = r->m;
	char uid[16];

	if (m[GM_COMM].n && !any_name(&m[GM_COMM], x->comm))
		return false;
	if (m[GM_EXE].n) {
		bool hit = false;
		for (size_t i = 0; i < m[GM_EXE].n && !hit; i++)
			hit = !strcmp(m[GM_EXE].s[i],
				      strchr(m[GM_EXE].s[i], '/') ? x->exe : x->exe_base);
		if (!hit)
			return false;
	}
	snprintf(uid, sizeof(uid), "%u", x->uid);
	if (m[GM_USER].n && !any_name(&m[GM_USER], x->user) && !any_name(&m[GM_USER], uid))
		return false;
	return all_match(&m[GM_CMDLINE], x->cmd, x->matches, sizeof(x->matches)) &&
	       all_match(&m[GM_CGROUP], x->cgroup, NULL, 0);
}

static void expand(const struct group_template *t, const struct subject *x, char *buf, size_t size)
{
	char uid[16];
	size_t n = 0;

	snprintf(uid, sizeof(uid), "%u", x->uid);
	const char *field[GF_COUNT] = {[GF_COMM] = x->comm,
				       [GF_EXE_BASE] = x->exe_base,
				       [GF_EXE_FULL] = x->exe,
				       [GF_USERNAME] = x->user ? x->user : uid,
				       [GF_MATCHES] = x->matches};
	buf[0] = '\0';
	for (size_t i = 0; i <= t->nfields && n + 1 < size; i++) {
		int k = snprintf(buf + n, size - n, "%s%s", t->text[i],
				 i < t->nfields ? field[t->field[i]] : "");
		n += k < 0 ? 0 : (size_t)k;
	}
}

static uint32_t hash_of(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The group of name, made where it is new: the group "other" past GROUPS_MAX */
static uint32_t group_of(struct groups *gs, const char *name)
{
	uint32_t h = hash_of(name), i = h & (INDEX_SLOTS - 1);

	for (; gs->index[i].group; i = (i + 1) & (INDEX_SLOTS - 1))
		if (gs->index[i].hash == h && !strcmp(gs->g[gs->index[i].group - 1].name, name))
			return gs->index[i].group - 1;
	if (gs->n >= GROUPS_MAX && strcmp(name, "other"))
		return group_of(gs, "other"); /* made past GROUPS_MAX, the one group there */
	if (gs->n == gs->cap) {
		gs->cap = gs->cap ? 2 * gs->cap : 16;
		gs->g = xrealloc(gs->g, gs->cap * sizeof(*gs->g));
		gs->gone = xrealloc(gs->gone, gs->cap * sizeof(*gs->gone));
	}
	memset(&gs->g[gs->n], 0, sizeof(gs->g[gs->n]));
	memset(&gs->gone[gs->n], 0, sizeof(gs->gone[gs->n]));
	gs->g[gs->n].name = xstrdup(name);
	gs->index[i] = (struct group_index_slot){h, (uint32_t)++gs->n};
	return (uint32_t)gs->n - 1;
}

/* The group of the first rule matching x; -1: none */
static long place(struct groups *gs, struct subject *x)
{
	char name[NAME_MAX_LEN + 1];
	for (size_t r = 0; r < gs->rules.n; r++) {
		if (!rule_matches(&gs->rules.r[r], x))
			continue;
		expand(&gs->rules.r[r].name, x, name, sizeof(name));
		return group_of(gs, name);
	}
	return -1;
}

/* What the rules read of a process, hashed (FNV-1a, 64 bits) */
static uint64_t subject_hash(const struct proc_sample *p)
{
	const char *parts[] = {p->comm, p->cmd, p->user, p->cgroup};
	uint64_t h = 14695981039346656037u;

	for (size_t k = 0; k < ARRAY_SIZE(parts); k++) {
		for (const char *c = parts[k] ? parts[k] : ""; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211u;
		h = (h ^ (parts[k] ? 0x100u : 0x200u)) * 1099511628211u; /* the end, or none */
	}
	return (h ^ p->uid) * 1099511628211u;
}

static int by_seen(const void *a, const void *b)
{
	const struct group_seen *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->start_ticks > y->start_ticks) - (x->start_ticks < y->start_ticks);
}

/* The group of p: as last placed if what the rules read of it is the same, else placed
 * by the rules; kept in seen_next */
static long placed(struct groups *gs, const struct proc_sample *p)
{
	struct group_seen key = {.pid = p->pid, .start_ticks = p->start_ticks},
			  *now = &gs->seen_next[gs->nseen_next++];
	const struct group_seen *was =
		gs->nseen ? bsearch(&key, gs->seen, gs->nseen, sizeof(*gs->seen), by_seen) : NULL;
	struct subject x;

	key.hash = subject_hash(p);
	if (was && was->hash == key.hash) {
		key.group = was->group;
	} else {
		subject_of(&x, p->comm, p->cmd, p->user, p->uid, p->cgroup);
		key.group = (int32_t)place(gs, &x);
	}
	*now = key;
	return key.group;
}

size_t groups_match(struct groups *gs, const struct model *m, int32_t **pids)
{
	const struct snapshot *s = model_current(m);

	if (gs->memcap < s->nprocs + gs->nmem) {
		gs->memcap = s->nprocs + gs->nmem + 64;
		gs->mem = xrealloc(gs->mem, gs->memcap * sizeof(*gs->mem));
		gs->next = xrealloc(gs->next, gs->memcap * sizeof(*gs->next));
		gs->pids = xrealloc(gs->pids, gs->memcap * sizeof(*gs->pids));
	}
	if (gs->seencap < s->nprocs) {
		gs->seencap = s->nprocs + 64;
		gs->seen_next = xrealloc(gs->seen_next, gs->seencap * sizeof(*gs->seen_next));
	}
	gs->nnext = 0;
	gs->nseen_next = 0;
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_sample *p = &s->procs[i];
		long g = placed(gs, p);
		if (g < 0)
			continue;
		gs->pids[gs->nnext] = p->pid;
		gs->next[gs->nnext++] = (struct group_member){
			.pid = p->pid, .start_ticks = p->start_ticks, .group = (uint32_t)g};
	}
	/* by pid and start, for the next refresh's bsearch (the snapshot is by pid) */
	qsort(gs->seen_next, gs->nseen_next, sizeof(*gs->seen_next), by_seen);
	struct group_seen *t = gs->seen;
	gs->seen = gs->seen_next;
	gs->nseen = gs->nseen_next;
	gs->seen_next = xrealloc(t, gs->seencap * sizeof(*t));
	*pids = gs->pids;
	return gs->nnext;
}

static int by_member(const void *a, const void *b)
{
	const struct group_member *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->start_ticks > y->start_ticks) - (x->start_ticks < y->start_ticks);
}

static int by_pid(const void *key, const void *elem)
{
	int32_t pid = *(const int32_t *)key, q = ((const struct proc_sample *)elem)->pid;

	return (pid > q) - (pid < q);
}

/* The victims of the kills added to m since the last call, counted in their groups */
static void count_kills(struct groups *gs, const struct model *m)
{
	uint64_t added = m->oom_seen - gs->oom_seen;
	size_t from = added < m->noom ? m->noom - (size_t)added : 0;
	struct subject x;

	gs->oom_seen = m->oom_seen;
	for (size_t i = from; i < m->noom; i++) {
		const struct mt_event *e = &m->oom[i];
		if (e->earlier) /* before memtop started */
			continue;
		long g = -1;
		for (size_t k = 0; k < gs->nmem && g < 0; k++)
			if (gs->mem[k].pid == e->pid)
				g = gs->mem[k].group;
		if (g < 0) {
			subject_of(&x, e->comm, e->comm, NULL, e->uid, e->memcg);
			g = place(gs, &x);
		}
		if (g >= 0) {
			gs->g[g].v[GROUPCOL_OOMS]++;
			gs->g[g].read |= TABLE_BIT(GROUPCOL_OOMS);
		}
	}
}

/* Each member's counters, those not read this time as last read; what members that left
 * a group had counted kept in its gone */
static void carry_counters(struct groups *gs, const struct snapshot *s)
{
	size_t i = 0;

	for (size_t j = 0; j < gs->nnext; j++) {
		struct group_member *nx = &gs->next[j];
		while (i < gs->nmem && by_member(&gs->mem[i], nx) < 0) {
			for (int c = 0; c < GROUPCOL_COUNTERS; c++)
				gs->gone[gs->mem[i].group][c] += gs->mem[i].last[c];
			i++;
		}
		bool same = i < gs->nmem && !by_member(&gs->mem[i], nx);
		if (same && gs->mem[i].group != nx->group)
			for (int c = 0; c < GROUPCOL_COUNTERS; c++)
				gs->gone[gs->mem[i].group][c] += gs->mem[i].last[c];
		else if (same)
			memcpy(nx->last, gs->mem[i].last, sizeof(nx->last));
		i += same;
		const struct proc_sample *p =
			bsearch(&nx->pid, s->procs, s->nprocs, sizeof(*s->procs), by_pid);
		for (int c = 0; p && c < GROUPCOL_COUNTERS; c++)
			if (p->valid & COL_BIT(counter_col[c])) {
				nx->last[c] = PROC_FIG(p, counter_col[c]);
				gs->g[nx->group].read |= TABLE_BIT(GROUPCOL_FIRST_COUNTER + c);
			}
	}
	for (; i < gs->nmem; i++)
		for (int c = 0; c < GROUPCOL_COUNTERS; c++)
			gs->gone[gs->mem[i].group][c] += gs->mem[i].last[c];
}

/* Each counter's rate since the last sums, as the column shows it (times its scale) */
static void rates(struct groups *gs, double now)
{
	double dt = gs->mono > 0 ? now - gs->mono : 0;

	for (size_t g = 0; g < gs->n; g++) {
		struct group_total *t = &gs->g[g];
		t->valid = t->read;
		for (int c = GROUPCOL_FIRST_COUNTER; c < GROUPCOL_OOMS; c++) {
			unsigned bit = TABLE_BIT(c);
			const struct column *col = &group_columns[c];
			t->valid &= ~bit;
			if (dt > 0 && (t->read & t->prev_read & bit) && t->v[c] >= t->prev[c]) {
				t->num[c] = (double)(t->v[c] - t->prev[c]) / dt *
					    (col->scale ? col->scale : 1);
				t->valid |= bit;
			}
		}
		memcpy(t->prev, t->v, sizeof(t->prev));
		t->prev_read = t->read;
	}
	gs->mono = now;
}

void groups_sum(struct groups *gs, const struct model *m)
{
	const struct snapshot *s = model_current(m);
	static const struct {
		enum groupcol_id g;
		enum col_id p;
	} gauges[] = {{GROUPCOL_RSS, COL_RSS}, {GROUPCOL_SWAP, COL_SWAP}, {GROUPCOL_PSS, COL_PSS}};
	unsigned gauge_bits =
		TABLE_BIT(GROUPCOL_RSS) | TABLE_BIT(GROUPCOL_SWAP) | TABLE_BIT(GROUPCOL_PSS);

	count_kills(gs, m);
	qsort(gs->next, gs->nnext, sizeof(*gs->next), by_member);
	carry_counters(gs, s);
	for (size_t g = 0; g < gs->n; g++) {
		struct group_total *t = &gs->g[g];
		t->read = (t->read & ~gauge_bits) | TABLE_BIT(GROUPCOL_PROCS) |
			  TABLE_BIT(GROUPCOL_OOMS);
		t->v[GROUPCOL_PROCS] = 0;
		for (size_t k = 0; k < ARRAY_SIZE(gauges); k++)
			t->v[gauges[k].g] = 0;
		for (int c = 0; c < GROUPCOL_COUNTERS; c++)
			t->v[GROUPCOL_FIRST_COUNTER + c] = gs->gone[g][c];
	}
	for (size_t j = 0; j < gs->nnext; j++) {
		const struct group_member *nx = &gs->next[j];
		struct group_total *t = &gs->g[nx->group];
		const struct proc_sample *p =
			bsearch(&nx->pid, s->procs, s->nprocs, sizeof(*s->procs), by_pid);
		t->v[GROUPCOL_PROCS]++;
		for (int c = 0; c < GROUPCOL_COUNTERS; c++)
			t->v[GROUPCOL_FIRST_COUNTER + c] += nx->last[c];
		for (size_t k = 0; p && k < ARRAY_SIZE(gauges); k++) {
			if (!(p->valid & COL_BIT(gauges[k].p)))
				continue;
			t->v[gauges[k].g] += PROC_FIG(p, gauges[k].p);
			t->read |= TABLE_BIT(gauges[k].g);
		}
	}
	/* RSS of a group without members: 0, read */
	for (size_t g = 0; g < gs->n; g++)
		gs->g[g].read |= TABLE_BIT(GROUPCOL_RSS);
	rates(gs, s->mono);
	struct group_member *t = gs->mem;
	gs->mem = gs->next;
	gs->next = t;
	gs->nmem = gs->nnext;
	gs->nnext = 0;
}

void groups_free(struct groups *gs)
{
	for (size_t g = 0; g < gs->n; g++)
		free(gs->g[g].name);
	free(gs->g);
	free(gs->gone);
	free(gs->mem);
	free(gs->next);
	free(gs->pids);
	free(gs->seen);
	free(gs->seen_next);
	free(gs->index);
	group_rules_free(&gs->rules);
	memset(gs, 0, sizeof(*gs));
}
