/* The recording's format (doc/recording.md): a versioned file header naming the fields
 * recorded, then one self-delimiting, checksummed block a sample, each a zstd frame of
 * the sample's fields, delta- and varint-encoded against the sample before it (a
 * keyframe against nothing). The fields come from the tables: the process columns whose
 * figure a source reads into proc_sample.v[] (columns.h), the cgroup columns' (cgcolumns.h)
 * and the snapshot's system fields (rec_sys_fields). */
#ifndef MEMTOP_RECFMT_H
#define MEMTOP_RECFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

#define REC_MAGIC	"MEMTOPRC" /* the file's first 8 bytes */
#define REC_VERSION	1
#define REC_BLOCK_MAGIC 0x4b42544du /* "MTBK", little-endian */
#define REC_BLOCK_HDR	28	    /* magic, clen, rlen, flags, wall (f64), crc32 */
#define REC_MAX_RAW	(64u << 20) /* a sample's encoded fields: at most 64 MiB */
#define REC_KEYFRAME	60	    /* a keyframe every this many samples */

enum rec_block_flag {
	REC_KEY = 1 << 0, /* a keyframe: encoded against nothing */
	REC_OOM = 1 << 1, /* the sample holds an OOM kill */
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
 * "damaged" (damage up to the end). */
long rec_walk(int fd, long off, long size, bool check,
	      int (*block)(void *arg, long off, const struct rec_block *b),
	      void (*gap)(void *arg, long at, const char *why, long resume,
			  const struct rec_block *key),
	      void *arg, const char **why);

/* A growing byte buffer */
struct rbuf {
	uint8_t *p;
	size_t n, cap;
};
void rb_bytes(struct rbuf *b, const void *p, size_t n);
void rb_varint(struct rbuf *b, uint64_t v);
void rb_svarint(struct rbuf *b, int64_t v); /* zigzag */
void rb_str(struct rbuf *b, const char *s); /* its length, then its bytes */

/* Reading one: past its end, or on a malformed varint, bad is set and values are 0 */
struct rcur {
	const uint8_t *p;
	size_t n, at;
	bool bad;
};
uint64_t rc_varint(struct rcur *c);
int64_t rc_svarint(struct rcur *c);
/* A string of at most max bytes into buf (size > max), NUL-terminated; its length */
size_t rc_str(struct rcur *c, char *buf, size_t size);
const uint8_t *rc_bytes(struct rcur *c, size_t n);

/* The snapshot's system fields, by name, as recorded */
enum rf_type {
	RF_U64 = 1,
	RF_I64,	 /* int, long */
	RF_U32,	 /* unsigned */
	RF_SIZE, /* size_t */
	RF_BOOL,
	RF_DBL,
	RF_HIST, /* struct mt_hist: count, total_us, the slots */
	RF_CHARS /* a char array, NUL-terminated */
};
struct rec_field {
	const char *name;
	size_t off; /* in struct snapshot */
	enum rf_type type;
	size_t size; /* in the snapshot */
};
extern const struct rec_field rec_sys_fields[];
extern const size_t rec_nsys_fields;

/* Whether process column c's figure is recorded: every one a source reads into
 * proc_sample.v[] (a sample or a counter), not those computed from them */
bool rec_column_recorded(int c);
unsigned rec_columns_recorded(void); /* the same, as a set (COL_BIT) */
bool rec_cgcolumn_recorded(int c);

/* The header: the columns (each column's bit in the masks recorded, and whether its
 * figure is) and the fields recorded (names, so a reader maps them onto its own tables
 * and skips those it does not know), and the recorder's process columns */
struct rec_schema {
	unsigned cols; /* the recorder's columns (COL_BIT) */
	int nproc, ncg, nsys;
	/* the file's process column i (in the order of its writer's table) is this column of
	 * the reader's, -1: none; its figure is in the file (rec_column_recorded) */
	int proc[32];
	bool proc_rec[32];
	int cg[32];
	bool cg_rec[32];
	int sys[256]; /* an index into rec_sys_fields, -1: none */
	uint8_t sys_type[256];
};
/* The header for this memtop's tables */
void rec_header_put(struct rbuf *b, unsigned cols);
/* Parses a header from in (its first n bytes); returns its length, 0 when more bytes
 * are needed, -1 with a one-line reason in err */
long rec_header_get(const uint8_t *in, size_t n, struct rec_schema *s, char *err, size_t errlen);
/* This memtop's own schema, as the writer encodes */
void rec_schema_own(struct rec_schema *s, unsigned cols);

#endif
