/* The memory cgroup tree, v1 or v2, read from its files through one table of where each
 * figure is read (cgroup_parse.c).
 *
 * Opening a cgroup file by its path costs about 9 us on v1 (17 us for memory.stat), as
 * much as the refresh of a few hundred processes: for 200 cgroups and every column, 20 ms.
 * So up to KEPT_MAX cgroups keep their directory and the files read from it open from one
 * refresh to the next, read again with pread at offset 0 (0.7 us; memory.stat 9 us). The
 * kernel keeps a page of read buffer for each such file and a few hundred bytes for each
 * descriptor: about 35 KiB a cgroup with every v1 column, 9 MB at most, charged to memtop
 * and traded for the CPU. cgroup.procs is opened each time (from the kept directory): on
 * v1 an open file keeps its list of pids for a second after a read and would give it
 * again. */
#include "cgroup_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_reader.h"
#include "cgroup_parse.h"
#include "procfs.h"
#include "util.h"

#define KEPT_MAX   256 /* cgroups whose files stay open */
#define KEPT_FILES 8   /* files a cgroup keeps open: those of one version, but cgroup.procs */
/* Descriptors left free when a cgroup would keep more: the rest of memtop's, and the
 * walk's over /proc, which keeps up to 2048 (src/proc/proc_walk.c) */
#define KEPT_FD_ROOM (256 + 2048)

/* A cgroup's directory and files kept open, by its id */
struct cg_kept {
	uint64_t id;
	int dir;
	const char *file[KEPT_FILES]; /* the reader table's names: compared as pointers */
	int fd[KEPT_FILES];
	unsigned nfiles;
	uint64_t seen; /* the read that last found it */
};

/* The file at fd (kept open) from its start, NUL-terminated; -1 with errno set. A read
 * shorter than asked for is its end (a cgroup file gives all it has to a read that has
 * room), so a small file takes one read, not a second one that gives nothing. */
static long pread_all(int fd, char *buf, size_t size)
{
	size_t off = 0;

	while (off + 1 < size) {
		size_t want = size - 1 - off;
		ssize_t n = pread(fd, buf + off, want, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		off += (size_t)n;
		if ((size_t)n < want)
			break;
	}
	buf[off] = '\0';
	return (long)off;
}

/* pread_all of the file open at fd, which it closes */
static long read_fd_close(int fd, char *buf, size_t size)
{
	long n = pread_all(fd, buf, size);
	int e = errno;

	close(fd);
	errno = e;
	return n;
}

static void kept_close(struct cg_kept *k)
{
	for (unsigned i = 0; i < k->nfiles; i++)
		if (k->fd[i] >= 0)
			close(k->fd[i]);
	close(k->dir);
}

/* The kept entry of cgroup cg, made (its directory opened) where the budget allows and
 * the directory at its path is still the one listed; NULL if none */
static struct cg_kept *kept_of(struct cg_reader *r, const struct cg_sample *cg)
{
	char dir[PATH_MAX];
	struct stat st;

	/* from the one after the last found: the cgroups come in the same order each read */
	for (size_t j = 0; j < r->nkept; j++) {
		size_t i = (r->kept_next + j) % r->nkept;
		if (r->kept[i].id == cg->id) {
			r->kept[i].seen = r->reads;
			r->kept_next = i + 1;
			return &r->kept[i];
		}
	}
	if (r->nkept == KEPT_MAX || !cg->id || cg_dir_of(r, cg->path, dir, sizeof(dir)))
		return NULL;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fd >= r->fd_limit || fstat(fd, &st) || (uint64_t)st.st_ino != cg->id) {
		close(fd);
		return NULL;
	}
	if (!r->kept)
		r->kept = xcalloc(KEPT_MAX, sizeof(*r->kept));
	struct cg_kept *k = &r->kept[r->nkept++];
	*k = (struct cg_kept){.id = cg->id, .dir = fd, .seen = r->reads};
	return k;
}

/* file of kept cgroup k read into buf, opened the first time; -1 with errno set */
static long kept_read(struct cg_reader *r, struct cg_kept *k, const char *file)
{
	unsigned i = 0;

	while (i < k->nfiles && k->file[i] != file)
		i++;
	if (i == k->nfiles) {
		int fd = openat(k->dir, file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		if (fd >= r->fd_limit || k->nfiles == KEPT_FILES) /* read once, not kept */
			return read_fd_close(fd, r->buf, sizeof(r->buf));
		k->file[i] = file;
		k->fd[i] = fd;
		k->nfiles++;
	}
	return pread_all(k->fd[i], r->buf, sizeof(r->buf));
}

/* Closes the kept files of the cgroups that the last read did not find */
static void kept_sweep(struct cg_reader *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nkept; i++) {
		if (r->kept[i].seen == r->reads)
			r->kept[n++] = r->kept[i];
		else
			kept_close(&r->kept[i]);
	}
	r->nkept = n;
}

