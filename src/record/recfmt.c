#include "recfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cgcolumns.h"
#include "columns.h"
#include "util.h"

static void put32(uint8_t *o, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		o[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *in)
{
	return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 |
	       (uint32_t)in[3] << 24;
}

void rec_block_put(uint8_t *out, const struct rec_block *b)
{
	uint64_t bits;
	memcpy(&bits, &b->wall, 8);
	put32(out, REC_BLOCK_MAGIC);
	put32(out + 4, b->clen);
	put32(out + 8, b->rlen);
	put32(out + 12, b->flags);
	put32(out + 16, (uint32_t)bits);
	put32(out + 20, (uint32_t)(bits >> 32));
	put32(out + 24, b->crc);
}

bool rec_block_get(const uint8_t *in, struct rec_block *b)
{
	if (get32(in) != REC_BLOCK_MAGIC)
		return false;
	uint64_t bits = get32(in + 16) | (uint64_t)get32(in + 20) << 32;
	b->clen = get32(in + 4);
	b->rlen = get32(in + 8);
	b->flags = get32(in + 12);
	memcpy(&b->wall, &bits, 8);
	b->crc = get32(in + 24);
	return true;
}

uint32_t rec_block_crc(const uint8_t *hdr, const uint8_t *frame, size_t clen)
{
	uLong c = crc32(0, hdr, 24);
	return (uint32_t)crc32(c, frame, (uInt)clen);
}

/* A window on a file read in large pieces: a walk of its blocks reads it through once */
struct window {
	int fd;
	uint8_t *p;
	size_t cap, n;
	long at;
};

#define WINDOW_READ (1 << 20)

/* The bytes [off, off + len) of the file, NULL where it has fewer; valid until the next
 * call */
static const uint8_t *window_get(struct window *w, long off, size_t len)
{
	if (off >= w->at && off + (long)len <= w->at + (long)w->n)
		return w->p + (off - w->at);
	size_t want = len > WINDOW_READ ? len : WINDOW_READ;
	if (want > w->cap) {
		w->cap = want;
		w->p = xrealloc(w->p, w->cap);
	}
	ssize_t n = pread(w->fd, w->p, want, off);
	w->at = off;
	w->n = n < 0 ? 0 : (size_t)n;
	return w->n >= len ? w->p : NULL;
}

/* Walks the blocks of fd from offset off up to size: fn(arg, offset, header, frame) for
 * each one whose frame is whole (frame: its bytes where frames is set, else NULL; not
 * checked against the checksum); fn returning non-zero stops it. Returns the offset where
 * it stopped; *why NULL at size, else what is there: "cut short" (a block begun, not
 * ended) or "damaged" (no block header). */
static long scan(int fd, long off, long size, bool frames,
		 int (*fn)(void *arg, long off, const struct rec_block *b, const uint8_t *frame),
		 void *arg, const char **why)
{
	struct window w = {.fd = fd, .at = -1};
	const uint8_t *h, *frame = NULL;
	struct rec_block b;

	*why = NULL;
	while (off < size) {
		if (size - off < REC_BLOCK_HDR) {
			size_t k = size - off < 4 ? (size_t)(size - off) : 4;
			h = window_get(&w, off, k);
			*why = h && !memcmp(h, "MTBK", k) ? "cut short" : "damaged";
			break;
		}
		h = window_get(&w, off, REC_BLOCK_HDR);
		if (!h || !rec_block_get(h, &b) || b.rlen > REC_MAX_RAW || b.clen > REC_MAX_RAW) {
			*why = "damaged";
			break;
		}
		if ((long)b.clen > size - off - REC_BLOCK_HDR) {
			*why = "cut short";
			break;
		}
		if (frames && !(frame = window_get(&w, off + REC_BLOCK_HDR, b.clen))) {
			*why = "damaged"; /* it cannot be read */
			break;
		}
		if (fn && fn(arg, off, &b, frame))
			break;
		off += REC_BLOCK_HDR + (long)b.clen;
	}
	free(w.p);
	return off;
}

/* Whether a block's header and frame hold together with its checksum */
static bool block_ok(const struct rec_block *b, const uint8_t *frame)
{
	uint8_t hdr[REC_BLOCK_HDR];

	rec_block_put(hdr, b);
	return rec_block_crc(hdr, frame, b->clen) == b->crc;
}

/* The first keyframe after offset off (up to size) that holds together: where a walk
 * goes on past damage; -1 where there is none */
static long resync(int fd, long off, long size)
{
	uint8_t chunk[65536], hdr[REC_BLOCK_HDR], *frame = NULL;
	struct rec_block b;
	long found = -1;

	/* chunks overlapping by 3 bytes, so that a magic across two is seen */
	for (long at = off + 1; found < 0 && at + REC_BLOCK_HDR <= size; at += sizeof(chunk) - 3) {
		ssize_t n = pread(fd, chunk, sizeof(chunk), at);
		if (n < 4)
			break;
		for (ssize_t i = 0; i + 4 <= n && found < 0; i++) {
			if (memcmp(chunk + i, "MTBK", 4))
				continue;
			long o = at + i;
			if (pread(fd, hdr, sizeof(hdr), o) != (ssize_t)sizeof(hdr) ||
			    !rec_block_get(hdr, &b) || !(b.flags & REC_KEY) ||
			    b.clen > REC_MAX_RAW || (long)b.clen > size - o - REC_BLOCK_HDR)
				continue;
			frame = xrealloc(frame, b.clen + 1);
			if (pread(fd, frame, b.clen, o + REC_BLOCK_HDR) == (ssize_t)b.clen &&
			    block_ok(&b, frame))
				found = o;
		}
	}
	free(frame);
	return found;
}

/* A walk's state: damage found and not yet passed (bad >= 0), what it is */
struct walk {
	bool check;
	int (*block)(void *arg, long off, const struct rec_block *b);
	void (*gap)(void *arg, long at, const char *why, long resume, const struct rec_block *key);
	void *arg;
	long bad;
	const char *why;
};

static void damage(struct walk *w, long at, const char *why)
{
	if (w->bad < 0) {
		w->bad = at;
		w->why = why;
	}
}

static int walk_block(void *arg, long off, const struct rec_block *b, const uint8_t *frame)
{
	struct walk *w = arg;

	if (w->check && !block_ok(b, frame)) {
		damage(w, off, "checksum mismatch");
		return 0;
	}
	if (w->bad >= 0) {
		if (!(b->flags & REC_KEY))
			return 0; /* encoded against a sample left out */
		if (w->gap)
			w->gap(w->arg, w->bad, w->why, off, b);
		w->bad = -1;
	}
	return w->block ? w->block(w->arg, off, b) : 0;
}

long rec_walk(int fd, long off, long size, bool check,
	      int (*block)(void *arg, long off, const struct rec_block *b),
	      void (*gap)(void *arg, long at, const char *why, long resume,
			  const struct rec_block *key),
	      void *arg, const char **why)
{
	struct walk w = {.check = check, .block = block, .gap = gap, .arg = arg, .bad = -1};

	for (;;) {
		long end = scan(fd, off, size, check, walk_block, &w, why);
		bool damaged = *why && !strcmp(*why, "damaged");
		/* a block cut short with a keyframe after it: its length is what is damaged */
		long next = *why ? resync(fd, end, size) : -1;
		if (damaged || next >= 0)
			damage(&w, end,
			       damaged ? "no block header there"
				       : "its length runs past the end of the file");
		if (next >= 0) {
			off = next; /* walk_block says the gap at the keyframe */
			continue;
		}
		if (w.bad >= 0) {
			if (gap)
				gap(arg, w.bad, w.why, -1, NULL);
			*why = "damaged";
		}
		return end;
	}
}

void rb_bytes(struct rbuf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 256;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

void rb_varint(struct rbuf *b, uint64_t v)
{
	if (b->n + 10 > b->cap) {
		b->cap = b->cap * 2 + 256;
		b->p = xrealloc(b->p, b->cap);
	}
	uint8_t *o = b->p + b->n;
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*o++ = (uint8_t)v;
	b->n = (size_t)(o - b->p);
}

void rb_svarint(struct rbuf *b, int64_t v)
{
	rb_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void rb_str(struct rbuf *b, const char *s)
{
	size_t n = strlen(s);
	rb_varint(b, n);
	rb_bytes(b, s, n);
}

uint64_t rc_varint(struct rcur *c)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (c->bad || c->at >= c->n) {
			c->bad = true;
			return 0;
		}
		uint8_t byte = c->p[c->at++];
		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80))
			return v;
	}
	c->bad = true;
	return 0;
}

