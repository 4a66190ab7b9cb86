/* A sample's fields encoded against the sample before it (recfmt.h): the state both the
 * writer and the reader keep, the previous sample (recstate.c), the encoder (recencode.c)
 * and the decoder (recdecode.c). */
#ifndef MEMTOP_RECCODEC_H
#define MEMTOP_RECCODEC_H

#include "recfmt.h"

/* The most a sample holds, beside what its encoded bytes can hold (each process, cgroup
 * and event takes a few bytes at least): a recording claiming more is damaged, so that a
 * small file cannot make its replay take more memory than such a sample would live */
#define REC_MAX_PROCS	(1u << 18) /* 262,144 processes */
#define REC_MAX_CGROUPS (1u << 16) /* 65,536 cgroups */
#define REC_MAX_EVENTS	4096	   /* OOM kills */
/* the processes of the limited cgroups: each once for every limited cgroup it is in or
 * below; a sample holding more records none */
#define REC_MAX_CG_TASKS (1u << 20)

struct rec_proc {
	struct proc_sample p; /* p.cmd, p.user and p.cgroup point at the copies below */
	char *cmd, *user, *cgroup;
	uint32_t fvalid, ftried; /* the reader's: p.valid and p.tried as the file numbers them */
};

struct rec_state {
	bool have;	     /* a previous sample: deltas go against it */
	struct snapshot sys; /* its system fields (procs and cgroups unused) */
	char *cg_self_path;
	struct rec_proc *procs; /* in pid order */
	size_t nprocs, cap;
	/* paths owned; the reader's hold in valid the columns as the file numbers them */
	struct cg_sample *cgs;
	size_t ncgs, cgcap;
	/* strings the last two decoded snapshots may still point at, freed after */
	char **dead;
	uint64_t *dead_gen;
	size_t ndead, deadcap;
	uint64_t gen;
	struct rec_proc *tmp; /* room for the next sample's processes */
	size_t tmpcap;
	/* the parts coded on their own, as coded (REC_PARTS, reccodec_impl.h); none: empty */
	struct rbuf parts[2];
};

void rec_state_init(struct rec_state *st);
void rec_state_free(struct rec_state *st);
/* Forgets the previous sample: the next is a keyframe */
void rec_state_reset(struct rec_state *st);

/* Appends the fields of s, against the previous sample unless key, to out; s becomes the
 * previous sample */
void rec_encode(struct rec_state *st, const struct snapshot *s, bool key, struct rbuf *out);

/* Decodes a sample encoded with schema sc into s (cleared, as model_begin gives it): its
 * strings stay valid for two more samples. Returns 0, or -1 with the reason in err. */
int rec_decode(struct rec_state *st, const struct rec_schema *sc, const uint8_t *in, size_t n,
	       bool key, struct snapshot *s, char *err, size_t errlen);

#endif
