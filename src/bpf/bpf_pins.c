/* Programs shared through bpffs (bpf_pins.h): the service's pins and another memtop's use
 * of them. */
#include "bpf_pins.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/magic.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "bpf_objinfo.h"
#include "bpf_pins_in.h"
#include "pidns.h"
#include "procfs.h"
#include "text.h"
#include "util.h"

const char *bpf_pins_dir(void)
{
	static char dir[64];
	const char *e, *name;

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/memtop", BPFFS_DIR);
	e = getenv("MEMTOP_PINS_DIR");
	if (!e || strncmp(e, BPFFS_DIR "/", strlen(BPFFS_DIR) + 1))
		return dir;
	name = e + strlen(BPFFS_DIR) + 1;
	size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	if (n && !name[n] && strlen(e) < sizeof(dir))
		snprintf(dir, sizeof(dir), "%s", e);
	return dir;
}

/* A hash of the BPF object's bytes: pins of another build have another. Made once: the
 * monitor asks before the loader's thread starts, the thread after */
static uint64_t build_hash(void)
{
	static uint64_t h;
	size_t n;

	if (h)
		return h;
	const unsigned char *b = memtop_bpf__elf_bytes(&n);
	uint64_t x = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		x = (x ^ b[i]) * 1099511628211ull;
	return h = x;
}

static uint64_t start_ticks(int pid)
{
	char path[64], buf[1024];
	struct pid_stat st;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (pid <= 0 || read_file(path, buf, sizeof(buf)) <= 0 || parse_stat(buf, &st))
		return 0;
	return st.start_ticks;
}

/* This memtop's meta: all but the concerns and the recording */
void pins_meta_self(struct pin_meta *m)
{
	struct mt_pidns ns = {0, 0};

	memset(m, 0, sizeof(*m));
	memcpy(m->magic, MAGIC, sizeof(m->magic));
	m->build = build_hash();
	if (read_file("/proc/sys/kernel/random/boot_id", m->boot_id, sizeof(m->boot_id)) < 0)
		m->boot_id[0] = '\0';
	m->boot_id[strcspn(m->boot_id, "\n")] = '\0';
	if (pidns_self(&ns)) {
		m->pidns_dev = ns.dev;
		m->pidns_ino = ns.ino;
	}
	m->pid = (int32_t)getpid();
	m->start_ticks = start_ticks(m->pid);
}

/* Every pin in dir, the meta map last (a removal cut short leaves what says whose they
 * were), and dir */
void pins_remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "meta"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "%s/meta", dir);
	unlink(path);
	rmdir(dir);
}