static struct cg_reader *reader_new(int version, const char *mount, const char *root)
{
	struct cg_reader *r = xcalloc(1, sizeof(*r));
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur <= KEPT_FD_ROOM)
		r->fd_limit = 0;
	else if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur - KEPT_FD_ROOM > LONG_MAX)
		r->fd_limit = LONG_MAX;
	else
		r->fd_limit = (long)(rl.rlim_cur - KEPT_FD_ROOM);
	r->version = version;
	r->mount = xstrdup(mount);
	r->root = xstrdup(root && *root ? root : "/");
	r->src = cg_src_of(version);
	return r;
}

struct cg_reader *cg_open_at(int version, const char *mount, const char *root)
{
	return reader_new(version == 1 || version == 2 ? version : 0, mount, root);
}

struct cg_reader *cg_open(void)
{
	/* for tests alone: MEMTOP_CGROUP_ROOT=VERSION:DIR reads the tree of that version at
	 * DIR (files a test wrote in the kernel's formats) instead of the one mounted; BPF's
	 * figures, which are the kernel's, are then not used (cg_use_bpf) */
	const char *test = getenv("MEMTOP_CGROUP_ROOT");
	if (test && (test[0] == '1' || test[0] == '2') && test[1] == ':' && test[2]) {
		struct cg_reader *r = reader_new(test[0] - '0', test + 2, "/");
		r->test_root = true;
		return r;
	}
	char *text = xmalloc(65536), mount[PATH_MAX], root[PATH_MAX];
	int version = 0;

	if (read_file("/proc/self/mountinfo", text, 65536) > 0)
		version = cg_find(text, mount, sizeof(mount), root, sizeof(root));
	free(text);
	return reader_new(version, version ? mount : "", version ? root : "/");
}

int cg_version(const struct cg_reader *r)
{
	return r ? r->version : 0;
}

const char *cg_mount(const struct cg_reader *r)
{
	return r->mount;
}

const char *cg_root(const struct cg_reader *r)
{
	return r->root;
}

/* Whether word is one of the words of text's first line */
static bool has_word(const char *text, const char *word)
{
	size_t wl = strlen(word), len = strcspn(text, "\n");
	for (size_t i = 0; i < len;) {
		size_t n = strcspn(text + i, " \n");
		if (n == wl && !strncmp(text + i, word, wl))
			return true;
		i += n + 1;
	}
	return false;
}

int cg_find(const char *mountinfo, char *mount, size_t mount_len, char *root, size_t root_len)
{
	struct cg_mount *m = xcalloc(16, sizeof(*m));
	size_t n = parse_cgroup_mounts(mountinfo, m, 16);
	int found = 0;

	/* v1 first: a cgroup2 hierarchy beside it cannot hold the memory controller */
	for (size_t i = 0; i < n && !found; i++)
		if (m[i].version == 1)
			found = (int)i + 1;
	for (size_t i = 0; i < n && !found; i++) {
		char path[sizeof(m[i].mount) + 32], ctl[512];
		snprintf(path, sizeof(path), "%s/cgroup.controllers", m[i].mount);
		if (read_file(path, ctl, sizeof(ctl)) > 0 && has_word(ctl, "memory"))
			found = (int)i + 1;
	}
	int version = found ? m[found - 1].version : 0;
	if (found) {
		snprintf(mount, mount_len, "%s", m[found - 1].mount);
		snprintf(root, root_len, "%s", m[found - 1].root);
	}
	free(m);
	return version;
}

int cg_dir_of(const struct cg_reader *r, const char *path, char *dir, size_t size)
{
	size_t rl = strlen(r->root);
	const char *rel = path;

	if (strcmp(r->root, "/")) {
		if (strncmp(path, r->root, rl) || (path[rl] && path[rl] != '/'))
			return -1;
		rel = path + rl;
	}
	if ((size_t)snprintf(dir, size, "%s%s", r->mount, rel) >= size)
		return -1;
	return 0;
}

/* The files a read opens, each once, and the columns read from each */
struct plan {
	int n;
	struct {
		const char *file;
		bool lines; /* counted, not parsed */
		unsigned cols;
	} f[CGCOL_COUNT];
};

static void make_plan(const struct cg_reader *r, unsigned cols, struct plan *p)
{
	p->n = 0;
	for (int c = 0; c < CGCOL_COUNT; c++) {
		const struct cg_src *src = &r->src[c];
		if (!(cols & CGCOL_BIT(c)) || src->fmt == FMT_NONE)
			continue;
		int i = 0;
		while (i < p->n && strcmp(p->f[i].file, src->file))
			i++;
		if (i == p->n) {
			p->f[p->n].file = src->file;
			p->f[p->n].lines = src->fmt == FMT_LINES;
			p->f[p->n++].cols = 0;
		}
		p->f[i].cols |= CGCOL_BIT(c);
	}
}

/* Reads the files of the plan for cgroup cg, through its kept files where k is not NULL;
 * returns -1 if it no longer exists */
