/* Concern: the memory cgroups' page counters from a BPF cgroup iterator
 * (bpf/cgroups.bpf.c). Its program is loaded with the others but attached here, not at
 * start (it is in the descriptor's later list): the iterator needs the memory
 * hierarchy's directory, which the cgroup reader knows, and costs nothing while unread,
 * but a link is made only while the cgroup columns are asked for (bpf_cgroup_iter.h). */
#include "bpf_cgroup_iter.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/memtop.skel.h"
#include "bpf_concern.h"
#include "kbtf.h"
#include "util.h"

#define WALKS_AGAIN 3 /* walks started again from the start when the tree changed */

struct cg_iter {
	struct bpf_concern_state c; /* first: bpf_concern_start's (with no link) */
	bool linked;		    /* link made (not yet stopped) */
	int link;		    /* the iterator's link, while linked */
	int dir_fd;		    /* of dir, while link */
	char *dir;
	char *raw; /* one walk's output */
	size_t raw_cap;
	struct mtb_cgroup_rec *recs;
	size_t nrecs, cap;
	size_t *name_at; /* each record's name in names */
	char *names;
	size_t names_len, names_cap;
};

void bpf_cgroup_iter_stop(struct cg_iter *it)
{
	if (!it)
		return;
	if (!it->linked)
		return;
	close(it->link);
	it->linked = false;
	close(it->dir_fd);
	free(it->dir);
	it->dir = NULL;
}

/* The link for dir: the hierarchy's root directory, walked in pre-order. Made from the
 * program's descriptor, memtop's own or the one another memtop pinned (bpf_pins.h). */
static int attach(struct cg_iter *it, const char *dir)
{
	union bpf_iter_link_info info;
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	int fd, prog = bpf_concern_prog_fd(&it->c, SKEL_PROG(cgroups));

	bpf_cgroup_iter_stop(it);
	if (prog < 0)
		return -errno;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	info.cgroup.cgroup_fd = (__u32)fd;
	info.cgroup.order = BPF_CGROUP_ITER_DESCENDANTS_PRE;
	opts.iter_info = &info;
	opts.iter_info_len = sizeof(info);
	it->link = bpf_link_create(prog, 0, BPF_TRACE_ITER, &opts);
	if (it->link < 0) {
		int err = -errno;
		close(fd);
		return err;
	}
	it->linked = true;
	it->dir_fd = fd;
	it->dir = xstrdup(dir);
	return 0;
}

/* One walk from the cgroup at place skip on into it->raw: its length in *len; returns 1
 * when the walk stopped where the seq_file's buffer was full (EOPNOTSUPP after the data),
 * 0 when whole, or a negative errno */
static int walk(struct cg_iter *it, __u64 skip, size_t *len)
{
	int err = 0, fd;

	it->c.skel->bss->cg_skip = skip;
	fd = bpf_iter_create(it->link);
	if (fd < 0)
		return -errno;
	*len = 0;
	for (;;) {
		if (*len + 4096 > it->raw_cap) {
			it->raw_cap = it->raw_cap ? 2 * it->raw_cap : 65536;
			it->raw = xrealloc(it->raw, it->raw_cap);
		}
		ssize_t got = read(fd, it->raw + *len, it->raw_cap - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = errno == EOPNOTSUPP && *len ? 1 : -errno;
			break;
		}
		if (got == 0)
			break;
		*len += (size_t)got;
	}
	close(fd);
	return err;
}

static void add_rec(struct cg_iter *it, const struct mtb_cgroup_rec *rec, const char *name)
{
	size_t nl = rec->name_len;

	if (it->nrecs == it->cap) {
		it->cap = it->cap ? 2 * it->cap : 256;
		it->recs = xrealloc(it->recs, it->cap * sizeof(*it->recs));
		it->name_at = xrealloc(it->name_at, it->cap * sizeof(*it->name_at));
	}
	if (it->names_len + nl + 1 > it->names_cap) {
		it->names_cap = 2 * (it->names_len + nl + 1) + 4096;
		it->names = xrealloc(it->names, it->names_cap);
	}
	it->recs[it->nrecs] = *rec;
	it->name_at[it->nrecs++] = it->names_len;
	memcpy(it->names + it->names_len, name, nl);
	it->names[it->names_len + nl] = '\0';
	it->names_len += nl + 1;
}