int pins_rename_new(const char *from, const char *to)
{
	return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

/* What the pins found are to this memtop */
enum pins_state {
	PINS_OURS,	 /* a live service's of this build, in this PID namespace */
	PINS_FOREIGN,	 /* the meta is not a map of memtop's meta's type and sizes */
	PINS_UNREADABLE, /* not memtop's meta map */
	PINS_STALE,	 /* their owner is gone (or another boot's) */
	PINS_OTHER_NS,	 /* another PID namespace's: whether the owner lives cannot be told */
	PINS_OTHER_BUILD
};

/* The meta map's value in dir into m and what the pins are to this memtop, its id in *id
 * (what it is in what when it is not memtop's); -1 when there is none (or it cannot be
 * opened: not root) */
static int read_meta(const char *dir, struct pin_meta *m, enum pins_state *state, uint32_t *id,
		     char *what, size_t len)
{
	struct pin_meta self;
	__u32 key = 0;
	char path[128];

	snprintf(path, sizeof(path), "%s/meta", dir);
	int fd = bpf_obj_get(path);
	if (fd < 0)
		return -1;
	memset(m, 0, sizeof(*m));
	*id = 0;
	/* another program's, or another version's of memtop: looked up into m, a value of
	 * another size would be read past it or in part */
	if (!objinfo_map_is(fd, BPF_MAP_TYPE_ARRAY, sizeof(key), sizeof(*m), 1, id, what, len)) {
		close(fd);
		*state = PINS_FOREIGN;
		return 0;
	}
	int err = bpf_map_lookup_elem(fd, &key, m);
	close(fd);
	pins_meta_self(&self);
	m->recording[sizeof(m->recording) - 1] = '\0';
	/* the owner's pid names a process in its own PID namespace only: checked after it */
	if (err || memcmp(m->magic, MAGIC, sizeof(m->magic)))
		*state = PINS_UNREADABLE;
	else if (strcmp(m->boot_id, self.boot_id))
		*state = PINS_STALE;
	else if (m->pidns_dev != self.pidns_dev || m->pidns_ino != self.pidns_ino)
		*state = PINS_OTHER_NS;
	else if (!m->start_ticks || start_ticks(m->pid) != m->start_ticks)
		*state = PINS_STALE;
	else if (m->build != self.build)
		*state = PINS_OTHER_BUILD;
	else
		*state = PINS_OURS;
	return 0;
}

/* The id of the meta map in dir; 0 where there is none */
uint32_t pins_meta_id(const char *dir)
{
	struct pin_meta m;
	enum pins_state state;
	uint32_t id;
	char what[64];

	return read_meta(dir, &m, &state, &id, what, sizeof(what)) ? 0 : id;
}

/* Removes the set of pins in dir whose meta map is the one of that id: renamed aside
 * first, so that a set put in its place meanwhile (by a service starting) is not
 * touched, and put back where it is not that one. Whether it went. */
bool pins_remove_set(const char *dir, uint32_t id)
{
	char aside[64];

	snprintf(aside, sizeof(aside), "%s/%s%d", BPFFS_DIR, OLD, (int)getpid());
	if (pins_rename_new(dir, aside))
		return false;
	if (pins_meta_id(aside) != id) {
		pins_rename_new(aside, dir);
		return false;
	}
	pins_remove_dir(aside);
	return true;
}

/* The sets being made or removed by memtops that are gone (killed while pinning or
 * removing) are removed; a directory without a meta map only where it is empty */
void pins_sweep(void)
{
	DIR *d = opendir(BPFFS_DIR);
	struct dirent *e;
	char dir[320], what[64];
	struct pin_meta m;
	enum pins_state state;
	uint32_t id;

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, NEW, strlen(NEW)) && strncmp(e->d_name, OLD, strlen(OLD)))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", BPFFS_DIR, e->d_name);
		if (read_meta(dir, &m, &state, &id, what, sizeof(what)))
			rmdir(dir);
		else if (state == PINS_STALE)
			pins_remove_dir(dir);
	}
	if (d)
		closedir(d);
}

bool bpf_pins_service(char *recording, size_t len)
{
	struct pin_meta m;
	enum pins_state state;
	uint32_t id;
	char what[64];

	if (read_meta(BPF_PINS_DIR, &m, &state, &id, what, sizeof(what)) || state != PINS_OURS)
		return false;
	snprintf(recording, len, "%s", m.recording);
	return true;
}

struct bpf_pins *bpf_pins_find(char *say, size_t len)
{
	struct pin_meta m;
	enum pins_state state;
	uint32_t id;
	char what[64], dir[64];

	say[0] = '\0';
	if (read_meta(BPF_PINS_DIR, &m, &state, &id, what, sizeof(what)))
		return NULL;
	switch (state) {
	case PINS_OURS: {
		struct bpf_pins *p = xcalloc(1, sizeof(*p));
		p->meta = m;
		p->meta_fd = -1;
		return p;
	}
	case PINS_FOREIGN: /* another program's, or another memtop's: left alone */
		escape_display(BPF_PINS_DIR, dir, sizeof(dir), false);
		snprintf(say, len, "BPF pins in %s not this memtop's (their meta: %s), not used",
			 dir, what);
		break;
	case PINS_UNREADABLE:
		snprintf(say, len, "BPF pins in %s unreadable, not used", BPF_PINS_DIR);
		break;
	case PINS_STALE:
		pins_remove_set(BPF_PINS_DIR, id);
		snprintf(say, len, "stale BPF pins of memtop %d removed (it is gone)", (int)m.pid);
		break;
	case PINS_OTHER_NS:
	case PINS_OTHER_BUILD:
		snprintf(say, len, "BPF pins of memtop %d not used: another %s", (int)m.pid,
			 state == PINS_OTHER_NS ? "PID namespace" : "build");
		break;
	}
	return NULL;
}

