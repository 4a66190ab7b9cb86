/* The cgroup reader's figures from BPF: records of the cgroup iterator into the columns
 * of struct cg_sample, as the files of each version give them (cgroup_parse.c's tables), and
 * the tree of cgroups from the iterator's names (cgroup_tree.c). The processes per cgroup
 * from the task iterator are cgroup_nprocs.c's. */
#include "cgroup_from_bpf.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf_cgroup_iter.h"
#include "cgroup_parse.h"
#include "cgroup_files.h"
#include "cgroup_list.h"
#include "cgroup_tree.h"
#include "util.h"

#define CHECKED	 4	  /* cgroups compared with their files */
#define TRIES	 3	  /* compared again where they disagree */
#define SLACK_KB (64 * 4) /* see agrees() */

enum bkind {
	BK_NONE,  /* not from BPF in this version */
	BK_PAGES, /* pages, kept in KiB */
	BK_LIMIT, /* pages; PAGE_COUNTER_MAX (2^62 bytes and more) is none, as the files say */
	BK_COUNT,
};

/* Where a column's figure is in a record, per version: the field, and the record's
 * have bits it needs */
struct bsrc {
	enum bkind kind;
	size_t off;
	unsigned have;
	bool stat; /* memory.stat's: the kernel's counters as of its last flush (below) */
};

#define F(field) offsetof(struct mtb_cgroup_rec, field)

/* the columns of v1_src in cgroup_parse.c that the page counters give; memsw raw, as the file
 * gives it (the reader subtracts the memory) */
static const struct bsrc v1_bpf[CGCOL_COUNT] = {
	[CGCOL_USAGE] = {.kind = BK_PAGES, .off = F(usage), .have = 0},
	[CGCOL_LIMIT] = {.kind = BK_LIMIT, .off = F(max), .have = 0},
	[CGCOL_LOW] = {.kind = BK_LIMIT, .off = F(soft_limit), .have = MTB_CG_KMEM},
	[CGCOL_KERNEL] = {.kind = BK_PAGES, .off = F(kmem), .have = MTB_CG_KMEM},
	[CGCOL_SWAP] = {.kind = BK_PAGES, .off = F(swap), .have = 0},
	[CGCOL_SWAP_LIMIT] = {.kind = BK_LIMIT, .off = F(swap_max), .have = 0},
	[CGCOL_OOM_KERNEL] = {.kind = BK_COUNT, .off = F(oom_kill), .have = MTB_CG_EVENTS},
	[CGCOL_ANON] = {.kind = BK_PAGES, .off = F(anon), .have = MTB_CG_STAT, .stat = true},
	[CGCOL_FILE] = {.kind = BK_PAGES, .off = F(file), .have = MTB_CG_STAT, .stat = true},
	[CGCOL_REFAULTS] = {.kind = BK_COUNT,
			    .off = F(refaults),
			    .have = MTB_CG_STAT,
			    .stat = true},
};

/* and of v2_src */
static const struct bsrc v2_bpf[CGCOL_COUNT] = {
	[CGCOL_USAGE] = {.kind = BK_PAGES, .off = F(usage), .have = 0},
	[CGCOL_LIMIT] = {.kind = BK_LIMIT, .off = F(max), .have = 0},
	[CGCOL_HIGH] = {.kind = BK_LIMIT, .off = F(high), .have = 0},
	[CGCOL_LOW] = {.kind = BK_LIMIT, .off = F(low), .have = 0},
	[CGCOL_MIN] = {.kind = BK_LIMIT, .off = F(min), .have = 0},
	[CGCOL_SWAP] = {.kind = BK_PAGES, .off = F(swap), .have = 0},
	[CGCOL_SWAP_LIMIT] = {.kind = BK_LIMIT, .off = F(swap_max), .have = 0},
	[CGCOL_OOM_KERNEL] = {.kind = BK_COUNT, .off = F(oom_kill), .have = MTB_CG_EVENTS},
	[CGCOL_ANON] = {.kind = BK_PAGES, .off = F(anon), .have = MTB_CG_STAT, .stat = true},
	[CGCOL_FILE] = {.kind = BK_PAGES, .off = F(file), .have = MTB_CG_STAT, .stat = true},
	[CGCOL_KERNEL] = {.kind = BK_PAGES, .off = F(kernel), .have = MTB_CG_KSTAT, .stat = true},
	[CGCOL_REFAULTS] = {.kind = BK_COUNT,
			    .off = F(refaults),
			    .have = MTB_CG_STAT,
			    .stat = true},
};

