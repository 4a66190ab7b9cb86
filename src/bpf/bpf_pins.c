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
#include "pidns.h"
#include "procfs.h"
#include "text.h"
#include "util.h"

#define MAGIC	  "memtop\0\1"
#define NPROGS	  4
#define BPFFS_DIR "/sys/fs/bpf"

/* The meta map's one value: who pinned, for which build, where */
struct pin_meta {
	char magic[8];
	uint64_t build;
	char boot_id[40];
	uint64_t pidns_dev, pidns_ino;
	int32_t pid;
	uint32_t concerns;
	uint64_t start_ticks; /* the owner's, /proc/PID/stat field 22 */
	char recording[256];
};

struct bpf_pins {
	struct pin_meta meta;
	bool owner;  /* this memtop pinned them: removed at close */
	int meta_fd; /* the owner's; -1 */
	struct {
		char name[64];
		int fd;
	} prog[NPROGS];
	int nprogs;
};

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
static void meta_self(struct pin_meta *m)
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

/* Every pin in the directory, the meta map first, and the directory */
static void remove_all(void)
{
	DIR *d = opendir(BPF_PINS_DIR);
	struct dirent *e;
	char path[512];

	unlink(BPF_PINS_DIR "/meta");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", BPF_PINS_DIR, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(BPF_PINS_DIR);
}

