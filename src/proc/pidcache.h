/* Facts about a process that do not change while it lives (command line, user name), or
 * seldom (its memory cgroup), kept per (pid, start time) so they are read once, not every
 * refresh. */
#ifndef MEMTOP_PIDCACHE_H
#define MEMTOP_PIDCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "snapshot.h"

/* One a process: its fields ordered so no padding is between them */
struct pid_entry {
	int32_t pid;
	bool cgroup_read;		 /* read since it was first seen or last exec'd */
	bool named;			 /* comm and seen_comm set */
	char seen_comm[MT_COMM_LEN + 1]; /* comm as libproc2 reported it when read */
	char comm[MT_COMM_LEN + 1];	 /* raw */
	uint64_t start_ticks;
	uint64_t seen; /* generation last seen */
	char *cmd;     /* raw; NULL: not read yet */
	/* its memory cgroup (raw), once read; the one before stays for a refresh, which the
	 * previous snapshot may show */
	char *cgroup, *cgroup_before;
	struct pid_entry *next;
};

struct pidcache {
	struct pid_entry **buckets;
	size_t nbuckets;
	size_t count;
	uint64_t generation;
};

void pidcache_init(struct pidcache *pc);
void pidcache_free(struct pidcache *pc);
/* Sets e's memory cgroup to path (NULL: unknown), keeping the one before for a refresh */
void pidcache_set_cgroup(struct pid_entry *e, const char *path);
/* Returns the entry for (pid, start), or NULL. Marks it seen in this generation. */
struct pid_entry *pidcache_find(struct pidcache *pc, int32_t pid, uint64_t start);
struct pid_entry *pidcache_add(struct pidcache *pc, int32_t pid, uint64_t start);
/* Starts a new generation, dropping entries not seen in the last two. */
void pidcache_sweep(struct pidcache *pc);

/* uid -> user name, looked up once per uid. */
const char *user_name(uint32_t uid);

#endif
