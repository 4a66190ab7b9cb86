/* libFuzzer harness for memtop's recordings: each input is replayed as a file (every
 * sample read, each process checked to have what the views show: a command line and a
 * user), then again with every block's checksum made right, so that changes reach the
 * zstd frames and the decoder; and the input is decoded as a sample's fields, as a
 * keyframe and as a change against it. Seeded with real recordings and hostile ones
 * (make fuzz). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reccodec.h"
#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the views take for granted of a replayed sample */
static void check(const struct snapshot *s)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (!s->procs[i].cmd || !s->procs[i].user)
			__builtin_trap();
	if (s->nprocs > REC_MAX_PROCS || s->ncgroups > REC_MAX_CGROUPS ||
	    s->nevents > REC_MAX_EVENTS || s->ncg_tasks > REC_MAX_CG_TASKS)
		__builtin_trap();
	/* the forecast reads each cgroup's processes from the snapshot's */
	for (size_t i = 0; i < s->ncgroups; i++)
		if ((size_t)s->cgroups[i].task0 + s->cgroups[i].ntasks > s->ncg_tasks)
			__builtin_trap();
}

/* The bytes as a file, opened and every sample read */
static void replay_bytes(const uint8_t *data, size_t len)
{
	char path[64], err[512];
	struct snapshot s;
	int fd = memfd_create("recording", 0);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		if (fd >= 0)
			close(fd);
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct replay *rp = replay_open(path, err, sizeof(err));
	snapshot_init(&s);
	for (size_t i = 0; rp && i < replay_count(rp); i++) {
		if (replay_read(rp, i, &s, err, sizeof(err)))
			break;
		check(&s);
	}
	snapshot_free(&s);
	replay_close(rp);
	close(fd);
}

/* Every block's checksum made right in p[0..n), from the header on */
static void fix_checksums(uint8_t *p, size_t n)
{
	struct rec_schema sc;
	struct rec_block b;
	char why[200];
	long at = rec_header_get(p, n, &sc, why, sizeof(why));

	while (at > 0 && (size_t)at + REC_BLOCK_HDR <= n && rec_block_get(p + at, &b) &&
	       b.clen <= n - (size_t)at - REC_BLOCK_HDR) {
		b.crc = rec_block_crc(p + at, p + at + REC_BLOCK_HDR, b.clen);
		rec_block_put(p + at, &b);
		at += REC_BLOCK_HDR + (long)b.clen;
	}
}

/* A sample's fields, as a keyframe, then again as a change against it */
static void decode_sample(const uint8_t *data, size_t len)
{
	struct rec_schema sc;
	struct rec_state st;
	struct snapshot s;
	char err[256];

	rec_schema_own(&sc, 0);
	rec_state_init(&st);
	snapshot_init(&s);
	if (!rec_decode(&st, &sc, data, len, true, &s, err, sizeof(err))) {
		check(&s);
		snapshot_reuse(&s);
		if (!rec_decode(&st, &sc, data, len, false, &s, err, sizeof(err)))
			check(&s);
	}
	snapshot_free(&s);
	rec_state_free(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	replay_bytes(data, size);
	memcpy(copy, data, size);
	fix_checksums(copy, size);
	if (memcmp(copy, data, size))
		replay_bytes(copy, size);
	free(copy);
	decode_sample(data, size);
	return 0;
}
