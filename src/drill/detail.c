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

void detail_clear(struct detail *d)
{
	free_maps(d);
	free_stacks(d);
	detail_init(d);
}

/* "Key:   123 kB" lines: the value of key, or -1 */
static int kb_field(const char *line, const char *key, uint64_t *out)
{
	size_t n = strlen(key);
	char *end;

	if (strncmp(line, key, n) || line[n] != ':')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(line + n + 1, &end, 10);
	if (errno || end == line + n + 1)
		return -1;
	*out = v;
	return 0;
}

struct kb_key {
	const char *name;
	size_t off;
};

#define BK(name, field)                                                                            \
	{                                                                                          \
		name, offsetof(struct dd_breakdown, field)                                         \
	}

static const struct kb_key rollup_keys[] = {
	BK("Rss", rss),
	BK("Pss", pss),
	BK("Pss_Anon", pss_anon),
	BK("Pss_File", pss_file),
	BK("Pss_Shmem", pss_shmem),
	BK("Shared_Clean", shared_clean),
	BK("Shared_Dirty", shared_dirty),
	BK("Private_Clean", private_clean),
	BK("Private_Dirty", private_dirty),
	BK("Anonymous", anonymous),
	BK("AnonHugePages", anon_huge),
	BK("ShmemPmdMapped", shmem_pmd),
	BK("FilePmdMapped", file_pmd),
	BK("Shared_Hugetlb", shared_hugetlb),
	BK("Private_Hugetlb", private_hugetlb),
	BK("Swap", swap),
	BK("SwapPss", swap_pss),
	BK("Locked", locked),
};

static const struct kb_key status_keys[] = {
	BK("RssAnon", rss_anon), BK("RssFile", rss_file), BK("RssShmem", rss_shmem),
	BK("VmPTE", pgtables),	 BK("VmSwap", vm_swap),	  BK("HugetlbPages", hugetlb),
	BK("VmSize", vm_size),
};

