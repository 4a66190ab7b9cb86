/* The memory cgroup tree, v1 or v2, through one table of where each figure is read.
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
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_bpf.h"
#include "procfs.h"
#include "util.h"

/* How a file gives a figure */
enum cg_fmt {
	FMT_NONE,  /* not read in this version */
	FMT_BYTES, /* bytes, kept in KiB */
	FMT_LIMIT, /* bytes, or "max" (v1: a value of 2^62 or more) for none */
	FMT_COUNT, /* a count */
	FMT_LINES, /* the number of lines: processes in cgroup.procs */
	FMT_SOME,  /* memory.pressure "some avg10=", kept in hundredths */
	FMT_FULL,  /* memory.pressure "full avg10=" */
};

/* Where a column's figure is read in one version: file, and in a flat keyed file the
 * keys, as keyed() reads them */
struct cg_src {
	const char *file;
	const char *keys; /* NULL: the file holds the one value */
	enum cg_fmt fmt;
	int minus;    /* a column of the same cgroup subtracted (v1 memsw: memory + swap); 0 none */
	bool subtree; /* the file counts the cgroup alone: its subtree's are added */
};

static const struct cg_src v2_src[CGCOL_COUNT] = {
	[CGCOL_USAGE] = {.file = "memory.current", .fmt = FMT_BYTES},
	[CGCOL_LIMIT] = {.file = "memory.max", .fmt = FMT_LIMIT},
	[CGCOL_HIGH] = {.file = "memory.high", .fmt = FMT_LIMIT},
	[CGCOL_LOW] = {.file = "memory.low", .fmt = FMT_LIMIT},
	[CGCOL_MIN] = {.file = "memory.min", .fmt = FMT_LIMIT},
	[CGCOL_ANON] = {.file = "memory.stat", .keys = "anon", .fmt = FMT_BYTES},
	[CGCOL_FILE] = {.file = "memory.stat", .keys = "file", .fmt = FMT_BYTES},
	/* "kernel" since Linux 5.18; before it, its parts, of which pagetables and percpu
	 * came later than the others */
	[CGCOL_KERNEL] = {.file = "memory.stat",
			  .keys = "kernel+sock|slab+sock+kernel_stack+pagetables?+percpu?",
			  .fmt = FMT_BYTES},
	[CGCOL_SWAP] = {.file = "memory.swap.current", .fmt = FMT_BYTES},
	[CGCOL_SWAP_LIMIT] = {.file = "memory.swap.max", .fmt = FMT_LIMIT},
	[CGCOL_NPROCS] = {.file = "cgroup.procs", .fmt = FMT_LINES, .subtree = true},
	[CGCOL_OOM_KERNEL] = {.file = "memory.events", .keys = "oom_kill", .fmt = FMT_COUNT},
	[CGCOL_REFAULTS] =
		{.file = "memory.stat",
		 .keys = "workingset_refault_anon+workingset_refault_file|workingset_refault",
		 .fmt = FMT_COUNT},
	[CGCOL_PSI_SOME] = {.file = "memory.pressure", .fmt = FMT_SOME},
	[CGCOL_PSI_FULL] = {.file = "memory.pressure", .fmt = FMT_FULL},
};

/* v1 memory.stat: the total_ keys are hierarchical, as usage_in_bytes is */
static const struct cg_src v1_src[CGCOL_COUNT] = {
	[CGCOL_USAGE] = {.file = "memory.usage_in_bytes", .fmt = FMT_BYTES},
	[CGCOL_LIMIT] = {.file = "memory.limit_in_bytes", .fmt = FMT_LIMIT},
	[CGCOL_LOW] = {.file = "memory.soft_limit_in_bytes", .fmt = FMT_LIMIT},
	[CGCOL_ANON] = {.file = "memory.stat", .keys = "total_rss|rss", .fmt = FMT_BYTES},
	[CGCOL_FILE] = {.file = "memory.stat", .keys = "total_cache|cache", .fmt = FMT_BYTES},
	[CGCOL_KERNEL] = {.file = "memory.kmem.usage_in_bytes", .fmt = FMT_BYTES},
	[CGCOL_SWAP] = {.file = "memory.memsw.usage_in_bytes",
			.fmt = FMT_BYTES,
			.minus = CGCOL_USAGE},
	[CGCOL_SWAP_LIMIT] = {.file = "memory.memsw.limit_in_bytes",
			      .fmt = FMT_LIMIT,
			      .minus = CGCOL_LIMIT},
	[CGCOL_NPROCS] = {.file = "cgroup.procs", .fmt = FMT_LINES, .subtree = true},
	[CGCOL_OOM_KERNEL] = {.file = "memory.oom_control",
			      .keys = "oom_kill",
			      .fmt = FMT_COUNT,
			      .subtree = true},
	[CGCOL_REFAULTS] = {.file = "memory.stat",
			    .keys = "total_workingset_refault_anon+total_workingset_refault_file|"
				    "total_workingset_refault",
			    .fmt = FMT_COUNT},
};