struct cg_bpf {
	struct cg_iter *it;
	bool checked;  /* the self-check ran: cols holds its verdict */
	unsigned cols; /* the columns taken from BPF */
	int tree;      /* the tree from BPF: 0 not compared with the listing yet, 1 the same,
			  -1 not (or the iterator cannot be read): the listing */
	bool fresh;    /* by_id holds this refresh's read (cg_bpf_list) */
	unsigned stat; /* memory.stat's columns asked for: the top cgroup's file is read first */
	struct cg_sample top; /* and what it gave (path NULL: not read) */
	struct cg_tree *t;
	uint64_t page_size;
	const struct mtb_cgroup_rec *recs;   /* the last read's records, in the walk's order */
	const struct mtb_cgroup_rec **by_id; /* and by id */
	size_t nby_id, by_id_cap;
};

struct cg_bpf *cg_bpf_new(struct cg_iter *it)
{
	if (!it)
		return NULL;
	struct cg_bpf *b = xcalloc(1, sizeof(*b));
	b->it = it;
	b->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	return b;
}

void cg_bpf_free(struct cg_bpf *b)
{
	if (!b)
		return;
	cg_tree_free(b->t);
	free(b->by_id);
	free(b);
}

void cg_bpf_idle(struct cg_bpf *b)
{
	if (b)
		bpf_cgroup_iter_stop(b->it);
}

static const struct bsrc *table(int version)
{
	return version == 1 ? v1_bpf : version == 2 ? v2_bpf : NULL;
}

/* The columns the records can give in this version */
static unsigned bpf_columns(const struct bsrc *t)
{
	unsigned cols = 0;

	for (int c = 0; c < CGCOL_COUNT; c++)
		if (t[c].kind != BK_NONE)
			cols |= CGCOL_BIT(c);
	return cols;
}

/* Column c of cg from record rec, as the file would give it; nothing where the record
 * lacks it, or is the root's but for memory.stat's figures (its usage files say something
 * else: the reader reads them) */
static void put(const struct cg_bpf *b, const struct bsrc *src, const struct mtb_cgroup_rec *rec,
		int c, struct cg_sample *cg)
{
	uint64_t v;

	if (!(rec->have & MTB_CG_MEMCG) || ((rec->have & MTB_CG_ROOT) && !src->stat) ||
	    (rec->have & src->have) != src->have)
		return;
	memcpy(&v, (const char *)rec + src->off, sizeof(v));
	bool none = false;
	if (src->kind != BK_COUNT) {
		uint64_t bytes = v * b->page_size;
		none = src->kind == BK_LIMIT && bytes >= CG_V1_UNLIMITED;
		v = bytes / 1024;
	}
	cg->v[c] = none ? 0 : v;
	cg->valid |= CGCOL_BIT(c);
	if (none)
		cg->unlimited |= CGCOL_BIT(c);
	else
		cg->unlimited &= ~CGCOL_BIT(c);
}

static int cmp_rec_id(const void *a, const void *b)
{
	uint64_t x = (*(const struct mtb_cgroup_rec *const *)a)->id;
	uint64_t y = (*(const struct mtb_cgroup_rec *const *)b)->id;
	return (x > y) - (x < y);
}

/* The columns of t that are memory.stat's */
static unsigned stat_columns(const struct bsrc *t)
{
	unsigned cols = 0;

	for (int c = 0; c < CGCOL_COUNT; c++)
		if (t[c].stat)
			cols |= CGCOL_BIT(c);
	return cols;
}

/* memory.stat's figures are the kernel's counters as of their last flush: every 2 s, and
 * whenever a memory.stat is read with enough updates pending (more than 64 pages a CPU),
 * for that cgroup's subtree. Reading the top cgroup's file first flushes them all as the
 * file of each would have, and gives the top cgroup's (the kernel's root memory cgroup's
 * usage files say something else than its records). */
static void flush(struct cg_bpf *b, struct cg_reader *r)
{
	b->top = (struct cg_sample){0};
	if (!b->stat)
		return;
	b->top.path = (char *)cg_root(r);
	if (cg_read_files(r, &b->top, b->stat))
		b->top = (struct cg_sample){0};
}

/* memory.stat's columns of cols that BPF is to give */
static unsigned asked_stat(const struct cg_bpf *b, const struct bsrc *t, unsigned cols)
{
	return cols & stat_columns(t) & (b->checked ? b->cols : ~0u);
}

