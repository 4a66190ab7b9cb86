/* What a person asks memtop to change, from the screen, once confirmed: a process's
 * oom_score_adj; a memory cgroup's memory.high, its limit (memory.max, v1
 * memory.limit_in_bytes), a reclaim from it (memory.reclaim) or the end of its processes
 * (cgroup.kill, else each process through a pidfd). The screens never write: a key
 * returns the request (struct act_req), the loop (src/run/loop.c) prepares it here (the
 * right, the file, the current value) and, once confirmed, carries it out, which says
 * what happened in one line and in the action log that the OOM history screen shows.
 *
 * A process is acted on through a pidfd taken when it was selected (src/proc/pidhold.h):
 * its /proc directory is opened by the pid, its start time read there and compared, and
 * oom_score_adj opened from that directory, so a pid taken by another process is never
 * written. A cgroup is acted on through its directory, whose inode must still be the
 * cgroup id the screen showed. */
#ifndef MEMTOP_ACT_H
#define MEMTOP_ACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pidhold.h"
#include "snapshot.h"

enum act_op {
	AO_NONE,
	AO_OOM_ADJ,    /* a process's oom_score_adj */
	AO_CG_HIGH,    /* memory.high (v2) */
	AO_CG_MAX,     /* memory.max (v2), memory.limit_in_bytes (v1) */
	AO_CG_RECLAIM, /* memory.reclaim (v2, Linux 5.19) */
	AO_CG_KILL,    /* cgroup.kill (v2, Linux 5.14), else SIGKILL to each process */
};

/* A request's stage: asked by a key (the loop prepares it), or confirmed (carried out) */
enum act_stage { AS_NONE, AS_PREPARE, AS_DO };

#define ACT_MAX	 UINT64_MAX /* an amount of "max": no limit */
#define ACT_PATH 512

struct act_req {
	enum act_op op;
	enum act_stage stage;
	/* AO_OOM_ADJ: the process as it was selected, held from the preparation on (its
	 * pidfd), its name as shown (raw), the value now and the one asked for */
	int32_t pid;
	uint64_t start;
	struct pid_hold hold;
	char comm[MT_COMM_LEN + 1];
	int adj_now, adj;
	/* a cgroup: its path (raw) and id as the screen showed them */
	char path[ACT_PATH];
	char shown[64]; /* its name, else its path shortened (cg_display_name); raw */
	uint64_t cgid;
	/* the file's value when prepared (bytes; ACT_MAX: max) and the amount asked for */
	uint64_t now, bytes;
	const char *file; /* the file written, once prepared (act_file) */
	int nprocs;	  /* AO_CG_KILL: its processes when prepared */
	bool whole;	  /* AO_CG_KILL: by cgroup.kill (its subtree with it) */
	bool undo;	  /* a limit set back to what it was (the log's undo) */
};

/* The hierarchy the actions write: that of the cgroups read (cgroup_files.h) */
struct act_where {
	int version; /* 1, 2; 0: none */
	char mount[ACT_PATH];
	char root[ACT_PATH];
};

#define ACT_LOG_MAX  64
#define ACT_LINE_MAX 240

/* What was done, newest last; and the last limit change, which can be undone */
struct act_log {
	struct {
		double wall;
		char text[ACT_LINE_MAX]; /* raw: names untrusted */
	} e[ACT_LOG_MAX];
	size_t n; /* entries ever logged (the last ACT_LOG_MAX kept) */
	/* the last limit changed: op, path, cgid and its value before (bytes); undo_seq its
	 * entry's number (1 up), 0: none */
	struct act_req last;
	size_t undo_seq;
};

/* The hierarchy of the cgroups memtop reads (where none: version 0) */
void act_where_find(struct act_where *w);

/* Before its prompt: whether r can be done here (root, the kernel's file, the process
 * still there), with what the prompt shows (r->now, r->adj_now, r->nprocs, and r->hold
 * taken). Returns 0, or -1 with one line in why (r->hold then closed). */
int act_prepare(const struct act_where *w, struct act_req *r, char *why, size_t size);
/* Carries r out (confirmed): one line of what happened in line, logged where something
 * changed (at wall, seconds since 1970); r->hold is closed */
void act_do(const struct act_where *w, struct act_req *r, struct act_log *log, double wall,
	    char *line, size_t size);

/* An amount as a prompt shows it: "300M", "max" */
void act_amount(uint64_t bytes, char *buf, size_t size);
/* The file op writes in a hierarchy of version: "memory.high", "memory.limit_in_bytes" */
const char *act_file(enum act_op op, int version);

/* The process part (act_proc.c): the oom_score_adj of the process r holds, read or
 * written through its /proc directory after its start time was checked; -1 with errno
 * (ESRCH: it exited or its pid is another's) */
int act_proc_adj_read(const struct act_req *r, int *adj);
int act_proc_adj_write(const struct act_req *r, int adj);
/* SIGKILL to each process of the cgroup at path (hierarchy version), each through a
 * pidfd taken and then checked to be in it; returns how many were sent it, -1 with
 * errno where cgroup.procs cannot be read */
int act_proc_kill_each(const char *procs_file, int version, const char *path);

#endif