int bpf_pins_owner(const struct bpf_pins *p)
{
	return p->meta.pid;
}

unsigned bpf_pins_concerns(const struct bpf_pins *p)
{
	return p->meta.concerns;
}

/* The path of the pin of kind ("map", "link", "prog") named name in dir: bpffs refuses
 * dots in names (".bss" is "_bss") */
void pins_path(const char *dir, const char *kind, const char *name, char *path, size_t size)
{
	int n = snprintf(path, size, "%s/%s_", dir, kind);

	for (const char *c = name; *c && (size_t)n + 1 < size; c++)
		path[n++] = *c == '.' ? '_' : *c;
	path[n] = '\0';
}

/* The maps pinned and used: all but the read-only data the programs were configured
 * with before loading (.rodata), which the kernel does not let be pinned and nothing
 * reads after */
bool pins_shared(const struct bpf_map *map)
{
	return !(bpf_map__map_flags(map) & BPF_F_RDONLY_PROG);
}

/* Global data (.bss, .data) is read and written through a mapping of its map: the
 * pinned map's, over the one the skeleton points at */
static int map_data(struct bpf_map *map, int fd)
{
	size_t size;
	void *at = (void *)bpf_map__initial_value(map, &size);
	long page = sysconf(_SC_PAGESIZE);

	if (!at || !(bpf_map__map_flags(map) & BPF_F_MMAPABLE))
		return 0;
	size = (size + (size_t)page - 1) & ~((size_t)page - 1);
	if (mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
		return -errno;
	return 0;
}

int bpf_pins_reuse(const struct bpf_pins *p, struct memtop_bpf *skel, char *why, size_t len)
{
	struct bpf_map *map;
	char path[512], what[64];

	(void)p;
	bpf_object__for_each_map(map, skel->obj)
	{
		if (!pins_shared(map))
			continue;
		pins_path(BPF_PINS_DIR, "map", bpf_map__name(map), path, sizeof(path));
		int fd = bpf_obj_get(path);
		int err = fd < 0 ? -errno : 0;
		/* the skeleton's map takes the pinned one's sizes: another would be read
		 * past its end */
		if (!err && !objinfo_map_is(fd, bpf_map__type(map), bpf_map__key_size(map),
					    bpf_map__value_size(map), bpf_map__max_entries(map),
					    NULL, what, sizeof(what))) {
			snprintf(why, len, "pinned map %s not this memtop's (%s)",
				 bpf_map__name(map), what);
			close(fd);
			return -EINVAL;
		}
		if (!err)
			err = bpf_map__reuse_fd(map, fd);
		if (!err && bpf_map__is_internal(map))
			err = map_data(map, fd);
		if (fd >= 0)
			close(fd);
		if (err) {
			snprintf(why, len, "pinned map %s: %s", bpf_map__name(map), strerror(-err));
			return err;
		}
	}
	return 0;
}

struct bpf_link *bpf_pins_link(const struct bpf_pins *p, const char *prog)
{
	char path[512], what[64];

	(void)p;
	pins_path(BPF_PINS_DIR, "link", prog, path, sizeof(path));
	struct bpf_link *link = bpf_link__open(path);
	if (link && !objinfo_prog_is(bpf_link__fd(link), 'l', prog, what, sizeof(what))) {
		bpf_link__destroy(link); /* its descriptor closed: the pin stays attached */
		errno = EINVAL;
		return NULL;
	}
	return link;
}

int bpf_pins_prog_fd(struct bpf_pins *p, const char *prog)
{
	char path[512], what[64];

	for (int i = 0; i < p->nprogs; i++)
		if (!strcmp(p->prog[i].name, prog))
			return p->prog[i].fd;
	if (p->nprogs == NPROGS) {
		errno = ENOSPC;
		return -1;
	}
	pins_path(BPF_PINS_DIR, "prog", prog, path, sizeof(path));
	int fd = bpf_obj_get(path);
	if (fd < 0)
		return -1;
	if (!objinfo_prog_is(fd, 'p', prog, what, sizeof(what))) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	snprintf(p->prog[p->nprogs].name, sizeof(p->prog[0].name), "%s", prog);
	p->prog[p->nprogs++].fd = fd;
	return fd;
}
