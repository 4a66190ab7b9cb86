/* What bpf_pins.c, the pins found and used, shares with bpf_pins_make.c, a service's
 * pins made and removed */
#ifndef MEMTOP_BPF_PINS_IN_H
#define MEMTOP_BPF_PINS_IN_H

#include <stdbool.h>
#include <stdint.h>

#include "bpf_pins.h"

#define MAGIC	  "memtop\0\1"
#define NPROGS	  4
#define BPFFS_DIR "/sys/fs/bpf"
/* A service's pins are made in BPFFS_DIR/NEW_PIDnumber and renamed to BPF_PINS_DIR whole;
 * a set removed is first renamed to OLD_PIDnumber (bpffs refuses dots in names) */
#define NEW "memtop_new_"
#define OLD "memtop_old_"

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
	bool owner;	  /* this memtop pins them: removed at close */
	bool published;	  /* the owner's, renamed to BPF_PINS_DIR */
	int meta_fd;	  /* the owner's; -1 */
	uint32_t meta_id; /* the owner's meta map's id: which set is its own */
	char dir[64];	  /* where the owner pins (NEW...) */
	struct {
		char name[64];
		int fd;
	} prog[NPROGS];
	int nprogs;
};

/* This memtop's meta: all but the concerns and the recording */
void pins_meta_self(struct pin_meta *m);
/* Every pin in dir, the meta map last, and dir */
void pins_remove_dir(const char *dir);
/* rename(2) where to is not */
int pins_rename_new(const char *from, const char *to);
/* The id of the meta map in dir; 0 where there is none */
uint32_t pins_meta_id(const char *dir);
/* Removes the set in dir whose meta map has that id (another left); whether it went */
bool pins_remove_set(const char *dir, uint32_t id);
/* Removes the sets being made or removed by memtops that are gone */
void pins_sweep(void);
/* The path of the pin of kind ("map", "link", "prog") named name in dir */
void pins_path(const char *dir, const char *kind, const char *name, char *path, size_t size);
/* Whether the map is pinned and shared */
struct bpf_map;
bool pins_shared(const struct bpf_map *map);

#endif
