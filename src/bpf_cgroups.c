/* Concern: the memory cgroups' page counters from a BPF cgroup iterator
 * (bpf/cgroups.bpf.c). Its start attaches nothing: the iterator needs the memory
 * hierarchy's directory, which the cgroup reader knows, and costs nothing while unread,
 * but a link is made only while the cgroup columns are asked for (bpf_cgroups.h). */
#include "bpf_cgroups.h"

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
#include "util.h"

struct cg_iter {
	struct bpf_program *prog;
	struct bpf_link *link; /* NULL: not made, or stopped */
	int dir_fd;
	char *dir;
	struct mtb_cgroup_rec *recs;
	size_t nrecs, cap;
};

static size_t cgroups_programs(struct memtop_bpf *skel, struct bpf_program **p)
{
	p[0] = skel->progs.cgroups;
	return 1;
}

static int cgroups_start(void **state, struct memtop_bpf *skel, char *why, size_t len)
{
	struct cg_iter *it = xcalloc(1, sizeof(*it));

	(void)why;
	(void)len;
	it->prog = skel->progs.cgroups;
	it->dir_fd = -1;
	*state = it;
	return 0;
}

void bpf_cgroups_stop(struct cg_iter *it)
{
	if (!it)
		return;
	bpf_link__destroy(it->link);
	it->link = NULL;
	if (it->dir_fd >= 0)
		close(it->dir_fd);
	it->dir_fd = -1;
	free(it->dir);
	it->dir = NULL;
}

/* The link for dir: the hierarchy's root directory, walked in pre-order */
static int attach(struct cg_iter *it, const char *dir)
{
	union bpf_iter_link_info info;
	LIBBPF_OPTS(bpf_iter_attach_opts, opts);

	bpf_cgroups_stop(it);
	it->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (it->dir_fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	info.cgroup.cgroup_fd = (__u32)it->dir_fd;
	info.cgroup.order = BPF_CGROUP_ITER_DESCENDANTS_PRE;
	opts.link_info = &info;
	opts.link_info_len = sizeof(info);
	it->link = bpf_program__attach_iter(it->prog, &opts);
	if (!it->link) {
		int err = -errno;
		bpf_cgroups_stop(it);
		return err;
	}
	it->dir = xstrdup(dir);
	return 0;
}

int bpf_cgroups_read(struct cg_iter *it, const char *dir, const struct mtb_cgroup_rec **recs,
		     size_t *n)
{
	int err;

	*recs = NULL;
	*n = 0;
	if (!it->link || strcmp(it->dir, dir)) {
		err = attach(it, dir);
		if (err)
			return err;
	}
	int fd = bpf_iter_create(bpf_link__fd(it->link));
	if (fd < 0)
		return -errno;
	/* into the array as bytes: whole records once all is read */
	size_t bytes = 0;
	for (;;) {
		if (bytes + 64 * sizeof(*it->recs) > it->cap * sizeof(*it->recs)) {
			it->cap = it->cap ? 2 * it->cap : 256;
			it->recs = xrealloc(it->recs, it->cap * sizeof(*it->recs));
		}
		ssize_t got =
			read(fd, (char *)it->recs + bytes, it->cap * sizeof(*it->recs) - bytes);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = -errno;
			close(fd);
			return err;
		}
		if (got == 0)
			break;
		bytes += (size_t)got;
	}
	if (bytes % sizeof(*it->recs)) {
		close(fd);
		return -EPROTO;
	}
	it->nrecs = bytes / sizeof(*it->recs);
	close(fd);
	*recs = it->recs;
	*n = it->nrecs;
	return 0;
}

static int cgroups_links(const void *state)
{
	const struct cg_iter *it = state;

	return it->link != NULL;
}

static void cgroups_close(void *state)
{
	struct cg_iter *it = state;

	if (!it)
		return;
	bpf_cgroups_stop(it);
	free(it->recs);
	free(it);
}

const struct bpf_concern bpf_cgroups = {
	.name = "cgroup figures from BPF",
	.needs = "the cgroup figures from BPF",
	.programs = cgroups_programs,
	.start = cgroups_start,
	.links = cgroups_links,
	.close = cgroups_close,
};