/* Each line of text against keys; returns how many lines matched a key. */
static int parse_kb_lines(const char *text, const struct kb_key *keys, size_t nkeys, void *base)
{
	int found = 0;

	for (const char *line = text; line && *line;) {
		for (size_t i = 0; i < nkeys; i++) {
			if (!kb_field(line, keys[i].name,
				      (uint64_t *)((char *)base + keys[i].off))) {
				found++;
				break;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return found;
}

int parse_smaps_rollup(const char *text, struct dd_breakdown *b)
{
	int found = parse_kb_lines(text, rollup_keys, ARRAY_SIZE(rollup_keys), b);

	b->uss = b->private_clean + b->private_dirty;
	b->have_rollup = found > 0;
	return found > 0 ? 0 : -1;
}

int parse_status_detail(const char *text, struct dd_breakdown *b)
{
	int found = parse_kb_lines(text, status_keys, ARRAY_SIZE(status_keys), b);
	const char *name = strncmp(text, "Name:", 5) ? strstr(text, "\nName:") : text;

	if (name) {
		name += *name == '\n' ? 6 : 5;
		name += strspn(name, " \t");
		size_t n = strcspn(name, "\n");

		snprintf(b->comm, sizeof(b->comm), "%.*s", (int)(n < DD_COMM_LEN ? n : DD_COMM_LEN),
			 name);
		found++;
	}
	b->have_status = found > 0;
	return found > 0 ? 0 : -1;
}

int parse_cgroup(const char *text, char *out, size_t size)
{
	const char *unified = NULL;

	out[0] = '\0';
	for (const char *line = text; line && *line;) {
		const char *c1 = strchr(line, ':'), *eol = strchr(line, '\n');
		const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (c2 && (!eol || c2 < eol)) {
			const char *path = c2 + 1;
			int plen = (int)(line + len - path);
			bool memory = false;

			for (const char *p = c1 + 1; p < c2;) {
				size_t n = strcspn(p, ",:");

				memory |= n == 6 && !strncmp(p, "memory", 6);
				p += n + (p[n] == ',');
			}
			if (memory) {
				snprintf(out, size, "%.*s", plen, path);
				return 0;
			}
			if (c2 == c1 + 1 && !strncmp(line, "0:", 2))
				unified = path;
		}
		line = eol ? eol + 1 : NULL;
	}
	if (!unified)
		return -1;
	snprintf(out, size, "%.*s", (int)strcspn(unified, "\n"), unified);
	return 0;
}

/* "start-end perms offset dev inode   path" */
static int parse_map_header(const char *line, struct dd_mapping *m)
{
	unsigned long long start, end, off, ino;
	unsigned maj, mnr;
	char perms[8];
	int pos = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu%n", &start, &end, perms, &off, &maj, &mnr,
		   &ino, &pos) != 7 ||
	    end < start || strlen(perms) != 4)
		return -1;
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->end = end;
	m->offset = off;
	m->inode = ino;
	memcpy(m->perms, perms, 5);
	const char *path = line + pos;

	path += strspn(path, " \t");
	size_t n = strcspn(path, "\n");

	m->path = xmalloc(n + 1);
	memcpy(m->path, path, n);
	m->path[n] = '\0';
	if (!n || !strncmp(m->path, "[anon:", 6) || !strncmp(m->path, "[anon_shmem:", 12))
		m->kind = DD_MAP_ANON;
	else if (!strcmp(m->path, "[heap]"))
		m->kind = DD_MAP_HEAP;
	else if (!strncmp(m->path, "[stack", 6))
		m->kind = DD_MAP_STACK;
	else if (m->path[0] == '[')
		m->kind = DD_MAP_SPECIAL;
	else
		m->kind = DD_MAP_FILE;
	m->size = (end - start) / 1024;
	return 0;
}

int parse_smaps(const char *text, struct detail *d)
{
	static const struct kb_key map_keys[] = {
		{"Rss", offsetof(struct dd_mapping, rss)},
		{"Pss", offsetof(struct dd_mapping, pss)},
		{"Swap", offsetof(struct dd_mapping, swap)},
		{"Anonymous", offsetof(struct dd_mapping, anon)},
		{"Locked", offsetof(struct dd_mapping, locked)},
	};
	size_t cap = d->nmaps;
	struct dd_mapping *cur = NULL;
	int found = 0;

	for (const char *line = text; line && *line;) {
		struct dd_mapping m;
		uint64_t v;

		if (!parse_map_header(line, &m)) {
			if (d->nmaps == cap) {
				cap = cap ? cap * 2 : 64;
				d->maps = xrealloc(d->maps, cap * sizeof(*d->maps));
			}
			cur = &d->maps[d->nmaps++];
			*cur = m;
			found++;
		} else if (cur) {
			for (size_t i = 0; i < ARRAY_SIZE(map_keys); i++)
				if (!kb_field(line, map_keys[i].name, &v))
					*(uint64_t *)((char *)cur + map_keys[i].off) = v;
			if (!kb_field(line, "Shared_Dirty", &v) ||
			    !kb_field(line, "Private_Dirty", &v))
				cur->dirty += v;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return found ? 0 : -1;
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
		if (n == *cap) {
			*cap = *cap ? *cap * 2 : 32;
			*out = xrealloc(*out, *cap * sizeof(**out));
		}
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

/* Largest count first; ties by bytes, then in a fixed order. */
static int cmp_stack_count(const void *a, const void *b)
{
	const struct dd_stack *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return cmp_frames(x, y);
}

void detail_merge_stacks(struct detail *d)
{
	size_t n = 0;

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

static int cmp_map_rss(const void *a, const void *b)
{
	const struct dd_mapping *x = a, *y = b;

	if (x->rss != y->rss)
		return x->rss < y->rss ? 1 : -1;
	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return (x->start > y->start) - (x->start < y->start);
}

static int cmp_file_rss(const void *a, const void *b)
{
	const struct dd_file *x = a, *y = b;

	if (x->rss != y->rss)
		return x->rss < y->rss ? 1 : -1;
	if (x->faults != y->faults)
		return x->faults < y->faults ? 1 : -1;
	return strcmp(x->path, y->path);
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

/* Whole file, however large (smaps of a big process runs to megabytes). */
static char *slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 65536, len = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		if (len + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t n = read(fd, buf + len, cap - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
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
	if ((text = slurp(path))) {
		parse_smaps_rollup(text, &d->b);
		free(text);
	} else {
		note(d, "smaps_rollup", errno);
	}
	d->b.have_oom = !read_proc_int(pid, "oom_score", &d->b.oom_score) &&
			!read_proc_int(pid, "oom_score_adj", &d->b.oom_score_adj);
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	if (read_file(path, buf, sizeof(buf)) > 0)
		parse_cgroup(buf, d->b.cgroup, sizeof(d->b.cgroup));
	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	if ((text = slurp(path))) {
		parse_smaps(text, d);
		free(text);
	} else {
		note(d, "smaps", errno);
		/* maps is readable more often than smaps (no ptrace check for sizes) */
		snprintf(path, sizeof(path), "/proc/%d/maps", pid);
		if ((text = slurp(path))) {
			parse_smaps(text, d);
			free(text);
		}
	}
	return 0;
}

void detail_from_sample(struct detail *d, const struct proc_sample *p)
{
	struct dd_breakdown *b = &d->b;
	d->pid = p->pid;
	b->rss = p->v[COL_RSS];
	b->vm_size = p->v[COL_VSZ];
	if (p->valid & COL_BIT(COL_SWAP))
		b->swap = b->vm_swap = p->v[COL_SWAP];
	if (p->valid & COL_BIT(COL_LOCKED))
		b->locked = p->v[COL_LOCKED];
	if (p->valid & COL_BIT(COL_PSS))
		b->pss = p->v[COL_PSS];
	if (p->valid & COL_BIT(COL_USS))
		b->uss = p->v[COL_USS];
	b->have_oom = (p->valid & COL_BIT(COL_OOM)) != 0;
	b->oom_score = b->have_oom ? (int)p->v[COL_OOM] : 0;
	snprintf(b->comm, sizeof(b->comm), "%s", p->comm);
	snprintf(b->cgroup, sizeof(b->cgroup), "%s", p->cgroup ? p->cgroup : "");
	snprintf(d->st.why, sizeof(d->st.why),
		 "a replay: mappings, files and stacks are read from the live process and not "
		 "recorded (4: the recorded graphs)");
	snprintf(d->err, sizeof(d->err),
		 "Recorded: RSS, VSZ, and swap, locked, PSS, USS, OOM score where they were read");
}