/* One read of the iterator, indexed by id; -1 if it failed */
static int read_recs(struct cg_bpf *b, struct cg_reader *r)
{
	const struct mtb_cgroup_rec *recs;
	size_t n;

	flush(b, r);
	if (bpf_cgroup_iter_read(b->it, cg_mount(r), &recs, &n))
		return -1;
	if (n > b->by_id_cap) {
		b->by_id_cap = n;
		b->by_id = xrealloc(b->by_id, n * sizeof(*b->by_id));
	}
	for (size_t i = 0; i < n; i++)
		b->by_id[i] = &recs[i];
	b->recs = recs;
	b->nby_id = n;
	qsort(b->by_id, n, sizeof(*b->by_id), cmp_rec_id);
	return 0;
}

static const struct mtb_cgroup_rec *rec_of(const struct cg_bpf *b, uint64_t id)
{
	struct mtb_cgroup_rec key = {.id = id};
	const struct mtb_cgroup_rec *k = &key, *const * at;

	at = bsearch(&k, b->by_id, b->nby_id, sizeof(*b->by_id), cmp_rec_id);
	return at ? *at : NULL;
}

/* Whether column c of the record's sample (got) lies between the files' before and
 * after it. Limits and counts are exact; a usage may be off by what reading the file
 * charges: the file's buffers count in the kmem of the reader's cgroup (v1 kmem is
 * charged page by page), and a charge may take a batch of 64 pages for later ones. */
static bool agrees(const struct cg_sample *got, const struct cg_sample *before,
		   const struct cg_sample *after, int c, enum bkind kind)
{
	unsigned bit = CGCOL_BIT(c);
	uint64_t lo = before->v[c] < after->v[c] ? before->v[c] : after->v[c];
	uint64_t hi = before->v[c] < after->v[c] ? after->v[c] : before->v[c];

	if (kind == BK_PAGES) {
		uint64_t slack = hi / 100 > SLACK_KB ? hi / 100 : SLACK_KB;
		lo = lo > slack ? lo - slack : 0;
		hi += slack;
	}
	if (!(got->valid & before->valid & after->valid & bit))
		return false;
	if ((got->unlimited ^ before->unlimited) & bit || (got->unlimited ^ after->unlimited) & bit)
		return false;
	return got->v[c] >= lo && got->v[c] <= hi;
}

/* The self-check: the columns on which the iterator agrees with the files of up to
 * CHECKED cgroups listed in s (not the root), each read before and after it; tried again
 * while some disagree. Returns -1 when no cgroup could be compared (not decided). */
static int self_check(struct cg_bpf *b, struct cg_reader *r, const struct snapshot *s,
		      unsigned *cols)
{
	const struct bsrc *t = table(cg_version(r));
	unsigned want = bpf_columns(t), good = 0;

	for (int tries = 0; tries < TRIES; tries++) {
		struct cg_sample before[CHECKED], after[CHECKED];
		size_t idx[CHECKED], n = 0;

		/* the root too for memory.stat's figures, the largest: a counter read from
		   the wrong place of the kernel's array shows there */
		for (size_t i = 0; i < s->ncgroups && n < CHECKED; i++) {
			const struct mtb_cgroup_rec *rec = rec_of(b, s->cgroups[i].id);
			if (s->cgroups[i].removed || !rec || !(rec->have & MTB_CG_MEMCG) ||
			    ((rec->have & MTB_CG_ROOT) && !(want & stat_columns(t))))
				continue;
			before[n] = (struct cg_sample){.path = s->cgroups[i].path};
			if (cg_read_files(r, &before[n], want) == 0)
				idx[n++] = i;
		}
		if (!n)
			return -1;
		if (read_recs(b, r))
			return tries ? 0 : -2;
		unsigned bad = 0, seen = 0;
		for (size_t k = 0; k < n; k++) {
			struct cg_sample got = {0};
			const struct mtb_cgroup_rec *rec = rec_of(b, s->cgroups[idx[k]].id);
			after[k] = (struct cg_sample){.path = s->cgroups[idx[k]].path};
			if (cg_read_files(r, &after[k], want) || !rec) {
				bad = want;
				continue;
			}
			for (int c = 0; c < CGCOL_COUNT; c++)
				if (want & CGCOL_BIT(c))
					put(b, &t[c], rec, c, &got);
			unsigned cols = rec->have & MTB_CG_ROOT ? want & stat_columns(t) : want;
			for (int c = 0; c < CGCOL_COUNT; c++) {
				if (!(cols & CGCOL_BIT(c)))
					continue;
				seen |= CGCOL_BIT(c);
				if (!agrees(&got, &before[k], &after[k], c, t[c].kind))
					bad |= CGCOL_BIT(c);
			}
		}
		good = seen & ~bad;
		if (!bad)
			break;
	}
	*cols = good;
	return 0;
}