#define V1_UNLIMITED (1ull << 62)

/* OOM kills counted in one memory cgroup since memtop started */
struct cg_kill {
	char *path;	/* as the kill event named it, then as listed */
	uint64_t id;	/* 0: not known yet */
	uint64_t own;	/* kills in it */
	uint64_t below; /* kills in its descendants whose entries expired (removed long ago) */
	double last;	/* wall clock of the last kill in own or below */
};

#define KILLS_MAX     1024   /* cgroups with kills kept; beyond, the oldest go to the root */
#define REMOVED_SHOWN 3600.0 /* seconds a removed cgroup stays listed after its last kill */

#define KEPT_MAX   256 /* cgroups whose files stay open */
#define KEPT_FILES 8   /* files a cgroup keeps open: those of one version, but cgroup.procs */
/* Descriptors left free when a cgroup would keep more: the rest of memtop's, and the
 * walk's over /proc, which keeps up to 2048 (src/proc_walk.c) */
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

struct cg_reader {
	int version;
	char *mount; /* where the hierarchy is mounted */
	char *root;  /* the hierarchy's path mounted there */
	const struct cg_src *src;
	struct cg_kill *kills;
	size_t nkills, kills_cap;
	struct cg_kept *kept;
	size_t nkept;
	size_t kept_next; /* where kept_of looks first */
	uint64_t reads;
	long fd_limit;	    /* descriptors numbered from here on are not kept */
	struct cg_bpf *bpf; /* the figures from BPF; NULL: files alone */
	char buf[16384];
};

/* The lines of the file open at fd, each a number (cgroup.procs, which may be long), and
 * closes it; -1 with errno set if it cannot be read, EINVAL if it holds anything else */
static long count_lines(int fd, char *buf, size_t size)
{
	int err = 0;
	long lines = 0;
	bool open_line = false;
	ssize_t n;

	if (fd < 0)
		return -1;
	/* to its end: a read shorter than asked for (see pread_all) */
	for (bool end = false; !err && !end && (n = read(fd, buf, size)) != 0;) {
		if (n < 0) {
			err = errno == EINTR ? 0 : errno;
			continue;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n' && open_line)
				lines++;
			else if (buf[i] < '0' || buf[i] > '9')
				err = EINVAL;
			open_line = buf[i] != '\n';
		}
		end = (size_t)n < size;
	}
	close(fd);
	if (!err && open_line)
		err = EINVAL;
	errno = err;
	return err ? -1 : lines;
}

/* A whole number from p to its end of line or text; -1 if anything else is there */
static int number(const char *p, const char **end, uint64_t *out)
{
	uint64_t v = 0;
	const char *q = p;

	for (; *q >= '0' && *q <= '9'; q++) {
		if (v > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*q - '0');
	}
	if (q == p || (*q && *q != '\n'))
		return -1;
	*out = v;
	if (end)
		*end = q;
	return 0;
}

/* The starts of the first lines of a flat keyed file's text, found once for the keys read
 * from it (memory.stat: 50 lines, and three or four keys) */
#define LINES_MAX 128
struct lines {
	const char *text; /* NULL: not indexed yet */
	const char *rest; /* the first line not indexed; NULL: none */
	size_t n;
	const char *at[LINES_MAX];
};

