/* The recording's blocks (doc/recordings.md): after the file's header, one self-delimiting,
 * checksummed block a sample, its header then a zstd frame of the sample's encoded fields
 * (reccodec.h); and the walk over a file's blocks that passes damage over to the next
 * keyframe, for the replay and for the recorder appending to a file. */
#ifndef MEMTOP_RECBLOCK_H
#define MEMTOP_RECBLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REC_BLOCK_MAGIC 0x4b42544du /* "MTBK", little-endian */
#define REC_BLOCK_HDR	28	    /* magic, clen, rlen, flags, wall (f64), crc32 */
#define REC_MAX_RAW	(64u << 20) /* a sample's encoded fields: at most 64 MiB */
#define REC_KEYFRAME	60	    /* a keyframe every this many samples */

enum rec_block_flag {
	REC_KEY = 1 << 0, /* a keyframe: encoded against nothing */
	REC_OOM = 1 << 1, /* the sample holds an OOM kill */
	/* a keyframe whose fields follow a copy of the file's header (varint its length, then
	 * its bytes): a damaged header is read from there (format version 2) */
	REC_HEAD = 1 << 2,
};

/* A block's header, as on disk (little-endian) */
struct rec_block {
	uint32_t clen;	/* the zstd frame's length */
	uint32_t rlen;	/* the encoded fields' length */
	uint32_t flags; /* enum rec_block_flag */
	double wall;	/* the sample's wall-clock time, to seek without decoding */
	uint32_t crc;	/* crc32 of the header's first 24 bytes and the frame */
};

void rec_block_put(uint8_t *out, const struct rec_block *b);
/* false: not a block's header (its magic) */
bool rec_block_get(const uint8_t *in, struct rec_block *b);
uint32_t rec_block_crc(const uint8_t *hdr, const uint8_t *frame, size_t clen);

/* Walks the blocks of fd from offset off up to size, reading it through in large pieces,
 * as a replay reads them: block(arg, offset, header) for each one that holds together
 * (its frame whole and, where check is set, its checksum right; block returning non-zero
 * stops it). Damage (a wrong checksum, no block header where one should be, a length past
 * the end of the file with a keyframe after it) and the blocks after it up to the next
 * keyframe that holds together are passed over, which are encoded against it:
 * gap(arg, offset of the damage, what it is, offset of that keyframe, its header) for
 * each, -1 and NULL where none follows. Returns where the blocks that hold together end; *why NULL
 * at size, "cut short" (the last block begun, not ended: the recorder stopped mid-write) or
 * "damaged" (damage up to the end). Keyframes that do not hold together are checked for
 * at most twice the file's bytes: past that, the rest of the file is damage. */
long rec_walk(int fd, long off, long size, bool check,
	      int (*block)(void *arg, long off, const struct rec_block *b),
	      void (*gap)(void *arg, long at, const char *why, long resume,
			  const struct rec_block *key),
	      void *arg, const char **why);
/* The bytes the walks have read and checksummed so far: a walk reads a file of n bytes in
 * a few times n at most, whatever its damage */
uint64_t rec_walk_read(void);

#endif
