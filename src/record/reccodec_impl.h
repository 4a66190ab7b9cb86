/* What the recording's encoder and decoder share (recencode.c, recdecode.c): the flags of
 * a process's parts, and the previous sample's state kept by recstate.c */
#ifndef MEMTOP_RECCODEC_IMPL_H
#define MEMTOP_RECCODEC_IMPL_H

#include <string.h>

#include "reccodec.h"

/* A process's flags: which of its parts follow */
enum {
	P_NEW = 1 << 0,	   /* not in the previous sample: no delta; every part follows */
	P_IDS = 1 << 1,	   /* ppid, uid, kthread, memcg_id, cgroup2_id */
	P_COMM = 1 << 2,   /* comm */
	P_CMD = 1 << 3,	   /* cmd */
	P_USER = 1 << 4,   /* user */
	P_CGROUP = 1 << 5, /* cgroup */
	P_MASKS = 1 << 6,  /* valid, tried */
	P_ALL = 0x7f,
};

/* The parts of a sample coded on their own (recfields.def's REC_PART rows), in
 * rec_state.parts: the limited cgroups' processes, the cgroups' names */
enum { REC_PART_TASKS, REC_PART_NAMES, REC_PARTS };
/* The part that field f (one of size 0) is */
static inline int rec_part_of(const struct rec_field *f)
{
	return strcmp(f->name, "cgroups.names") ? REC_PART_TASKS : REC_PART_NAMES;
}

/* The names of the cgroups of s, coded (recnames.c): nothing where none has one */
void rec_names_put(struct rbuf *b, const struct snapshot *s);
/* The same, p[0..n), into s, whose cgroups are decoded; NULL, or why they do not hold
 * together (then s has none) */
const char *rec_names_get(const uint8_t *p, size_t n, struct snapshot *s);

/* The processes of the limited cgroups of s, coded (rectasks.c): nothing where none has
 * any (or oom_group set), or where there are more than REC_MAX_CG_TASKS */
void rec_tasks_put(struct rbuf *b, const struct snapshot *s);
/* The same, p[0..n), into s, whose cgroups are decoded; NULL, or why they do not hold
 * together (then s has none) */
const char *rec_tasks_get(const uint8_t *p, size_t n, struct snapshot *s);

/* A string a snapshot may still point at: freed two samples later */
void bury(struct rec_state *st, char *p);
void sweep(struct rec_state *st, bool all);
/* The previous sample's process pid, looked for from index *j on */
struct rec_proc *find_base(struct rec_state *st, size_t *j, int32_t pid);
/* Room for the next sample's n processes */
struct rec_proc *tmp_room(struct rec_state *st, size_t n);
/* They become the previous sample */
void take_procs(struct rec_state *st, size_t n, bool keep_dead);

#endif
