/* The recording's schema (recfmt.h): the system fields recorded, the columns whose figures
 * are, and the file's header that names them all for a reader. */
#include "recfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cgcolumns.h"
#include "columns.h"

/* The rows of recfields.def */
#define REC(name, field, type)                                                                     \
	{name, offsetof(struct snapshot, field), RF_##type, sizeof(((struct snapshot *)0)->field)},
#define REC_PART(name) {name, 0, RF_CHARS, 0},
_Static_assert(MT_MAX_NODES == 8, "a REC_NODE row in recfields.def per node the snapshot holds");
_Static_assert(MT_BPF_CONCERNS == 8,
	       "a REC_CONCERN row in recfields.def per concern the snapshot holds");
const struct rec_field rec_sys_fields[] = {
#include "recfields.def"
};
const size_t rec_nsys_fields = sizeof(rec_sys_fields) / sizeof(rec_sys_fields[0]);

bool rec_column_recorded(int c)
{
	return pv_of[c] >= 0; /* the figures a sample keeps */
}

unsigned rec_columns_recorded(void)
{
	static unsigned set, done;
	if (!done) {
		for (int c = 0; c < COL_COUNT; c++)
			set |= rec_column_recorded(c) ? COL_BIT(c) : 0;
		done = 1;
	}
	return set;
}

bool rec_cgcolumn_recorded(int c)
{
	return cg_columns[c].kind == KIND_SAMPLE || cg_columns[c].kind == KIND_RATE;
}

unsigned rec_map_mask(uint64_t m, const int *map, int n)
{
	unsigned out = 0;
	for (int i = 0; i < n; i++)
		if ((m >> i & 1) && map[i] >= 0)
			out |= 1u << map[i];
	return out;
}

void rec_header_put(struct rbuf *b, unsigned cols)
{
	struct rbuf body = {0};
	uint8_t v[8];

	rb_varint(&body, cols);
	rb_varint(&body, COL_COUNT);
	for (int c = 0; c < COL_COUNT; c++) {
		rb_str(&body, columns[c].name);
		rb_varint(&body, rec_column_recorded(c));
	}
	rb_varint(&body, CGCOL_COUNT);
	for (int c = 0; c < CGCOL_COUNT; c++) {
		rb_str(&body, cg_columns[c].name);
		rb_varint(&body, rec_cgcolumn_recorded(c));
	}
	rb_varint(&body, rec_nsys_fields);
	for (size_t f = 0; f < rec_nsys_fields; f++) {
		rb_str(&body, rec_sys_fields[f].name);
		rb_varint(&body, rec_sys_fields[f].type);
	}
	rb_bytes(b, REC_MAGIC, 8);
	put_le32(v, REC_VERSION);
	put_le32(v + 4, (uint32_t)body.n);
	rb_bytes(b, v, 8);
	size_t start = b->n - 16;
	rb_bytes(b, body.p, body.n);
	put_le32(v, (uint32_t)crc32(0, b->p + start, (uInt)(16 + body.n)));
	rb_bytes(b, v, 4);
	free(body.p);
}

long rec_head_copy(const uint8_t *raw, size_t n, const uint8_t **hdr, size_t *hlen)
{
	struct rcur c = {raw, n, 0, false};
	uint64_t len = rc_varint(&c);

	*hdr = len <= n ? rc_bytes(&c, (size_t)len) : NULL;
	*hlen = (size_t)len;
	return c.bad || !*hdr ? -1 : (long)c.at;
}

void rec_schema_own(struct rec_schema *s, unsigned cols)
{
	memset(s, 0, sizeof(*s));
	s->cols = cols;
	for (int c = 0; c < COL_COUNT; c++) {
		s->proc_rec[s->nproc] = rec_column_recorded(c);
		s->proc[s->nproc++] = c;
	}
	for (int c = 0; c < CGCOL_COUNT; c++) {
		s->cg_rec[s->ncg] = rec_cgcolumn_recorded(c);
		s->cg[s->ncg++] = c;
	}
	for (size_t f = 0; f < rec_nsys_fields; f++) {
		s->sys_type[s->nsys] = (uint8_t)rec_sys_fields[f].type;
		s->sys[s->nsys++] = (int)f;
	}
}

static int sys_by_name(const char *name, unsigned type)
{
	for (size_t f = 0; f < rec_nsys_fields; f++)
		if (!strcmp(rec_sys_fields[f].name, name) && rec_sys_fields[f].type == type)
			return (int)f;
	return -1;
}

long rec_header_get(const uint8_t *in, size_t n, struct rec_schema *s, char *err, size_t errlen)
{
	char name[64];

	if (n < 16)
		return 0;
	if (memcmp(in, REC_MAGIC, 8)) {
		snprintf(err, errlen, "not a memtop recording (no MEMTOPRC header at offset 0)");
		return -1;
	}
	uint32_t version = get_le32(in + 8), len = get_le32(in + 12);
	if (version > REC_VERSION) {
		snprintf(err, errlen,
			 "recording format version %u is newer than this memtop reads (%d); "
			 "replay it with a newer memtop",
			 version, REC_VERSION);
		return -1;
	}
	if (version == 0 || len > 65536) {
		snprintf(err, errlen, "damaged header at offset 8 (version %u, length %u)", version,
			 len);
		return -1;
	}
	if (n < 20 + (size_t)len)
		return 0;
	if (get_le32(in + 16 + len) != (uint32_t)crc32(0, in, 16 + len)) {
		snprintf(err, errlen, "damaged header at offset 0 (checksum)");
		return -1;
	}
	struct rcur c = {in + 16, len, 0, false};
	memset(s, 0, sizeof(*s));
	uint64_t cols = rc_varint(&c);
	uint64_t np = rc_varint(&c);
	for (uint64_t i = 0; i < np && i < 32; i++) {
		rc_str(&c, name, sizeof(name));
		s->proc_rec[s->nproc] = rc_varint(&c) != 0;
		s->proc[s->nproc++] = column_by_name(name);
	}
	s->cols = rec_map_mask(cols, s->proc, s->nproc);
	uint64_t ncg = rc_varint(&c);
	for (uint64_t i = 0; i < ncg && i < 32; i++) {
		rc_str(&c, name, sizeof(name));
		s->cg_rec[s->ncg] = rc_varint(&c) != 0;
		s->cg[s->ncg++] = table_col_by_name(cg_columns, CGCOL_COUNT, name);
	}
	uint64_t ns = rc_varint(&c);
	for (uint64_t i = 0; i < ns && i < 256; i++) {
		rc_str(&c, name, sizeof(name));
		uint64_t type = rc_varint(&c);
		s->sys_type[s->nsys] = (uint8_t)type;
		s->sys[s->nsys++] = sys_by_name(name, (unsigned)type);
		if (type < RF_U64 || type > RF_CHARS)
			c.bad = true;
	}
	if (c.bad || np > 32 || ncg > 32 || ns > 256 || c.at != c.n) {
		snprintf(err, errlen, "damaged header at offset 16 (its field list)");
		return -1;
	}
	return 20 + (long)len;
}

/* An integer field of the snapshot, sign-extended where signed */
uint64_t rec_field_get(const struct snapshot *s, const struct rec_field *f)
{
	const char *p = (const char *)s + f->off;
	if (f->size == 1)
		return *(const uint8_t *)p;
	if (f->size == 4) {
		uint32_t v;
		memcpy(&v, p, 4);
		return f->type == RF_I64 ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

void rec_field_set(struct snapshot *s, const struct rec_field *f, uint64_t v)
{
	char *p = (char *)s + f->off;
	if (f->size == 1)
		*(uint8_t *)p = f->type == RF_BOOL ? v != 0 : (uint8_t)v;
	else if (f->size == 4) {
		uint32_t w = (uint32_t)v;
		memcpy(p, &w, 4);
	} else
		memcpy(p, &v, 8);
}
