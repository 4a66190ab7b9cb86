/* A service's pins (bpf_pins.h): made in a directory of its own, published whole,
 * removed when it stops */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/magic.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "bpf_pins_in.h"
#include "util.h"

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

int bpf_pins_check(char *why, size_t len)
{
	const char *hint = geteuid() ? " (not root)" : "";
	char probe[64];
	int err = bpffs();

	if (err) {
		snprintf(why, len, "--pin: mounting bpffs on %s: %s%s", BPFFS_DIR, strerror(-err),
			 hint);
		return err;
	}
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "memtop_probe", 4, 4, 1, NULL);
	if (fd < 0) {
		err = -errno;
		snprintf(why, len, "--pin: making a BPF map: %s%s", strerror(-err), hint);
		return err;
	}
	snprintf(probe, sizeof(probe), "%s/memtop_probe_%d", BPFFS_DIR, (int)getpid());
	if (bpf_obj_pin(fd, probe)) {
		err = -errno;
		snprintf(why, len, "--pin: pinning in %s: %s%s", BPFFS_DIR, strerror(-err), hint);
	}
	unlink(probe);
	close(fd);
	return err;
}

struct bpf_pins *bpf_pins_create(char *say, size_t len)
{
	__u32 key = 0;
	int err = bpffs();
	char meta[96];

	say[0] = '\0';
	if (err) {
		snprintf(say, len, "BPF programs not shared: mounting bpffs on %s: %s", BPFFS_DIR,
			 strerror(-err));
		return NULL;
	}
	snprintf(meta, sizeof(meta), "%s/meta", BPF_PINS_DIR);
	if (access(meta, F_OK) == 0) {
		snprintf(say, len, "BPF programs not shared: another memtop's are in %s",
			 BPF_PINS_DIR);
		return NULL;
	}
	pins_sweep(); /* what services killed while pinning left */
	struct bpf_pins *p = xcalloc(1, sizeof(*p));
	p->owner = true;
	snprintf(p->dir, sizeof(p->dir), "%s/%s%d", BPFFS_DIR, NEW, (int)getpid());
	/* the meta map first (the concerns and the recording later), so that pins left by
	 * a service killed while pinning say whose they are */
	pins_meta_self(&p->meta);
	p->meta_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "memtop_meta", sizeof(key), sizeof(p->meta),
				    1, NULL);
	char path[128];
	snprintf(path, sizeof(path), "%s/meta", p->dir);
	if (mkdir(p->dir, 0700))
		p->dir[0] = '\0'; /* not this memtop's to remove */
	if (!p->dir[0] || p->meta_fd < 0 ||
	    bpf_map_update_elem(p->meta_fd, &key, &p->meta, BPF_ANY) ||
	    bpf_obj_pin(p->meta_fd, path) || !(p->meta_id = pins_meta_id(p->dir))) {
		snprintf(say, len, "BPF programs not shared: pinning in %s: %s", BPFFS_DIR,
			 strerror(errno));
		bpf_pins_close(p);
		return NULL;
	}
	return p;
}

int bpf_pins_add_link(struct bpf_pins *p, const char *prog, struct bpf_link *link)
{
	char path[512];

	pins_path(p->dir, "link", prog, path, sizeof(path));
	return bpf_link__pin(link, path);
}

int bpf_pins_add_prog(struct bpf_pins *p, struct bpf_program *prog)
{
	char path[512];

	pins_path(p->dir, "prog", bpf_program__name(prog), path, sizeof(path));
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
		pins_path(p->dir, "map", bpf_map__name(map), path, sizeof(path));
		if (pins_shared(map) && (err = bpf_map__pin(map, path)))
			break;
	}
	p->meta.concerns = concerns;
	snprintf(p->meta.recording, sizeof(p->meta.recording), "%s", recording ? recording : "");
	if (!err && bpf_map_update_elem(p->meta_fd, &key, &p->meta, BPF_ANY))
		err = -errno;
	if (err) {
		snprintf(say, len, "BPF programs not shared: pinning in %s: %s", BPF_PINS_DIR,
			 strerror(-err));
		return err;
	}
	/* the whole set at once, where no other is: of two services starting together, one
	 * publishes and the other keeps its programs to itself. An empty directory (made by
	 * hand) is no set. */
	rmdir(BPF_PINS_DIR);
	if (pins_rename_new(p->dir, BPF_PINS_DIR)) {
		err = -errno;
		if (err == -EEXIST || err == -ENOTEMPTY)
			snprintf(say, len, "BPF programs not shared: another memtop's are in %s",
				 BPF_PINS_DIR);
		else
			snprintf(say, len, "BPF programs not shared: renaming %s to %s: %s", p->dir,
				 BPF_PINS_DIR, strerror(-err));
		return err;
	}
	p->published = true;
	return 0;
}

void bpf_pins_close(struct bpf_pins *p)
{
	if (!p)
		return;
	/* only the set this memtop made: another's may be in BPF_PINS_DIR */
	if (p->owner && p->published)
		pins_remove_set(BPF_PINS_DIR, p->meta_id);
	else if (p->owner && p->dir[0])
		pins_remove_dir(p->dir); /* its own directory (mkdir made it) */
	if (p->meta_fd >= 0)
		close(p->meta_fd);
	for (int i = 0; i < p->nprogs; i++)
		close(p->prog[i].fd);
	free(p);
}
