/* Where each figure of a memory cgroup is read, per cgroup version: the tables of file
 * names, keys and units, and the parsing of the files' text. */
#include "cgroup_parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

const struct cg_src *cg_src_of(int version)
{
	return version == 1 ? v1_src : v2_src;
}

long cg_count_lines(int fd, char *buf, size_t size)
{
	int err = 0;
	long lines = 0;
	bool open_line = false;
	ssize_t n;

	if (fd < 0)
		return -1;
	/* to its end: a read shorter than asked for (see pread_all, cgroup_files.c) */
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
		if (src->fmt == FMT_LIMIT && v >= CG_V1_UNLIMITED)
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

void cg_parse(const struct cg_src *src, const char *text, unsigned cols, struct cg_sample *cg)
{
	struct lines li;

	li.text = NULL, li.rest = NULL, li.n = 0;
	for (int c = 0; c < CGCOL_COUNT; c++)
		if (cols & CGCOL_BIT(c))
			parse(&src[c], text, &li, c, cg);
}
