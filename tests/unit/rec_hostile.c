/* Hostile recordings (rec_hostile.h): the file's header, then blocks of fields encoded by
 * rec_encode, or laid out by hand where the encoder would never write them. */
#include "rec_hostile.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "columns.h"
#include "reccodec.h"
#include "recfmt.h"

const char *const rec_hostile_names[RH_COUNT] = {"nocmd",  "procs", "cgroups",
						 "events", "tasks", "lookalikes"};

#define WALL 1.7e9

/* A block of the encoded fields raw[0..n) */
static void block(struct rbuf *b, const uint8_t *raw, size_t n, uint32_t flags, double wall)
{
	size_t bound = ZSTD_compressBound(n);
	uint8_t *out = malloc(REC_BLOCK_HDR + bound);
	size_t c = ZSTD_compress(out + REC_BLOCK_HDR, bound, raw, n, 3);
	struct rec_block h = {
		.clen = (uint32_t)c, .rlen = (uint32_t)n, .flags = flags, .wall = wall};
	rec_block_put(out, &h);
	h.crc = rec_block_crc(out, out + REC_BLOCK_HDR, c);
	rec_block_put(out, &h);
	rb_bytes(b, out, REC_BLOCK_HDR + c);
	free(out);
}

/* The fields of a sample without processes, cgroups or events, up to its process count:
 * what a hand-made sample starts with. The last system fields are the cgroups' processes
 * and their names, then memtop's own cgroup: none of each, the last three bytes before
 * the counts. */
static void empty_head(struct rbuf *raw)
{
	struct rec_state st;
	struct snapshot s;

	rec_state_init(&st);
	snapshot_init(&s);
	s.wall = WALL;
	rec_encode(&st, &s, true, raw);
	raw->n -= 3; /* the counts of processes, cgroups and events: none */
	snapshot_free(&s);
	rec_state_free(&st);
}

/* A keyframe of the encoder's whose one process has no command line nor user (coded as
 * none), then a hand-made one whose process's flags leave them out (0x37) */
static void no_cmd(struct rbuf *b)
{
	struct rbuf raw = {0};
	struct rec_state st;
	struct snapshot s;

	rec_state_init(&st);
	snapshot_init(&s);
	s.wall = WALL;
	struct proc_sample *p = snapshot_add_proc(&s);
	p->pid = 1234;
	p->uid = 4321;
	p->start_ticks = 99;
	strcpy(p->comm, "nocmd");
	p->valid = COL_BIT(COL_PID) | COL_BIT(COL_RSS);
	p->fig[PV_RSS] = 1000;
	rec_encode(&st, &s, true, &raw);
	block(b, raw.p, raw.n, REC_KEY, WALL);
	snapshot_free(&s);
	rec_state_free(&st);

	raw.n = 0;
	empty_head(&raw);
	rb_varint(&raw, 1);    /* a process */
	rb_svarint(&raw, 77);  /* its pid */
	rb_varint(&raw, 0x37); /* new, ids, comm, user, cgroup: no command line, no masks */
	rb_varint(&raw, 5);    /* its start */
	rb_svarint(&raw, 1);   /* ppid, uid, kthread, memcg_id, cgroup2_id */
	for (int i = 0; i < 4; i++)
		rb_varint(&raw, 0);
	rb_str(&raw, "flags37");
	rb_varint(&raw, 1); /* no user */
	rb_varint(&raw, 1); /* no cgroup */
	rb_varint(&raw, 0); /* cgroups */
	rb_varint(&raw, 0); /* events */
	block(b, raw.p, raw.n, REC_KEY, WALL + 1);
	free(raw.p);
}

/* A keyframe claiming n of a part, each the bytes one[0..len) */
static void many(struct rbuf *b, int part, const uint8_t *one, size_t len)
{
	struct rbuf raw = {0};
	const uint64_t n = 1000000;

	empty_head(&raw);
	for (int k = 0; k < 3; k++) {
		rb_varint(&raw, k == part ? n : 0);
		for (uint64_t i = 0; k == part && i < n; i++)
			rb_bytes(&raw, one, len);
	}
	block(b, raw.p, raw.n, REC_KEY, WALL);
	free(raw.p);
}

/* A keyframe of one cgroup whose processes claim 2,000,000, each a pid 1 above the one
 * before and an oom_score_adj of 0 */
static void tasks(struct rbuf *b)
{
	struct rbuf raw = {0}, list = {0};
	const uint64_t n = 2000000;
	static const uint8_t cgroup[] = {0, 1, 0, 0, 1, 0, 0, 0};

	empty_head(&raw);
	raw.n -= 3; /* no processes of cgroups, no names, memtop's own cgroup none */
	rb_varint(&list, 1);
	rb_varint(&list, n << 1);
	for (uint64_t i = 0; i < n; i++)
		rb_bytes(&list, (const uint8_t[]){2, 0}, 2);
	rb_varint(&raw, list.n + 1);
	rb_bytes(&raw, list.p, list.n);
	rb_varint(&raw, 0); /* the cgroups' names: none */
	rb_varint(&raw, 1); /* memtop's own cgroup: none */
	rb_varint(&raw, 0); /* processes */
	rb_varint(&raw, 1); /* a cgroup */
	rb_bytes(&raw, cgroup, sizeof(cgroup));
	rb_varint(&raw, 0); /* events */
	block(b, raw.p, raw.n, REC_KEY, WALL);
	free(list.p);
	free(raw.p);
}

static void lookalikes(struct rbuf *b)
{
	struct rbuf raw = {0};
	const size_t span = (1u << 20) / REC_BLOCK_HDR * REC_BLOCK_HDR; /* to the end */

	empty_head(&raw);
	rb_bytes(&raw, (const uint8_t[]){0, 0, 0}, 3);
	block(b, raw.p, raw.n, REC_KEY, WALL);
	rb_bytes(b, "!", 1);
	size_t end = b->n + span;
	while (b->n + REC_BLOCK_HDR <= end) {
		uint8_t h[REC_BLOCK_HDR];
		struct rec_block k = {.clen = (uint32_t)(end - b->n - REC_BLOCK_HDR),
				      .rlen = 100,
				      .flags = REC_KEY,
				      .wall = WALL + 1};
		rec_block_put(h, &k);
		rb_bytes(b, h, sizeof(h));
	}
	free(raw.p);
}

void rec_hostile(enum rec_hostile h, struct rbuf *b)
{
	/* a process: pid + 1, new, started at 0; a cgroup: new, id 1, path "", depth 0, no
	 * parent, nothing valid; an OOM kill: its 14 fields, the first its type */
	static const uint8_t proc[] = {2, 1, 0}, cgroup[] = {0, 1, 0, 0, 1, 0, 0, 0},
			     event[14] = {MT_EV_OOM_KILL};

	b->n = 0;
	rec_header_put(b, columns_default());
	switch (h) {
	case RH_NO_CMD:
		no_cmd(b);
		break;
	case RH_PROCS:
		many(b, 0, proc, sizeof(proc));
		break;
	case RH_CGROUPS:
		many(b, 1, cgroup, sizeof(cgroup));
		break;
	case RH_EVENTS:
		many(b, 2, event, sizeof(event));
		break;
	case RH_TASKS:
		tasks(b);
		break;
	case RH_LOOKALIKES:
	case RH_COUNT:
		lookalikes(b);
		break;
	}
}
