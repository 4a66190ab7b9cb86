/* The recording's schema (recfmt.h): the system fields recorded, the columns whose figures
 * are, and the file's header that names them all for a reader. */
#include "recfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cgcolumns.h"
#include "columns.h"

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
/* A NUMA node's fields: nodes.I.node and its figures, nodes.I.mem_total_kb... */
#define NODE_FIG(i, id, key, json, ...) , F("nodes." #i "." #json, nodes[i].kb[NF_##id], RF_U64)
#define NODE_REC(i)			F("nodes." #i ".node", nodes[i].node, RF_I64) NODE_FIGURES(NODE_FIG, i)
_Static_assert(MT_MAX_NODES == 8, "a NODE_REC row per node the snapshot holds");
/* A BPF concern's state: bpf.concern.I.name, .why and .on */
#define CONCERN_REC(i)                                                                             \
	S("bpf.concern." #i ".name", bpf.concern[i].name),                                         \
		S("bpf.concern." #i ".why", bpf.concern[i].why),                                   \
		F("bpf.concern." #i ".on", bpf.concern[i].on, RF_BOOL)
_Static_assert(MT_BPF_CONCERNS == 8, "a CONCERN_REC row per concern the snapshot holds");
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
	F("mem.presence", mem_presence, RF_U64),
	F("vm.presence", vm_presence, RF_U64),
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
	F("nodes.count", nnodes, RF_SIZE),
	NODE_REC(0),
	NODE_REC(1),
	NODE_REC(2),
	NODE_REC(3),
	NODE_REC(4),
	NODE_REC(5),
	NODE_REC(6),
	NODE_REC(7),
	F("psi.totals", psi.totals, RF_BOOL),
	F("psi.some_total_us", psi.some_total_us, RF_U64),
	F("psi.full_total_us", psi.full_total_us, RF_U64),
	F("bpf.nconcerns", bpf.nconcerns, RF_I64),
	CONCERN_REC(0),
	CONCERN_REC(1),
	CONCERN_REC(2),
	CONCERN_REC(3),
	CONCERN_REC(4),
	CONCERN_REC(5),
	CONCERN_REC(6),
	CONCERN_REC(7),
	/* the limited cgroups' processes: a part coded by rectasks.c */
	{"cgroups.tasks", 0, RF_CHARS, 0},
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
