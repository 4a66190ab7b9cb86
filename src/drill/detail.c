#include "detail.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "snapshot.h"
#include "util.h"

void detail_init(struct detail *d)
{
	memset(d, 0, sizeof(*d));
}

static void free_frames(struct dd_stack *s)
{
	for (int j = 0; j < s->nframes; j++) {
		free(s->frames[j].symbol);
		free(s->frames[j].module);
		free(s->frames[j].build_id);
		free(s->frames[j].src);
	}
	free(s->frames);
	s->frames = NULL;
	s->nframes = s->nkernel = 0;
}

static void free_stacks(struct detail *d)
{
	for (size_t i = 0; i < d->nstacks; i++)
		free_frames(&d->stacks[i]);
	free(d->stacks);
	d->stacks = NULL;
	d->nstacks = 0;
}

static void free_maps(struct detail *d)
{
	for (size_t i = 0; i < d->nmaps; i++)
		free(d->maps[i].path);
	free(d->maps);
	d->maps = NULL;
	d->nmaps = 0;
	for (size_t i = 0; i < d->nfiles; i++)
		free(d->files[i].path);
	free(d->files);
	d->files = NULL;
	d->nfiles = 0;
}

static void free_leaks(struct detail *d)
{
	for (size_t i = 0; i < d->leaks.n; i++) {
		for (int j = 0; j < d->leaks.stacks[i].nframes; j++) {
			free(d->leaks.stacks[i].frames[j].symbol);
			free(d->leaks.stacks[i].frames[j].module);
			free(d->leaks.stacks[i].frames[j].build_id);
			free(d->leaks.stacks[i].frames[j].src);
		}
		free(d->leaks.stacks[i].frames);
	}
	free(d->leaks.stacks);
}

void detail_clear(struct detail *d)
{
	free_leaks(d);
	free_maps(d);
	free_stacks(d);
	detail_init(d);
}

const char *dd_map_label(const struct dd_mapping *m)
{
	return m->path[0] ? m->path : "[anon]";
}

struct dd_mapping *detail_find_map(struct detail *d, uint64_t addr)
{
	size_t lo = 0, hi = d->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < d->maps[mid].start)
			hi = mid;
		else if (addr >= d->maps[mid].end)
			lo = mid + 1;
		else
			return &d->maps[mid];
	}
	return NULL;
}

size_t detail_exec_ranges(const struct detail *d, struct dd_range **out, size_t *cap)
{
	size_t n = 0;

	for (size_t i = 0; i < d->nmaps; i++) {
		const struct dd_mapping *m = &d->maps[i];

		if (m->perms[2] != 'x' || m->end <= m->start)
			continue;
		if (n && (*out)[n - 1].end == m->start) {
			(*out)[n - 1].end = m->end;
			continue;
		}
		*out = xgrow(*out, n, cap, sizeof(**out), 32);
		(*out)[n++] = (struct dd_range){m->start, m->end};
	}
	return n;
}

static bool in_ranges(const struct dd_range *r, size_t nr, uint64_t addr)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < r[mid].start)
			hi = mid;
		else if (addr >= r[mid].end)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

int dd_exec_prefix(const struct dd_range *r, size_t nr, const uint64_t *ips, int n)
{
	int i = 0;

	while (i < n && in_ranges(r, nr, ips[i]))
		i++;
	return i;
}

/* Stacks by kind, then frames: the same stack twice compares equal. */
static int cmp_frames(const struct dd_stack *x, const struct dd_stack *y)
{
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	if (x->nkernel != y->nkernel)
		return x->nkernel - y->nkernel;
	if (x->nframes != y->nframes)
		return x->nframes - y->nframes;
	for (int i = 0; i < x->nframes; i++)
		if (x->frames[i].ip != y->frames[i].ip)
			return x->frames[i].ip < y->frames[i].ip ? -1 : 1;
	return 0;
}

static int cmp_stack_frames(const void *a, const void *b)
{
	return cmp_frames(a, b);
}

