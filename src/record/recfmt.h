/* The recording's format (doc/recordings.md): a versioned file header naming the fields
 * recorded, then one self-delimiting, checksummed block a sample (recblock.h), each a zstd
 * frame of the sample's fields, delta- and varint-encoded against the sample before it (a
 * keyframe against nothing; reccodec.h). This file is the schema: the fields recorded
 * come from the tables, the process columns whose figure a source reads into
 * proc_sample.fig[] (columns.h), the cgroup columns' (cgcolumns.h) and the snapshot's
 * system fields (rec_sys_fields, the rows of src/figures/recfields.def), and the header
 * names them. */
#ifndef MEMTOP_RECFMT_H
#define MEMTOP_RECFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytebuf.h"
#include "recblock.h"
#include "snapshot.h"

#define REC_MAGIC "MEMTOPRC" /* the file's first 8 bytes */
/* 2: every keyframe holds a copy of the header (REC_HEAD); 1, without, is read too */
#define REC_VERSION 2

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
	/* in the snapshot; 0 (RF_CHARS): a part of the sample coded on its own, the limited
	 * cgroups' processes (rectasks.c), recorded as a char array's bytes so that a reader
	 * that does not know the part skips it */
	size_t size;
};
extern const struct rec_field rec_sys_fields[];
extern const size_t rec_nsys_fields;
/* An integer field of s (RF_U64, RF_I64, RF_U32, RF_SIZE, RF_BOOL), sign-extended where
 * signed; and set */
uint64_t rec_field_get(const struct snapshot *s, const struct rec_field *f);
void rec_field_set(struct snapshot *s, const struct rec_field *f, uint64_t v);

/* Whether process column c's figure is recorded: every one a source reads into
 * proc_sample.fig[] (a sample or a counter), not those computed from them */
bool rec_column_recorded(int c);
unsigned rec_columns_recorded(void); /* the same, as a set (COL_BIT) */
bool rec_cgcolumn_recorded(int c);

/* The header: the columns (each column's bit in the masks recorded, and whether its
 * figure is) and the fields recorded (names, so a reader maps them onto its own tables
 * and skips those it does not know), and the recorder's process columns */
struct rec_schema {
	unsigned cols; /* the recorder's columns (COL_BIT, as this memtop numbers them) */
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
/* A mask of columns as the file numbers them (bit i: the file's column i), as this memtop
 * numbers them (map: the file's column i is this memtop's map[i], -1: none) */
unsigned rec_map_mask(uint64_t m, const int *map, int n);
/* The header for this memtop's tables */
void rec_header_put(struct rbuf *b, unsigned cols);
/* Parses a header from in (its first n bytes); returns its length, 0 when more bytes
 * are needed, -1 with a one-line reason in err */
long rec_header_get(const uint8_t *in, size_t n, struct rec_schema *s, char *err, size_t errlen);
/* A REC_HEAD keyframe's fields (raw, n bytes): the header's copy in *hdr (*hlen bytes);
 * returns the bytes before the sample's fields, -1 where they do not hold together */
long rec_head_copy(const uint8_t *raw, size_t n, const uint8_t **hdr, size_t *hlen);
/* This memtop's own schema, as the writer encodes */
void rec_schema_own(struct rec_schema *s, unsigned cols);

#endif