int64_t rc_svarint(struct rcur *c)
{
	uint64_t v = rc_varint(c);
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

const uint8_t *rc_bytes(struct rcur *c, size_t n)
{
	if (c->bad || n > c->n - c->at) {
		c->bad = true;
		return NULL;
	}
	c->at += n;
	return c->p + c->at - n;
}

size_t rc_str(struct rcur *c, char *buf, size_t size)
{
	uint64_t n = rc_varint(c);
	const uint8_t *p = n < size ? rc_bytes(c, n) : NULL;
	if (!p) {
		c->bad = true;
		buf[0] = '\0';
		return 0;
	}
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}

#define F(name, field, type)                                                                       \
	{                                                                                          \
		name, offsetof(struct snapshot, field), type,                                      \
			sizeof(((struct snapshot *)0)->field)                                      \
	}
#define S(name, field)                                                                             \
	{                                                                                          \
		name, offsetof(struct snapshot, field), RF_CHARS,                                  \
			sizeof(((struct snapshot *)0)->field)                                      \
	}
const struct rec_field rec_sys_fields[] = {
	F("mono", mono, RF_DBL),
	F("mono_procs", mono_procs, RF_DBL),
	F("wall", wall, RF_DBL),
	F("uptime", uptime, RF_DBL),
	F("hertz", hertz, RF_I64),
	F("page_kb", page_kb, RF_I64),
#define MEMINFO(id, key, name)		F("mem." #name, mem[MI_##id], RF_U64),
#define MEMINFO_FIG(id, key, name, ...) F("mem." #name, mem[MI_##id], RF_U64),
#include "sysfigs.def"
#define VMSTAT(id, key, name)	       F("vm." #name, vm[VS_##id], RF_U64),
#define VMSTAT_FIG(id, key, name, ...) F("vm." #name, vm[VS_##id], RF_U64),
#include "sysfigs.def"
	F("psi.present", psi.present, RF_BOOL),
	F("psi.some_avg10", psi.some_avg10, RF_DBL),
	F("psi.full_avg10", psi.full_avg10, RF_DBL),
	F("self.locked_kb", self.locked_kb, RF_U64),
	F("self.oom_score_adj", self.oom_score_adj, RF_I64),
	F("self.adj_lowered", self.adj_lowered, RF_BOOL),
	F("cost.cpu_s", cost.cpu_s, RF_DBL),
	F("cost.rss_kb", cost.rss_kb, RF_U64),
	F("cost.bpf_stats", cost.bpf_stats, RF_BOOL),
	F("cost.bpf_run_ns", cost.bpf_run_ns, RF_U64),
	F("ntasks", ntasks, RF_SIZE),
	F("procs_cg_ids", procs_cg_ids, RF_BOOL),
	F("bpf.enabled", bpf.enabled, RF_BOOL),
	S("bpf.reason", bpf.reason),
	F("bpf.programs", bpf.programs, RF_I64),
	F("bpf.ring_drops", bpf.ring_drops, RF_U64),
	F("bpf.oom_kills", bpf.oom_kills, RF_U64),
	F("bpf.have_oom", bpf.have_oom, RF_BOOL),
	F("bpf.have_reclaim", bpf.have_reclaim, RF_BOOL),
	F("bpf.have_swapin", bpf.have_swapin, RF_BOOL),
	S("bpf.swapin_mode", bpf.swapin_mode),
	F("bpf.reclaim.direct", bpf.reclaim.direct, RF_HIST),
	F("bpf.reclaim.memcg", bpf.reclaim.memcg, RF_HIST),
	F("bpf.reclaim.shrink_slab", bpf.reclaim.shrink_slab, RF_HIST),
	F("bpf.reclaim.nr_reclaimed", bpf.reclaim.nr_reclaimed, RF_U64),
	F("bpf.reclaim.kswapd_wakeups", bpf.reclaim.kswapd_wakeups, RF_U64),
	F("bpf.swapins", bpf.swapins, RF_U64),
	F("cg_version", cg_version, RF_I64),
	F("cg_cols", cg_cols, RF_U32),
	F("mono_cgroups", mono_cgroups, RF_DBL),
	F("cg_self.present", cg_self.present, RF_BOOL),
	F("cg_self.usage_kb", cg_self.usage_kb, RF_U64),
	F("cg_self.limit_kb", cg_self.limit_kb, RF_U64),
	F("cg_self.limited", cg_self.limited, RF_BOOL),
};
const size_t rec_nsys_fields = sizeof(rec_sys_fields) / sizeof(rec_sys_fields[0]);

bool rec_column_recorded(int c)
{
	return (columns[c].kind == KIND_SAMPLE && !columns[c].id) || columns[c].kind == KIND_RATE;
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
	put32(v, REC_VERSION);
	put32(v + 4, (uint32_t)body.n);
	rb_bytes(b, v, 8);
	size_t start = b->n - 16;
	rb_bytes(b, body.p, body.n);
	put32(v, (uint32_t)crc32(0, b->p + start, (uInt)(16 + body.n)));
	rb_bytes(b, v, 4);
	free(body.p);
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
	uint32_t version = get32(in + 8), len = get32(in + 12);
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
	if (get32(in + 16 + len) != (uint32_t)crc32(0, in, 16 + len)) {
		snprintf(err, errlen, "damaged header at offset 0 (checksum)");
		return -1;
	}
	struct rcur c = {in + 16, len, 0, false};
	memset(s, 0, sizeof(*s));
	s->cols = (unsigned)rc_varint(&c);
	uint64_t np = rc_varint(&c);
	for (uint64_t i = 0; i < np && i < 32; i++) {
		rc_str(&c, name, sizeof(name));
		s->proc_rec[s->nproc] = rc_varint(&c) != 0;
		s->proc[s->nproc++] = column_by_name(name);
	}
	uint64_t ncg = rc_varint(&c);
	for (uint64_t i = 0; i < ncg && i < 32; i++) {
		rc_str(&c, name, sizeof(name));
		s->cg_rec[s->ncg] = rc_varint(&c) != 0;
		s->cg[s->ncg++] = cg_column_by_name(name);
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