/* The larger first of two rows whose figures are (a1, b1) and (a2, b2): by a, ties by b;
 * 0 where both are the same */
static int larger_first(uint64_t a1, uint64_t b1, uint64_t a2, uint64_t b2)
{
	if (a1 != a2)
		return a1 < a2 ? 1 : -1;
	if (b1 != b2)
		return b1 < b2 ? 1 : -1;
	return 0;
}

/* Largest count first; ties by bytes, then in a fixed order. */
static int cmp_stack_count(const void *a, const void *b)
{
	const struct dd_stack *x = a, *y = b;
	int c = larger_first(x->count, x->bytes, y->count, y->bytes);

	return c ? c : cmp_frames(x, y);
}

void detail_merge_stacks(struct detail *d)
{
	size_t n = 0;

	memset(d->st.kind_count, 0, sizeof(d->st.kind_count));
	for (size_t i = 0; i < d->nstacks; i++)
		d->st.kind_count[d->stacks[i].kind] += d->stacks[i].count;
	if (!d->nstacks)
		return; /* stacks is NULL then */
	qsort(d->stacks, d->nstacks, sizeof(*d->stacks), cmp_stack_frames);
	for (size_t i = 0; i < d->nstacks; i++) {
		struct dd_stack *s = &d->stacks[i], *last = n ? &d->stacks[n - 1] : NULL;

		if (last && !cmp_frames(last, s)) {
			last->count += s->count;
			last->samples += s->samples;
			last->bytes += s->bytes;
			last->truncated |= s->truncated;
			last->estimated |= s->estimated;
			if (last->trunc == TRUNC_NONE)
				last->trunc = s->trunc;
			if (s->method == METHOD_FP)
				last->method = METHOD_FP;
			free_frames(s);
			continue;
		}
		d->stacks[n++] = *s;
	}
	d->nstacks = n;
	qsort(d->stacks, d->nstacks, sizeof(*d->stacks), cmp_stack_count);
}

double dd_stack_share(const struct detail *d, const struct dd_stack *s)
{
	uint64_t all = d->st.kind_count[s->kind];

	return all ? 100.0 * (double)s->count / (double)all : 0;
}

static int cmp_map_rss(const void *a, const void *b)
{
	const struct dd_mapping *x = a, *y = b;
	int c = larger_first(x->rss, x->size, y->rss, y->size);

	return c ? c : (x->start > y->start) - (x->start < y->start);
}

static int cmp_file_rss(const void *a, const void *b)
{
	const struct dd_file *x = a, *y = b;
	int c = larger_first(x->rss, x->faults, y->rss, y->faults);

	return c ? c : strcmp(x->path, y->path);
}

static int cmp_label(const void *a, const void *b)
{
	return strcmp(dd_map_label(*(const struct dd_mapping *const *)a),
		      dd_map_label(*(const struct dd_mapping *const *)b));
}

void detail_group(struct detail *d)
{
	const struct dd_mapping **by = xmalloc((d->nmaps ? d->nmaps : 1) * sizeof(*by));

	for (size_t i = 0; i < d->nfiles; i++)
		free(d->files[i].path);
	free(d->files);
	d->files = xcalloc(d->nmaps ? d->nmaps : 1, sizeof(*d->files));
	d->nfiles = 0;
	for (size_t i = 0; i < d->nmaps; i++)
		by[i] = &d->maps[i];
	qsort(by, d->nmaps, sizeof(*by), cmp_label);
	for (size_t i = 0; i < d->nmaps; i++) {
		const struct dd_mapping *m = by[i];
		struct dd_file *f = d->nfiles ? &d->files[d->nfiles - 1] : NULL;

		if (!f || strcmp(f->path, dd_map_label(m))) {
			f = &d->files[d->nfiles++];
			f->path = xstrdup(dd_map_label(m));
		}
		f->nmaps++;
		f->size += m->size;
		f->rss += m->rss;
		f->dirty += m->dirty;
		f->swap += m->swap;
		f->faults += m->faults;
	}
	free(by);
	if (d->nmaps) { /* maps is NULL for a process without mappings (a kernel thread) */
		qsort(d->maps, d->nmaps, sizeof(*d->maps), cmp_map_rss);
		qsort(d->files, d->nfiles, sizeof(*d->files), cmp_file_rss);
	}
}