/* What kind of BPF object fd is: 'm' a map, 'p' a program, 'l' a link, 0 none */
static char obj_kind(int fd)
{
	char path[64], target[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	if (!strcmp(target, "anon_inode:bpf-map"))
		return 'm';
	if (!strcmp(target, "anon_inode:bpf-prog"))
		return 'p';
	if (!strcmp(target, "anon_inode:bpf_link") || !strcmp(target, "anon_inode:bpf-link"))
		return 'l';
	return 0;
}

/* Whether fd is a map of that type, key and value sizes and entries (entries 0: any);
 * else what it is in what (a few words). Its id in *id. */
static bool map_is(int fd, uint32_t type, uint32_t key, uint32_t value, uint32_t entries,
		   uint32_t *id, char *what, size_t len)
{
	struct bpf_map_info info;
	uint32_t n = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (obj_kind(fd) != 'm' || bpf_obj_get_info_by_fd(fd, &info, &n)) {
		snprintf(what, len, "not a map");
		return false;
	}
	if (id)
		*id = info.id;
	if (info.type == type && info.key_size == key && info.value_size == value &&
	    (!entries || info.max_entries == entries))
		return true;
	snprintf(what, len, "map type %u, key %u, value %u, %u entries", info.type, info.key_size,
		 info.value_size, info.max_entries);
	return false;
}

/* Whether fd is a program named name (as the kernel keeps it, cut short), or a link of
 * one; else what it is in what */
static bool prog_is(int fd, char kind, const char *name, char *what, size_t len)
{
	struct bpf_prog_info info;
	uint32_t n = sizeof(info);
	int pfd = fd;

	memset(&info, 0, sizeof(info));
	if (obj_kind(fd) != kind) {
		snprintf(what, len, "not a %s", kind == 'l' ? "link" : "program");
		return false;
	}
	if (kind == 'l') {
		struct bpf_link_info link;
		uint32_t ln = sizeof(link);

		memset(&link, 0, sizeof(link));
		pfd = bpf_obj_get_info_by_fd(fd, &link, &ln) ? -1
							     : bpf_prog_get_fd_by_id(link.prog_id);
	}
	bool ok = pfd >= 0 && !bpf_obj_get_info_by_fd(pfd, &info, &n) &&
		  !strncmp(info.name, name, sizeof(info.name) - 1);
	if (pfd >= 0 && pfd != fd)
		close(pfd);
	if (!ok)
		snprintf(what, len, "a %s of program %.16s", kind == 'l' ? "link" : "program",
			 info.name);
	return ok;
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

/* The meta map's value into m and what the pins are to this memtop (what it is in what
 * when it is not memtop's); -1 when there is none (or it cannot be opened: not root) */
static int read_meta(struct pin_meta *m, enum pins_state *state, char *what, size_t len)
{
	struct pin_meta self;
	__u32 key = 0;
	int fd = bpf_obj_get(BPF_PINS_DIR "/meta");

	if (fd < 0)
		return -1;
	memset(m, 0, sizeof(*m));
	/* another program's, or another version's of memtop: looked up into m, a value of
	 * another size would be read past it or in part */
	if (!map_is(fd, BPF_MAP_TYPE_ARRAY, sizeof(key), sizeof(*m), 1, NULL, what, len)) {
		close(fd);
		*state = PINS_FOREIGN;
		return 0;
	}
	int err = bpf_map_lookup_elem(fd, &key, m);
	close(fd);
	meta_self(&self);
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

bool bpf_pins_service(char *recording, size_t len)
{
	struct pin_meta m;
	enum pins_state state;
	char what[64];

	if (read_meta(&m, &state, what, sizeof(what)) || state != PINS_OURS)
		return false;
	snprintf(recording, len, "%s", m.recording);
	return true;
}

struct bpf_pins *bpf_pins_find(char *say, size_t len)
{
	struct pin_meta m;
	enum pins_state state;
	char what[64], dir[64];

	say[0] = '\0';
	if (read_meta(&m, &state, what, sizeof(what)))
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
		remove_all();
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

/* The path of the pin of kind ("map", "link", "prog") named name: bpffs refuses dots in
 * names (".bss" is "_bss") */
static void pin_path(const char *kind, const char *name, char *path, size_t size)
{
	int n = snprintf(path, size, "%s/%s_", BPF_PINS_DIR, kind);

	for (const char *c = name; *c && (size_t)n + 1 < size; c++)
		path[n++] = *c == '.' ? '_' : *c;
	path[n] = '\0';
}

/* The maps pinned and used: all but the read-only data the programs were configured
 * with before loading (.rodata), which the kernel does not let be pinned and nothing
 * reads after */
static bool shared(const struct bpf_map *map)
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
		if (!shared(map))
			continue;
		pin_path("map", bpf_map__name(map), path, sizeof(path));
		int fd = bpf_obj_get(path);
		int err = fd < 0 ? -errno : 0;
		/* the skeleton's map takes the pinned one's sizes: another would be read
		 * past its end */
		if (!err && !map_is(fd, bpf_map__type(map), bpf_map__key_size(map),
				    bpf_map__value_size(map), bpf_map__max_entries(map), NULL, what,
				    sizeof(what))) {
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
	pin_path("link", prog, path, sizeof(path));
	struct bpf_link *link = bpf_link__open(path);
	if (link && !prog_is(bpf_link__fd(link), 'l', prog, what, sizeof(what))) {
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
	pin_path("prog", prog, path, sizeof(path));
	int fd = bpf_obj_get(path);
	if (fd < 0)
		return -1;
	if (!prog_is(fd, 'p', prog, what, sizeof(what))) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	snprintf(p->prog[p->nprogs].name, sizeof(p->prog[0].name), "%s", prog);
	p->prog[p->nprogs++].fd = fd;
	return fd;
}

/* bpffs at /sys/fs/bpf, mounted (mode 0700) where nothing is */
static int bpffs(void)
{
	struct statfs fs;

	if (statfs(BPFFS_DIR, &fs) == 0 && fs.f_type == BPF_FS_MAGIC)
		return 0;
	if (mount("bpf", BPFFS_DIR, "bpf", 0, "mode=0700"))
		return -errno;
	return 0;
}

struct bpf_pins *bpf_pins_create(char *say, size_t len)
{
	int err = bpffs();

	say[0] = '\0';
	if (err) {
		snprintf(say, len, "BPF programs not shared: mounting bpffs on %s: %s", BPFFS_DIR,
			 strerror(-err));
		return NULL;
	}
	if (access(BPF_PINS_DIR "/meta", F_OK) == 0) {
		snprintf(say, len, "BPF programs not shared: another memtop's are in %s",
			 BPF_PINS_DIR);
		return NULL;
	}
	remove_all(); /* what a service stopped half-way through pinning left */
	if (mkdir(BPF_PINS_DIR, 0700) && errno != EEXIST) {
		snprintf(say, len, "BPF programs not shared: %s: %s", BPF_PINS_DIR,
			 strerror(errno));
		return NULL;
	}
	struct bpf_pins *p = xcalloc(1, sizeof(*p));
	p->owner = true;
	p->meta_fd = -1;
	return p;
}

int bpf_pins_add_link(struct bpf_pins *p, const char *prog, struct bpf_link *link)
{
	char path[512];

	(void)p;
	pin_path("link", prog, path, sizeof(path));
	return bpf_link__pin(link, path);
}

int bpf_pins_add_prog(struct bpf_pins *p, struct bpf_program *prog)
{
	char path[512];

	(void)p;
	pin_path("prog", bpf_program__name(prog), path, sizeof(path));
	return bpf_program__pin(prog, path);
}

int bpf_pins_publish(struct bpf_pins *p, struct memtop_bpf *skel, unsigned concerns,
		     const char *recording, char *say, size_t len)
{
	struct bpf_map *map;
	char path[512];
	__u32 key = 0;
	int err = 0;

	bpf_object__for_each_map(map, skel->obj)
	{
		pin_path("map", bpf_map__name(map), path, sizeof(path));
		if (shared(map) && (err = bpf_map__pin(map, path)))
			break;
	}
	meta_self(&p->meta);
	p->meta.concerns = concerns;
	snprintf(p->meta.recording, sizeof(p->meta.recording), "%s", recording ? recording : "");
	if (!err) {
		p->meta_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "memtop_meta", sizeof(key),
					    sizeof(p->meta), 1, NULL);
		if (p->meta_fd < 0 || bpf_map_update_elem(p->meta_fd, &key, &p->meta, BPF_ANY) ||
		    bpf_obj_pin(p->meta_fd, BPF_PINS_DIR "/meta"))
			err = -errno;
	}
	if (err)
		snprintf(say, len, "BPF programs not shared: pinning in %s: %s", BPF_PINS_DIR,
			 strerror(-err));
	return err;
}

void bpf_pins_close(struct bpf_pins *p)
{
	if (!p)
		return;
	if (p->owner)
		remove_all();
	if (p->meta_fd >= 0)
		close(p->meta_fd);
	for (int i = 0; i < p->nprogs; i++)
		close(p->prog[i].fd);
	free(p);
}