static void index_lines(struct lines *li, const char *text)
{
	const char *p = text;

	li->text = text;
	for (li->n = 0; p && *p && li->n < LINES_MAX; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		li->at[li->n++] = p;
	li->rest = p && *p ? p : NULL;
}

/* The value of key (klen bytes) at the start of a line of a flat keyed file; -1 if it
 * is no number, -2 if the key is not there */
static int key_value(const struct lines *li, const char *key, size_t klen, uint64_t *out)
{
	for (size_t i = 0; i < li->n; i++) {
		const char *p = li->at[i];
		if (p[0] == key[0] && !strncmp(p, key, klen) && p[klen] == ' ')
			return number(p + klen + 1, NULL, out);
	}
	for (const char *p = li->rest; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ' ')
			return number(p + klen + 1, NULL, out);
	return -2;
}

/* keys "a+b|c" in text: the sum of a and b where both are there, else c; "b?" adds b
 * where it is there (a key newer kernels added) */
static int keyed(const struct lines *li, const char *keys, uint64_t *out)
{
	for (const char *alt = keys; alt; alt = strchr(alt, '|'), alt = alt ? alt + 1 : NULL) {
		size_t alen = strcspn(alt, "|");
		uint64_t sum = 0, v = 0;
		const char *k = alt;
		bool ok = true;
		while (ok && k < alt + alen) {
			size_t klen = strcspn(k, "+|?");
			bool optional = k[klen] == '?';
			int rc = key_value(li, k, klen, &v);
			ok = !rc || (optional && rc == -2);
			sum += rc ? 0 : v;
			k += klen + optional;
			k += *k == '+';
		}
		if (ok) {
			*out = sum;
			return 0;
		}
	}
	return -1;
}

/* avg10 of the line "kind avg10=N.NN ..." of a pressure file, in hundredths */
static int psi_avg10(const char *text, const char *kind, uint64_t *out)
{
	char key[16];
	snprintf(key, sizeof(key), "%s avg10=", kind);
	size_t klen = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, klen))
			continue;
		char *end;
		errno = 0;
		double v = strtod(p + klen, &end);
		if (errno || end == p + klen || *end != ' ' || !(v >= 0 && v <= 100))
			return -1;
		*out = (uint64_t)(v * 100 + 0.5);
		return 0;
	}
	return -1;
}

/* Parses column c of cg from text, as src says; li: text's lines, indexed at the first key
 * read (li->text NULL before) */
static void parse(const struct cg_src *src, const char *text, struct lines *li, int c,
		  struct cg_sample *cg)
{
	uint64_t v = 0;
	bool none = false;
	int rc = -1;

	switch (src->fmt) {
	case FMT_BYTES:
	case FMT_LIMIT:
	case FMT_COUNT:
		if (src->keys) {
			if (li->text != text)
				index_lines(li, text);
			rc = keyed(li, src->keys, &v);
		} else if (src->fmt == FMT_LIMIT && !strncmp(text, "max", 3) &&
			   (!text[3] || !strcmp(text + 3, "\n")))
			rc = 0, none = true;
		else
			rc = number(text, NULL, &v);
		if (src->fmt == FMT_LIMIT && v >= V1_UNLIMITED)
			none = true;
		if (src->fmt != FMT_COUNT)
			v /= 1024;
		break;
	case FMT_SOME:
		rc = psi_avg10(text, "some", &v);
		break;
	case FMT_FULL:
		rc = psi_avg10(text, "full", &v);
		break;
	case FMT_NONE:
	case FMT_LINES:
		break;
	}
	if (rc)
		return;
	cg->v[c] = none ? 0 : v;
	cg->valid |= CGCOL_BIT(c);
	if (none)
		cg->unlimited |= CGCOL_BIT(c);
}

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

static int dir_of(const struct cg_reader *r, const char *path, char *dir, size_t size);

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
	if (r->nkept == KEPT_MAX || !cg->id || dir_of(r, cg->path, dir, sizeof(dir)))
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
	r->src = version == 1 ? v1_src : v2_src;
	return r;
}

struct cg_reader *cg_open_at(int version, const char *mount, const char *root)
{
	return reader_new(version == 1 || version == 2 ? version : 0, mount, root);
}

struct cg_reader *cg_open(void)
{
	char *text = xmalloc(65536), mount[PATH_MAX], root[PATH_MAX];
	int version = 0;

	if (read_file("/proc/self/mountinfo", text, 65536) > 0)
		version = cg_find(text, mount, sizeof(mount), root, sizeof(root));
	free(text);
	return reader_new(version, version ? mount : "", version ? root : "/");
}