static int read_one(struct cg_reader *r, struct cg_sample *cg, const struct plan *p,
		    struct cg_kept *k)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	bool missing = false;

	if (cg_dir_of(r, cg->path, dir, sizeof(dir)))
		return -1;
	for (int i = 0; i < p->n; i++) {
		long n;
		snprintf(path, sizeof(path), "%s/%s", dir, p->f[i].file);
		if (p->f[i].lines) {
			int fd = k ? openat(k->dir, p->f[i].file, O_RDONLY | O_CLOEXEC)
				   : open(path, O_RDONLY | O_CLOEXEC);
			n = fd < 0 ? -1 : cg_count_lines(fd, r->buf, sizeof(r->buf));
		} else {
			n = k ? kept_read(r, k, p->f[i].file)
			      : read_file(path, r->buf, sizeof(r->buf));
		}
		if (n < 0) {
			missing |= errno == ENOENT || errno == ENODEV;
			continue;
		}
		if (!p->f[i].lines) {
			cg_parse(r->src, r->buf, p->f[i].cols, cg);
			continue;
		}
		for (int c = 0; c < CGCOL_COUNT; c++) {
			if (p->f[i].cols & CGCOL_BIT(c)) {
				cg->v[c] = (uint64_t)n;
				cg->valid |= CGCOL_BIT(c);
			}
		}
	}
	/* a file gone: the cgroup may have gone with it */
	return missing && access(dir, F_OK) && errno == ENOENT ? -1 : 0;
}

/* v1 memsw figures hold memory and swap: the memory column is taken off */
static void subtract(const struct cg_reader *r, struct cg_sample *cg, unsigned cols)
{
	for (int c = 0; c < CGCOL_COUNT; c++) {
		int m = r->src[c].minus;
		unsigned b = CGCOL_BIT(c), mb = CGCOL_BIT(m);
		if (!m || !(cols & b) || !(cg->valid & b) || (cg->unlimited & b))
			continue;
		if (!(cg->valid & mb) || (cg->unlimited & mb))
			cg->valid &= ~b;
		else
			cg->v[c] = cg->v[c] > cg->v[m] ? cg->v[c] - cg->v[m] : 0;
	}
}

/* Each cgroup's parent, from the order and depths; then the subtree sums */
static void link_tree(const struct cg_reader *r, struct snapshot *s, unsigned cols)
{
	size_t sp = 0, *stack = xmalloc(s->ncgroups * sizeof(*stack));

	for (size_t i = 0; i < s->ncgroups; i++) {
		struct cg_sample *cg = &s->cgroups[i];
		while (sp && s->cgroups[stack[sp - 1]].depth >= cg->depth)
			sp--;
		cg->parent = sp && s->cgroups[stack[sp - 1]].depth + 1 == cg->depth
				     ? (int32_t)stack[sp - 1]
				     : -1;
		stack[sp++] = i;
	}
	free(stack);
	for (int c = 0; c < CGCOL_COUNT; c++) {
		if (!(cols & CGCOL_BIT(c)) || !r->src[c].subtree)
			continue;
		for (size_t i = s->ncgroups; i-- > 0;) {
			struct cg_sample *cg = &s->cgroups[i];
			if (cg->parent >= 0 && (cg->valid & CGCOL_BIT(c)))
				s->cgroups[cg->parent].v[c] += cg->v[c];
		}
	}
}

unsigned cg_files_cols(const struct cg_reader *r, unsigned cols)
{
	cols = cg_columns_reads(cols);
	for (int c = 0; c < CGCOL_COUNT; c++)
		if ((cols & CGCOL_BIT(c)) && r->src[c].minus)
			cols |= CGCOL_BIT(r->src[c].minus);
	return cols;
}

void cg_files_read_all(struct cg_reader *r, struct snapshot *s, unsigned cols)
{
	struct plan plan;
	unsigned planned = cols;

	make_plan(r, cols, &plan);
	r->reads++;
	for (size_t i = 0; i < s->ncgroups;) {
		struct cg_sample *cg = &s->cgroups[i];
		unsigned need = cols & ~cg->valid;
		if (need != planned)
			make_plan(r, planned = need, &plan);
		struct cg_kept *k = plan.n ? kept_of(r, cg) : NULL;
		if (plan.n && read_one(r, cg, &plan, k)) {
			if (k)
				k->seen = 0; /* gone: closed below */
			snapshot_drop_cgroup(s, i);
			continue;
		}
		subtract(r, cg, cols);
		i++;
	}
	kept_sweep(r);
	link_tree(r, s, cols);
}

int cg_read_files(struct cg_reader *r, struct cg_sample *cg, unsigned cols)
{
	struct plan plan;

	make_plan(r, cols, &plan);
	return read_one(r, cg, &plan, NULL);
}

void cg_files_idle(struct cg_reader *r)
{
	if (r->nkept) {
		r->reads++;
		kept_sweep(r);
	}
}

void cg_files_close(struct cg_reader *r)
{
	for (size_t i = 0; i < r->nkept; i++)
		kept_close(&r->kept[i]);
	free(r->kept);
	free(r->mount);
	free(r->root);
	free(r);
}