static void note(struct detail *d, const char *what, int err)
{
	if (!d->err[0])
		snprintf(d->err, sizeof(d->err), "cannot read %s: %s", what, strerror(err));
}

int detail_read(int32_t pid, struct detail *d)
{
	char path[64], buf[8192];
	char *text;

	detail_clear(d);
	d->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file(path, buf, sizeof(buf)) < 0) {
		d->gone = errno == ENOENT || errno == ESRCH;
		note(d, "status", errno);
		if (d->gone) {
			errno = ESRCH;
			return -1;
		}
	} else {
		parse_status_detail(buf, &d->b);
	}
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	if ((text = read_whole_file(path))) {
		parse_smaps_rollup(text, &d->b);
		free(text);
	} else {
		note(d, "smaps_rollup", errno);
	}
	d->b.have_oom = !read_proc_int(pid, "oom_score", &d->b.oom_score) &&
			!read_proc_int(pid, "oom_score_adj", &d->b.oom_score_adj);
	read_proc_memcg(pid, d->b.cgroup, sizeof(d->b.cgroup));
	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	if ((text = read_whole_file(path))) {
		parse_smaps(text, &d->maps, &d->nmaps);
		free(text);
	} else {
		note(d, "smaps", errno);
		/* maps is readable more often than smaps (no ptrace check for sizes) */
		snprintf(path, sizeof(path), "/proc/%d/maps", pid);
		if ((text = read_whole_file(path))) {
			parse_smaps(text, &d->maps, &d->nmaps);
			free(text);
		}
	}
	/* per NUMA node: numa_maps walks the page tables as smaps does; a kernel without
	 * NUMA has none */
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	if ((text = read_whole_file(path))) {
		d->have_numa = !parse_numa_maps(text, sysconf(_SC_PAGESIZE) / 1024, &d->numa);
		free(text);
	} else if (errno != ENOENT) {
		note(d, "numa_maps", errno);
	}
	return 0;
}

void detail_from_sample(struct detail *d, const struct proc_sample *p)
{
	struct dd_breakdown *b = &d->b;
	d->pid = p->pid;
	snprintf(d->leaks.why, sizeof(d->leaks.why),
		 "a recording holds no allocations to trace (a live run traces them)");
	b->rss = p->fig[PV_RSS];
	b->vm_size = p->fig[PV_VSZ];
	if (p->valid & COL_BIT(COL_SWAP))
		b->swap = b->vm_swap = p->fig[PV_SWAP];
	if (p->valid & COL_BIT(COL_LOCKED))
		b->locked = p->fig[PV_LOCKED];
	if (p->valid & COL_BIT(COL_PSS))
		b->pss = p->fig[PV_PSS];
	if (p->valid & COL_BIT(COL_USS))
		b->uss = p->fig[PV_USS];
	if (p->valid & COL_BIT(COL_AHP))
		b->anon_huge = p->fig[PV_AHP];
	if (p->valid & COL_BIT(COL_HUGETLB))
		b->private_hugetlb = p->fig[PV_HUGETLB];
	b->have_oom = (p->valid & COL_BIT(COL_OOM)) != 0;
	b->oom_score = b->have_oom ? (int)p->fig[PV_OOM] : 0;
	snprintf(b->comm, sizeof(b->comm), "%s", p->comm);
	snprintf(b->cgroup, sizeof(b->cgroup), "%s", p->cgroup ? p->cgroup : "");
	snprintf(d->st.why, sizeof(d->st.why),
		 "a replay: mappings, files and stacks are read from the live process and not "
		 "recorded (4: the recorded graphs)");
	snprintf(d->err, sizeof(d->err),
		 "Recorded: RSS, VSZ, and swap, locked, PSS, USS, OOM score where they were read");
}
