#include "slabinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The next unsigned number after spaces, into *v; the text after it, or NULL */
static const char *number(const char *p, uint64_t *v)
{
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	errno = 0;
	*v = strtoull(p, &end, 10);
	return errno ? NULL : end;
}

/* One cache's line, up to its end (nl); false where it does not read as one */
static bool parse_line(const char *p, const char *nl, struct slab_cache *c)
{
	size_t len = strcspn(p, " \t\n");
	uint64_t *head[] = {&c->active_objs, &c->num_objs, &c->objsize, &c->objperslab,
			    &c->pagesperslab};

	if (!len || *p == '#' || len >= sizeof(c->name))
		return false;
	memset(c, 0, sizeof(*c));
	memcpy(c->name, p, len);
	p += len;
	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		if (!(p = number(p, head[i])) || p > nl)
			return false;
	const char *sd = memmem(p, (size_t)(nl - p), ": slabdata", 10);
	if (!sd)
		return false;
	p = number(sd + 10, &c->active_slabs);
	p = p ? number(p, &c->num_slabs) : NULL;
	c->reclaim = -1;
	return p && p <= nl;
}

int parse_slabinfo(const char *text, struct slab_info *si)
{
	const char *p = text;

	if (strncmp(p, "slabinfo - version: 2.", 22))
		return -1;
	while ((p = strchr(p, '\n'))) {
		const char *nl;
		p++;
		nl = p + strcspn(p, "\n");
		if (si->n == si->cap) {
			si->cap = si->cap ? si->cap * 2 : 256;
			si->caches = xrealloc(si->caches, si->cap * sizeof(*si->caches));
		}
		if (parse_line(p, nl, &si->caches[si->n]))
			si->n++;
	}
	return 0;
}

/* ---- the reader ---- */

struct known { /* a cache's reclaim, read once */
	char name[64];
	int8_t reclaim;
};

struct slab_reader {
	char *buf;
	size_t size;
	struct known *known; /* by name */
	size_t nknown, cap;
};

struct slab_reader *slab_reader_new(void)
{
	return xcalloc(1, sizeof(struct slab_reader));
}

void slab_reader_free(struct slab_reader *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r->known);
	free(r);
}

static int8_t read_reclaim(const char *name)
{
	char path[128], buf[16];

	/* a name from the kernel's own file, but it goes into a path: none with a slash */
	if (strchr(name, '/') || !strcmp(name, "..") || !strcmp(name, "."))
		return -1;
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/reclaim_account", name);
	if (read_file(path, buf, sizeof(buf)) <= 0 || (buf[0] != '0' && buf[0] != '1'))
		return -1;
	return (int8_t)(buf[0] - '0');
}

/* The cache's reclaim: known, else read and kept in its place by name */
static int8_t reclaim_of(struct slab_reader *r, const char *name)
{
	struct known key;
	size_t lo;

	snprintf(key.name, sizeof(key.name), "%s", name);
	if (sorted_name_find(r->known, r->nknown, sizeof(*r->known), key.name, &lo))
		return r->known[lo].reclaim;
	if (r->nknown == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		r->known = xrealloc(r->known, r->cap * sizeof(*r->known));
	}
	key.reclaim = read_reclaim(name);
	memmove(r->known + lo + 1, r->known + lo, (r->nknown - lo) * sizeof(*r->known));
	r->known[lo] = key;
	r->nknown++;
	return key.reclaim;
}

void slab_collect(struct slab_reader *r, struct snapshot *s)
{
	struct slab_info *si = &s->slab;
	long len;

	si->read = true;
	si->n = 0;
	if (!r->buf) {
		r->size = 65536;
		r->buf = xmalloc(r->size);
	}
	/* the whole file: read again into a larger buffer while it fills this one */
	while ((len = read_file("/proc/slabinfo", r->buf, r->size)) >= (long)r->size - 1) {
		r->size *= 2;
		r->buf = xrealloc(r->buf, r->size);
	}
	if (len < 0) {
		si->err = errno;
		return;
	}
	if (parse_slabinfo(r->buf, si)) {
		si->err = EINVAL;
		return;
	}
	si->err = 0;
	for (size_t i = 0; i < si->n; i++)
		si->caches[i].reclaim = reclaim_of(r, si->caches[i].name);
}