void cg_bpf_fill(struct cg_bpf *b, struct cg_reader *r, struct snapshot *s, unsigned cols)
{
	const struct bsrc *t = table(cg_version(r));

	bool fresh = b && b->fresh;

	if (b)
		b->fresh = false;
	if (!b || !t || !(cols & bpf_columns(t)) || (b->checked && !(cols & b->cols)))
		return;
	if (!fresh)
		b->stat = asked_stat(b, t, cols);
	if (!fresh && read_recs(b, r)) {
		b->checked = true; /* the iterator cannot be read: files from now on */
		b->cols = 0;
		b->tree = -1;
		bpf_cgroup_iter_stop(b->it);
		return;
	}
	if (!b->checked) {
		int rc = self_check(b, r, s, &b->cols);
		if (rc == -1)
			return; /* no cgroup to compare yet: files this time */
		b->checked = true;
		if (rc || !b->cols) {
			b->cols = 0;
			if (b->tree < 0)
				bpf_cgroup_iter_stop(b->it);
			return;
		}
	}
	cols &= b->cols;
	for (size_t i = 0; i < s->ncgroups; i++) {
		const struct mtb_cgroup_rec *rec = rec_of(b, s->cgroups[i].id);
		if (!rec)
			continue; /* made since it was read: its files, if still there */
		for (int c = 0; c < CGCOL_COUNT; c++)
			if (cols & CGCOL_BIT(c))
				put(b, &t[c], rec, c, &s->cgroups[i]);
	}
	/* the top cgroup's, as its file gave them before the walk */
	for (size_t i = 0; b->top.path && i < s->ncgroups && s->cgroups[i].depth == 0; i++) {
		struct cg_sample *cg = &s->cgroups[i];
		unsigned top = b->top.valid & b->stat & cols;
		if (strcmp(cg->path, b->top.path))
			continue;
		for (int c = 0; c < CGCOL_COUNT; c++)
			if (top & CGCOL_BIT(c))
				cg->v[c] = b->top.v[c];
		cg->valid |= top;
	}
}

static const char *rec_name(const void *ctx, size_t i)
{
	return bpf_cgroup_iter_name(ctx, i);
}

/* The tree of the last read into s; -1 if the records make none */
static int build(struct cg_bpf *b, struct cg_reader *r, struct snapshot *s)
{
	if (!b->t)
		b->t = cg_tree_new();
	return cg_tree_build(b->t, b->recs, b->nby_id, rec_name, b->it, cg_root(r), s);
}

/* Whether the cgroups of a and b are the same, in the same order */
static bool same_tree(const struct snapshot *a, const struct snapshot *b)
{
	if (a->ncgroups != b->ncgroups)
		return false;
	for (size_t i = 0; i < a->ncgroups; i++)
		if (a->cgroups[i].id != b->cgroups[i].id ||
		    a->cgroups[i].depth != b->cgroups[i].depth ||
		    strcmp(a->cgroups[i].path, b->cgroups[i].path))
			return false;
	return true;
}

/* The tree's self-check: the listing into s, and the iterator's tree compared with it
 * (both again where they differ: a cgroup made or removed between them) */
static void check_tree(struct cg_bpf *b, struct cg_reader *r, struct snapshot *s)
{
	struct snapshot mine;

	snapshot_init(&mine);
	b->tree = -1;
	for (int tries = 0; tries < TRIES && b->tree < 0; tries++) {
		while (s->ncgroups)
			snapshot_drop_cgroup(s, s->ncgroups - 1);
		while (mine.ncgroups)
			snapshot_drop_cgroup(&mine, mine.ncgroups - 1);
		cg_list(r, s);
		if (tries && read_recs(b, r)) {
			b->fresh = false; /* the figures read it again, and fail */
			break;
		}
		if (!build(b, r, &mine) && same_tree(s, &mine))
			b->tree = 1;
	}
	snapshot_free(&mine);
}

bool cg_bpf_list(struct cg_bpf *b, struct cg_reader *r, struct snapshot *s, unsigned cols)
{
	if (!b)
		return false;
	b->fresh = false;
	if (b->tree < 0)
		return false;
	b->stat = table(cg_version(r)) ? asked_stat(b, table(cg_version(r)), cols) : 0;
	if (read_recs(b, r)) {
		b->tree = -1; /* as the figures: files from now on */
		return false;
	}
	b->fresh = true;
	if (!b->tree) {
		check_tree(b, r, s);
		return true; /* listed */
	}
	return build(b, r, s) == 0;
}