void cg_close(struct cg_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nkills; i++)
		free(r->kills[i].path);
	free(r->kills);
	for (size_t i = 0; i < r->nkept; i++)
		kept_close(&r->kept[i]);
	free(r->kept);
	cg_bpf_free(r->bpf);
	free(r->mount);
	free(r->root);
	free(r);
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

void cg_use_bpf(struct cg_reader *r, struct cg_iter *it)
{
	if (r->version && !r->bpf)
		r->bpf = cg_bpf_new(it);
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

/* The directory of the cgroup at hierarchy path, or -1 if it lies outside the mount */
static int dir_of(const struct cg_reader *r, const char *path, char *dir, size_t size)
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

/* Appends the cgroup at hierarchy path and, depth first, those below it */
/* A subdirectory found in a listing: its name, and what stat gave */
struct subdir {
	char *name;
	struct stat st;
};

static int cmp_subdirs(const void *a, const void *b)
{
	return strcmp(((const struct subdir *)a)->name, ((const struct subdir *)b)->name);
}

/* Appends the cgroup at hierarchy path and, depth first, those below it. st: its stat,
 * taken in its parent's listing (NULL for the root): a directory with two links has no
 * subdirectory (each one's ".." is a link to it), and most cgroups are leaves, whose
 * directories of thirty files are then not read. */
static void list_at(struct cg_reader *r, struct snapshot *s, char *path, size_t cap, uint32_t depth,
		    const struct stat *st)
{
	char dir[PATH_MAX];
	struct stat own;
	if (st && st->st_nlink == 2) {
		struct cg_sample *cg = snapshot_add_cgroup(s, path);
		cg->id = (uint64_t)st->st_ino;
		cg->depth = depth;
		return;
	}
	if (dir_of(r, path, dir, sizeof(dir)))
		return;
	DIR *d = opendir(dir);
	if (!d) /* removed since its parent was read */
		return;
	if (fstat(dirfd(d), &own)) {
		closedir(d);
		return;
	}
	struct cg_sample *cg = snapshot_add_cgroup(s, path);
	cg->id = (uint64_t)own.st_ino;
	cg->depth = depth;

	struct subdir *sub = NULL;
	size_t n = 0, ncap = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN)
			continue;
		if (n == ncap) {
			ncap = ncap ? ncap * 2 : 16;
			sub = xrealloc(sub, ncap * sizeof(*sub));
		}
		if (fstatat(dirfd(d), e->d_name, &sub[n].st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(sub[n].st.st_mode))
			continue; /* removed since, or not a directory */
		sub[n++].name = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(sub, n, sizeof(*sub), cmp_subdirs);
	size_t len = strlen(path);
	for (size_t i = 0; i < n; i++) {
		const char *sep = len && path[len - 1] == '/' ? "" : "/";
		if ((size_t)snprintf(path + len, cap - len, "%s%s", sep, sub[i].name) < cap - len)
			list_at(r, s, path, cap, depth + 1, &sub[i].st);
		path[len] = '\0';
		free(sub[i].name);
	}
	free(sub);
}

void cg_list(struct cg_reader *r, struct snapshot *s)
{
	char path[PATH_MAX];

	if (!r->version)
		return;
	snprintf(path, sizeof(path), "%s", r->root);
	list_at(r, s, path, sizeof(path), 0, NULL);
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

	if (dir_of(r, cg->path, dir, sizeof(dir)))
		return -1;
	for (int i = 0; i < p->n; i++) {
		long n;
		snprintf(path, sizeof(path), "%s/%s", dir, p->f[i].file);
		if (p->f[i].lines) {
			int fd = k ? openat(k->dir, p->f[i].file, O_RDONLY | O_CLOEXEC)
				   : open(path, O_RDONLY | O_CLOEXEC);
			n = fd < 0 ? -1 : count_lines(fd, r->buf, sizeof(r->buf));
		} else {
			n = k ? kept_read(r, k, p->f[i].file)
			      : read_file(path, r->buf, sizeof(r->buf));
		}
		if (n < 0) {
			missing |= errno == ENOENT || errno == ENODEV;
			continue;
		}
		struct lines li;
		li.text = NULL, li.rest = NULL, li.n = 0;
		for (int c = 0; c < CGCOL_COUNT; c++) {
			if (!(p->f[i].cols & CGCOL_BIT(c)))
				continue;
			if (p->f[i].lines) {
				cg->v[c] = (uint64_t)n;
				cg->valid |= CGCOL_BIT(c);
			} else {
				parse(&r->src[c], r->buf, &li, c, cg);
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

void cg_read(struct cg_reader *r, struct snapshot *s, unsigned cols)
{
	if (!r->version)
		return;
	cols = cg_columns_reads(cols);
	for (int c = 0; c < CGCOL_COUNT; c++)
		if ((cols & CGCOL_BIT(c)) && r->src[c].minus)
			cols |= CGCOL_BIT(r->src[c].minus);
	/* what BPF gives is not read from files: each cgroup reads those it lacks */
	cg_bpf_count_procs(s, r->version, cols);
	cg_bpf_fill(r->bpf, r, s, cols);
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
		if (read_one(r, cg, &plan, k)) {
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

void cg_read_self(struct cg_reader *r, const char *proc_cgroup, uint64_t mem_total_kb,
		  struct cg_self *out)
{
	char path[PATH_MAX], best[PATH_MAX] = "";
	uint64_t best_limit = UINT64_MAX, best_usage = 0, own_usage = 0;
	bool own = true;
	struct plan plan;

	make_plan(r, CGCOL_BIT(CGCOL_USAGE) | CGCOL_BIT(CGCOL_LIMIT), &plan);
	free(out->path);
	memset(out, 0, sizeof(*out));
	if (!r->version || parse_proc_cgroup(proc_cgroup, r->version, path, sizeof(path)))
		return;
	/* memtop's cgroup, then each ancestor up to the one mounted */
	for (;;) {
		struct cg_sample cg = {.path = path};
		if (read_one(r, &cg, &plan, NULL) || !(cg.valid & CGCOL_BIT(CGCOL_USAGE))) {
			if (own)
				return;
		} else {
			if (own) {
				out->present = true;
				own_usage = cg.v[CGCOL_USAGE];
				out->path = xstrdup(path);
			}
			if ((cg.valid & ~cg.unlimited & CGCOL_BIT(CGCOL_LIMIT)) &&
			    cg.v[CGCOL_LIMIT] < best_limit) {
				best_limit = cg.v[CGCOL_LIMIT];
				best_usage = cg.v[CGCOL_USAGE];
				snprintf(best, sizeof(best), "%s", path);
			}
		}
		own = false;
		char *slash = strrchr(path, '/');
		if (!strcmp(path, r->root) || !slash || !strcmp(path, "/"))
			break;
		slash[slash == path] = '\0'; /* "/a" goes to "/" */
	}
	out->usage_kb = own_usage;
	if (best[0] && best_limit < mem_total_kb) {
		free(out->path);
		out->path = xstrdup(best);
		out->usage_kb = best_usage;
		out->limit_kb = best_limit;
		out->limited = true;
	}
}

void cg_collect(struct cg_reader *r, struct snapshot *s, unsigned cols, bool self)
{
	double start = clock_mono();

	s->cg_version = r->version;
	s->cg_cols = r->version ? cols : 0;
	if (cols) {
		if (!cg_bpf_list(r->bpf, r, s))
			cg_list(r, s);
		cg_read(r, s, cols);
	} else {
		cg_bpf_idle(r->bpf); /* the view closed: the iterator's link goes */
		if (r->nkept) {	     /* and the kernel's buffers */
			r->reads++;
			kept_sweep(r);
		}
	}
	if (self) {
		char text[4096];
		if (read_file("/proc/self/cgroup", text, sizeof(text)) > 0)
			cg_read_self(r, text, s->mem.mem_total_kb, &s->cg_self);
	}
	s->mono_cgroups = (start + clock_mono()) / 2;
}

/* Whether path is anc or lies below it */
static bool path_under(const char *path, const char *anc)
{
	size_t n = strlen(anc);

	if (n == 1 && anc[0] == '/')
		return path[0] == '/';
	return !strncmp(path, anc, n) && (path[n] == '\0' || path[n] == '/');
}

/* Components of path below the hierarchy's path mounted (root) */
static uint32_t path_depth(const struct cg_reader *r, const char *path)
{
	uint32_t d = 0;

	for (const char *p = path + (strcmp(r->root, "/") ? strlen(r->root) : 0); *p; p++)
		d += *p == '/' && p[1] && p[1] != '/';
	return d;
}

/* The entry of a kill in cgroup id (0: not known) at path; NULL if none yet */
static struct cg_kill *kill_find(struct cg_reader *r, uint64_t id, const char *path)
{
	for (size_t i = r->nkills; i-- > 0;)
		if (id ? r->kills[i].id == id : !strcmp(r->kills[i].path, path))
			return &r->kills[i];
	return NULL;
}

static struct cg_kill *kill_add(struct cg_reader *r, uint64_t id, const char *path)
{
	if (r->nkills == r->kills_cap) {
		r->kills_cap = r->kills_cap ? r->kills_cap * 2 : 16;
		r->kills = xrealloc(r->kills, r->kills_cap * sizeof(*r->kills));
	}
	struct cg_kill *e = &r->kills[r->nkills++];
	*e = (struct cg_kill){.path = xstrdup(path), .id = id};
	return e;
}

static void kill_drop(struct cg_reader *r, size_t i)
{
	free(r->kills[i].path);
	memmove(&r->kills[i], &r->kills[i + 1], (r->nkills - i - 1) * sizeof(*r->kills));
	r->nkills--;
}

/* With KILLS_MAX entries, the one whose last kill is oldest goes into the root's, which
 * keeps the count of the whole tree right */
static void kills_make_room(struct cg_reader *r)
{
	if (r->nkills < KILLS_MAX)
		return;
	size_t old = SIZE_MAX;
	for (size_t i = 0; i < r->nkills; i++)
		if (strcmp(r->kills[i].path, r->root) &&
		    (old == SIZE_MAX || r->kills[i].last < r->kills[old].last))
			old = i;
	if (old == SIZE_MAX)
		return;
	struct cg_kill e = r->kills[old];
	r->kills[old].path = NULL;
	kill_drop(r, old);
	struct cg_kill *root = kill_find(r, 0, r->root);
	if (!root)
		root = kill_add(r, 0, r->root);
	root->below += e.own + e.below;
	root->last = root->last > e.last ? root->last : e.last;
	free(e.path);
}

void cg_count_kills(struct cg_reader *r, const struct snapshot *s, size_t from)
{
	if (!s->bpf.have_oom)
		return;
	for (size_t i = from; i < s->nevents; i++) {
		const struct mt_event *ev = &s->events[i];
		if (ev->type != MT_EV_OOM_KILL || ev->earlier || (!ev->memcg_id && !ev->memcg[0]))
			continue;
		struct cg_kill *e = kill_find(r, ev->memcg_id, ev->memcg);
		if (!e) {
			kills_make_room(r);
			e = kill_add(r, ev->memcg_id, ev->memcg);
		}
		e->own++;
		e->last = e->last > ev->ts ? e->last : ev->ts;
	}
}

struct id_at {
	uint64_t id;
	size_t i;
};

static int cmp_id_at(const void *a, const void *b)
{
	uint64_t x = ((const struct id_at *)a)->id, y = ((const struct id_at *)b)->id;
	return (x > y) - (x < y);
}

/* The listed cgroup of kill entry e: by id, else by path (then it takes the id); -1 if
 * none, the cgroup removed */
static long kill_listed(const struct snapshot *s, const struct id_at *by_id, struct cg_kill *e)
{
	if (e->id) {
		struct id_at key = {.id = e->id};
		const struct id_at *at = bsearch(&key, by_id, s->ncgroups, sizeof(key), cmp_id_at);
		return at ? (long)at->i : -1;
	}
	for (size_t i = 0; i < s->ncgroups; i++) {
		if (!strcmp(s->cgroups[i].path, e->path)) {
			e->id = s->cgroups[i].id;
			return (long)i;
		}
	}
	return -1;
}

/* The cgroup among s->cgroups[0..n) that is path's nearest ancestor; -1 if none */
static long nearest_ancestor(const struct snapshot *s, size_t n, const char *path)
{
	long best = -1;
	size_t best_len = 0;

	for (size_t i = 0; i < n; i++) {
		const char *p = s->cgroups[i].path;
		size_t len = strlen(p);
		if (strcmp(p, path) && path_under(path, p) && (best < 0 || len > best_len)) {
			best = (long)i;
			best_len = len;
		}
	}
	return best;
}

/* An entry of a removed cgroup an hour after its last kill: its kills go to its nearest
 * listed ancestor's entry (made if need be, its at[] set), so that the ancestors' counts
 * stay; without one (outside the hierarchy read) they go. */
static void kill_fold(struct cg_reader *r, struct snapshot *s, size_t k, long *at)
{
	long a = nearest_ancestor(s, s->ncgroups, r->kills[k].path);
	if (a < 0)
		return;
	size_t j = 0;
	while (j < r->nkills && at[j] != a)
		j++;
	if (j == r->nkills) {
		kill_add(r, s->cgroups[a].id, s->cgroups[a].path);
		at[j] = a;
	}
	struct cg_kill *e = &r->kills[k], *to = &r->kills[j];
	to->below += e->own + e->below;
	to->last = to->last > e->last ? to->last : e->last;
}

static int cmp_kill_path(const void *a, const void *b, void *arg)
{
	const struct cg_kill *kills = arg;
	return strcmp(kills[*(const size_t *)a].path, kills[*(const size_t *)b].path);
}

/* The removed cgroups with kills, as rows after the listed ones: ancestors first, each
 * under its nearest ancestor among the rows */
static void append_removed(struct cg_reader *r, struct snapshot *s, const long *at)
{
	size_t n = 0, *order = xmalloc((r->nkills + 1) * sizeof(*order));

	for (size_t k = 0; k < r->nkills; k++)
		if (at[k] < 0 && path_under(r->kills[k].path, r->root))
			order[n++] = k;
	qsort_r(order, n, sizeof(*order), cmp_kill_path, r->kills);
	for (size_t j = 0; j < n; j++) {
		const struct cg_kill *e = &r->kills[order[j]];
		long parent = nearest_ancestor(s, s->ncgroups, e->path);
		struct cg_sample *cg = snapshot_add_cgroup(s, e->path);
		cg->id = e->id;
		cg->depth = path_depth(r, e->path);
		cg->parent = (int32_t)parent;
		cg->removed = true;
		cg->v[CGCOL_OOM_KILLS] = e->own + e->below;
		cg->valid = CGCOL_BIT(CGCOL_OOM_KILLS);
	}
	free(order);
}

void cg_fill_kills(struct cg_reader *r, struct snapshot *s)
{
	if (!s->bpf.have_oom || !s->ncgroups)
		return;
	size_t listed = s->ncgroups, nk = r->nkills;
	struct id_at *by_id = xmalloc((listed + 1) * sizeof(*by_id));
	long *at = xmalloc((2 * nk + 1) * sizeof(*at)); /* room for the entries folds make */

	for (size_t i = 0; i < listed; i++) {
		by_id[i] = (struct id_at){.id = s->cgroups[i].id, .i = i};
		s->cgroups[i].v[CGCOL_OOM_KILLS] = 0;
		s->cgroups[i].valid |= CGCOL_BIT(CGCOL_OOM_KILLS);
	}
	qsort(by_id, listed, sizeof(*by_id), cmp_id_at);
	for (size_t k = 0; k < nk; k++) {
		struct cg_kill *e = &r->kills[k];
		at[k] = kill_listed(s, by_id, e);
		if (at[k] >= 0 && strcmp(e->path, s->cgroups[at[k]].path)) {
			free(e->path); /* renamed (v1), or the event's path was cut short */
			e->path = xstrdup(s->cgroups[at[k]].path);
		}
	}
	/* removed an hour ago and more: folded into an ancestor, then dropped */
	for (size_t k = 0; k < nk; k++) {
		if (at[k] < 0 && s->wall - r->kills[k].last > REMOVED_SHOWN) {
			kill_fold(r, s, k, at);
			at[k] = -2;
		}
	}
	for (size_t k = r->nkills; k-- > 0;) {
		if (at[k] != -2)
			continue;
		kill_drop(r, k);
		memmove(&at[k], &at[k + 1], (r->nkills - k) * sizeof(*at));
	}
	for (size_t k = 0; k < r->nkills; k++)
		if (at[k] >= 0)
			s->cgroups[at[k]].v[CGCOL_OOM_KILLS] += r->kills[k].own + r->kills[k].below;
	append_removed(r, s, at);
	/* in it and below: each row comes after its parent */
	for (size_t i = s->ncgroups; i-- > 0;)
		if (s->cgroups[i].parent >= 0)
			s->cgroups[s->cgroups[i].parent].v[CGCOL_OOM_KILLS] +=
				s->cgroups[i].v[CGCOL_OOM_KILLS];
	free(by_id);
	free(at);
}
