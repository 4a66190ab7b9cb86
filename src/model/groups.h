/* Process groups (--groups): each process of the snapshot put in the group of the first
 * rule that matches it (grouprules.h; one that matches none is in no group), and the sums
 * over each group's members: the columns of groupcolumns.h. A group's counters (faults,
 * swap-ins, stalls) never go down: a member that exits or leaves for another group leaves
 * its last counts in the group's sum, as process-exporter keeps them. OOM kills count the
 * victims that were members at the refresh before the kill (else those the rules match by
 * comm and memory cgroup alone).
 *
 * The names are bounded: at most GROUPS_MAX groups for the life of the process, those
 * named later counted together as the group "other". A group once named stays, with 0
 * processes when it has none. */
#ifndef MEMTOP_GROUPS_H
#define MEMTOP_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "grouprules.h"
#include "groupcolumns.h"
#include "model.h"

#define GROUPS_MAX 1000
/* The bytes of a command line or a cgroup path the regular expressions see: glibc's
 * matcher (in a UTF-8 locale above all) takes time in the square of the text's length */
#define GROUPS_TEXT_MAX 1024

/* A process as last placed: its group (-1: none) while what the rules read of it is the
 * same (hash), so that each is matched once, not at every refresh */
struct group_seen {
	int32_t pid;
	int32_t group;
	uint64_t start_ticks, hash;
};

struct group_member {
	int32_t pid;
	uint64_t start_ticks;
	uint32_t group;
	uint64_t last[GROUPCOL_COUNTERS]; /* its counters when last read */
};

struct group_index_slot {
	uint32_t hash, group; /* group + 1; 0: empty */
};

struct groups {
	struct group_rules rules;
	struct group_total *g; /* in the order first named */
	size_t n, cap;
	uint64_t (*gone)[GROUPCOL_COUNTERS]; /* by group: what exited members left */
	struct group_member *mem, *next;     /* by pid and start: the last refresh's, this one's */
	size_t nmem, nnext, memcap;
	int32_t *pids;			     /* of next */
	struct group_seen *seen, *seen_next; /* by pid and start: every process, as placed */
	size_t nseen, nseen_next, seencap;
	struct group_index_slot *index; /* the groups by name */
	uint64_t oom_seen;
	double mono; /* when the last sums were made (monotonic seconds); 0: never */
};

/* Reads the rules of path (group_rules_read) into gs, no group named yet. Returns 0, or -1
 * with one line in err. */
int groups_load(struct groups *gs, const char *path, char *err, size_t errlen);
/* Puts the processes of m's newest snapshot in their groups (a process matched again only
 * where its comm, command line, user or cgroup changed); returns how many are members
 * and their pids in *pids (the groups' own, valid till the next call), for the collectors
 * to read their costly columns before groups_sum */
size_t groups_match(struct groups *gs, const struct model *m, int32_t **pids);
/* The groups' figures from the members matched, the OOM kills added to m, and the
 * counters' rates since the last call */
void groups_sum(struct groups *gs, const struct model *m);
void groups_free(struct groups *gs);

#endif