/* The records of one walk's output, appended; the first is dropped where it is the one
 * the previous walk ended with (overlap). Returns the records added, or -1 if the output
 * is malformed or does not start with the overlap */
static long take(struct cg_iter *it, size_t len, const struct mtb_cgroup_rec *overlap)
{
	size_t off = 0;
	long added = 0;

	while (off < len) {
		struct mtb_cgroup_rec rec;
		if (len - off < sizeof(rec))
			return -1;
		memcpy(&rec, it->raw + off, sizeof(rec));
		const char *name = it->raw + off + sizeof(rec);
		size_t room = MTB_CG_NAME_ROOM((size_t)rec.name_len);
		if (rec.name_len >= MTB_CG_NAME_MAX || len - off - sizeof(rec) < room ||
		    memchr(name, '\0', rec.name_len) || name[rec.name_len])
			return -1;
		off += sizeof(rec) + room;
		/* before the place asked for: another memtop sharing the program (bpf_pins.h)
		 * set the place between this one's setting and its walk */
		if (overlap && rec.seq < overlap->seq)
			continue;
		if (overlap) {
			if (rec.seq != overlap->seq || rec.id != overlap->id)
				return -1;
			overlap = NULL;
			continue;
		}
		add_rec(it, &rec, name);
		added++;
	}
	return overlap ? -1 : added;
}

int bpf_cgroup_iter_read(struct cg_iter *it, const char *dir, const struct mtb_cgroup_rec **recs,
			 size_t *n)
{
	int err, again = 0;

	*recs = NULL;
	*n = 0;
	if (!it->linked || strcmp(it->dir, dir)) {
		err = attach(it, dir);
		if (err)
			return err;
	}
	it->nrecs = it->names_len = 0;
	for (;;) {
		/* the next walk starts at the last record taken, which it gives again: the
		 * same one where the tree is as it was */
		struct mtb_cgroup_rec last = {0};
		if (it->nrecs)
			last = it->recs[it->nrecs - 1];
		size_t len = 0;
		int rc = walk(it, last.seq, &len);
		if (rc < 0)
			return rc;
		long added = take(it, len, it->nrecs ? &last : NULL);
		if (added < 0 && it->nrecs && again++ < WALKS_AGAIN) {
			it->nrecs = it->names_len = 0; /* changed between walks */
			continue;
		}
		if (added < 0 || (rc && !added))
			return -EPROTO;
		if (!rc)
			break;
	}
	*recs = it->recs;
	*n = it->nrecs;
	return 0;
}

const char *bpf_cgroup_iter_name(const struct cg_iter *it, size_t i)
{
	return it->names + it->name_at[i];
}

static int cgroups_configure(struct memtop_bpf *skel, const struct btf *kernel, char *why,
			     size_t len)
{
	(void)skel;
	if (kernel && !kbtf_has_iter(kernel, "cgroup")) {
		snprintf(why, len, "needs Linux 6.1 (cgroup iterator); cgroups from their files");
		return -ENOTSUP;
	}
	return 0;
}

static int cgroups_links(const void *state)
{
	const struct cg_iter *it = state;

	return it->linked;
}

static void cgroups_stop(void *state)
{
	struct cg_iter *it = state;

	bpf_cgroup_iter_stop(it);
	free(it->raw);
	free(it->recs);
	free(it->name_at);
	free(it->names);
}

const struct bpf_concern bpf_cgroup_iter = {
	.name = "cgroup figures from BPF",
	.needs = "the cgroup figures from BPF",
	.later = {SKEL_PROG(cgroups)},
	.fds = 3, /* its link, the root's directory, the iterator read */
	.state_size = sizeof(struct cg_iter),
	.configure = cgroups_configure,
	.links = cgroups_links,
	.stop = cgroups_stop,
};
