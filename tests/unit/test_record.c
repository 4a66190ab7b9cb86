/* The recording: what is written is read back field by field, across keyframes; a file cut
 * at any byte of its last two blocks replays its whole samples; flipped bytes and a newer
 * version give an error, never a crash; --record-dir keeps --keep days; a recording made by
 * an earlier memtop reads whole and encodes again to the same samples; one that does not
 * know the cgroups' processes reads the rest; the varints. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "reccodec.h"
#include "record.h"
#include "recfmt.h"
#include "replay.h"
#include "unit.h"
#include "util.h"

#define NSAMPLES 130

static const char *const cmds[] = {"/usr/bin/a --x", "b", "", "sh -c 'c; d'"};

/* Sample i: processes that come and go, strings that change, cgroups, an OOM kill */
static void gen(struct snapshot *s, int i)
{
	snapshot_reuse(s);
	s->wall = 1.7e9 + i * 10.25;
	s->mono = 1000 + i * 10.25;
	s->mono_procs = s->mono - 0.013;
	s->uptime = 5000 + i * 10.25;
	s->hertz = 100;
	s->page_kb = 4;
	s->mem[MI_MEM_TOTAL] = 16u << 20;
	s->mem[MI_MEM_AVAILABLE] = 8000000 - (uint64_t)i * 977;
	s->mem[MI_SWAP_FREE] = 100000 + (uint64_t)(i % 5);
	s->vm[VS_PGFAULT] = 1000000 + (uint64_t)i * i * 13;
	s->psi.present = true;
	s->psi.some_avg10 = i * 0.37;
	s->self.oom_score_adj = -900;
	s->cost.cpu_s = i * 0.0123;
	s->ntasks = 60;
	s->bpf.enabled = i % 40 != 3;
	snprintf(s->bpf.reason, sizeof(s->bpf.reason), "%s", i % 40 == 3 ? "off: because" : "");
	snprintf(s->bpf.swapin_mode, sizeof(s->bpf.swapin_mode), "bio");
	s->bpf.reclaim.direct.slots[3] = (uint64_t)i;
	s->bpf.reclaim.direct.count = (uint64_t)i * 2;
	s->cg_version = 2;
	s->cg_cols = 7;
	s->cg_self.path = i % 2 ? strdup("/memtop") : NULL;
	s->cg_self.limited = i % 2;
	int n = 40 + i % 7;
	for (int k = 0; k < n; k++) {
		struct proc_sample *p = snapshot_add_proc(s);
		p->pid = 100 + k * 3 + (k >= 35 ? i : 0);
		p->ppid = k ? 100 : 0;
		p->uid = (uint32_t)k % 3;
		p->start_ticks = (uint64_t)p->pid * 10;
		p->kthread = k == 1;
		snprintf(p->comm, sizeof(p->comm), "p%d", k + (i > 60 && k == 5));
		p->cmd = cmds[(k + (i > 90 && k == 6)) % 4];
		p->user = k % 3 ? "daemon" : "root";
		p->cgroup = k % 2 ? "/a" : NULL;
		p->memcg_id = 7;
		p->valid = COL_BIT(COL_PID) | COL_BIT(COL_RSS) | COL_BIT(COL_MINFLT) |
			   (k % 4 == i % 4 ? COL_BIT(COL_PSS) : 0);
		p->tried = k % 4 == i % 4 ? COL_BIT(COL_PSS) : 0;
		p->fig[PV_RSS] = 1000 + (uint64_t)k * i;
		p->fig[PV_MINFLT] = (uint64_t)i * k * 5;
		p->fig[PV_PSS] = 333 + (uint64_t)k;
	}
	for (int k = 0; k < 2; k++) {
		struct cg_sample *c = snapshot_add_cgroup(s, k ? "/a" : "/");
		c->id = 1 + (uint64_t)k;
		c->parent = k - 1;
		c->depth = (uint32_t)k;
		c->valid = CGCOL_BIT(CGCOL_USAGE) | CGCOL_BIT(CGCOL_LIMIT);
		c->unlimited = k ? 0 : CGCOL_BIT(CGCOL_LIMIT);
		c->v[CGCOL_USAGE] = 5000 + (uint64_t)i * 3;
		/* /a's processes, which change every 10 samples (none from 100 to 109), one's
		 * oom_score_adj from 50 */
		c->task0 = (uint32_t)s->ncg_tasks;
		c->ntasks = k && i / 10 != 10 ? 3 + (uint32_t)(i / 10 % 4) : 0;
		c->oom_group = k && i / 10 % 3 == 1 && i / 10 != 10;
		s->cg_tasks =
			xrealloc(s->cg_tasks, (s->ncg_tasks + c->ntasks) * sizeof(struct cg_task));
		s->cg_tasks_cap = s->ncg_tasks + c->ntasks;
		for (uint32_t j = 0; j < c->ntasks; j++)
			s->cg_tasks[s->ncg_tasks++] = (struct cg_task){
				103 + 6 * (int32_t)j, (int16_t)(j == 1 && i >= 50 ? 500 : -j)};
	}
	if (i == 77) {
		struct mt_event *e = snapshot_add_event(s);
		e->type = MT_EV_OOM_KILL;
		e->ts = s->wall - 1;
		e->pid = 109;
		snprintf(e->comm, sizeof(e->comm), "hog");
		snprintf(e->memcg, sizeof(e->memcg), "/a");
	}
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void check_same(const struct snapshot *a, const struct snapshot *b)
{
	for (size_t f = 0; f < rec_nsys_fields; f++)
		assert_memory_equal((const char *)a + rec_sys_fields[f].off,
				    (const char *)b + rec_sys_fields[f].off,
				    rec_sys_fields[f].size);
	assert_true(same_str(a->cg_self.path, b->cg_self.path));
	assert_int_equal(a->nprocs, b->nprocs);
	for (size_t k = 0; k < a->nprocs; k++) {
		const struct proc_sample *p = &a->procs[k], *q = &b->procs[k];
		assert_int_equal(p->pid, q->pid);
		assert_int_equal(p->ppid, q->ppid);
		assert_int_equal(p->start_ticks, q->start_ticks);
		assert_int_equal(p->kthread, q->kthread);
		assert_string_equal(p->comm, q->comm);
		assert_true(same_str(p->cmd, q->cmd) && same_str(p->user, q->user));
		assert_true(same_str(p->cgroup, q->cgroup));
		assert_int_equal(p->valid, q->valid);
		assert_int_equal(p->tried, q->tried);
		for (int c = 0; c < COL_COUNT; c++)
			if (rec_column_recorded(c) && (p->valid & COL_BIT(c)))
				assert_int_equal(PROC_FIG(p, c), PROC_FIG(q, c));
	}
	assert_int_equal(a->ncgroups, b->ncgroups);
	for (size_t k = 0; k < a->ncgroups; k++) {
		assert_string_equal(a->cgroups[k].path, b->cgroups[k].path);
		assert_int_equal(a->cgroups[k].parent, b->cgroups[k].parent);
		assert_int_equal(a->cgroups[k].unlimited, b->cgroups[k].unlimited);
		assert_int_equal(a->cgroups[k].v[CGCOL_USAGE], b->cgroups[k].v[CGCOL_USAGE]);
		assert_int_equal(a->cgroups[k].ntasks, b->cgroups[k].ntasks);
		assert_int_equal(a->cgroups[k].oom_group, b->cgroups[k].oom_group);
		for (uint32_t j = 0; j < a->cgroups[k].ntasks; j++) {
			const struct cg_task *x = &a->cg_tasks[a->cgroups[k].task0 + j],
					     *y = &b->cg_tasks[b->cgroups[k].task0 + j];
			assert_int_equal(x->pid, y->pid);
			assert_int_equal(x->oom_score_adj, y->oom_score_adj);
		}
	}
	assert_int_equal(a->nevents, b->nevents);
	for (size_t k = 0; k < a->nevents; k++) {
		const struct mt_event *e = &a->events[k], *f = &b->events[k];
		assert_true(e->type == f->type && e->ts == f->ts && e->pid == f->pid);
		assert_string_equal(e->comm, f->comm);
		assert_string_equal(e->memcg, f->memcg);
	}
}

static char path[64];

static int make_file(void **state)
{
	(void)state;
	struct snapshot s;
	char err[256];
	snprintf(path, sizeof(path), "/tmp/memtop-unit-rec.%d", getpid());
	unlink(path);
	struct record_opts o = {.file = path, .cols = 0x1234};
	struct recorder *r = recorder_open(&o, err, sizeof(err));
	assert_non_null(r);
	snapshot_init(&s);
	for (int i = 0; i < NSAMPLES; i++) {
		gen(&s, i);
		assert_int_equal(recorder_append(r, &s, err, sizeof(err)), 0);
	}
	recorder_close(r);
	snapshot_free(&s);
	return 0;
}

static int drop_file(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

/* Every sample back, in order and out of order (from its keyframe) */
static void test_roundtrip(void **state)
{
	(void)state;
	struct snapshot s, want;
	char err[256];
	struct replay *rp = replay_open(path, err, sizeof(err));
	assert_non_null(rp);
	assert_int_equal(replay_count(rp), NSAMPLES);
	assert_int_equal(replay_cols(rp), 0x1234);
	assert_string_equal(replay_warnings(rp), "");
	snapshot_init(&s);
	snapshot_init(&want);
	int order[] = {0, 1, 2, 59, 60, 61, 125, 77, 3, 129};
	for (int i = 0; i < NSAMPLES + 10; i++) {
		int k = i < NSAMPLES ? i : order[i - NSAMPLES];
		assert_int_equal(replay_read(rp, (size_t)k, &s, err, sizeof(err)), 0);
		gen(&want, k);
		check_same(&want, &s);
		assert_int_equal(replay_has_oom(rp, (size_t)k), k == 77);
	}
	assert_int_equal(replay_find(rp, 1.7e9 + 20), 2);
	snapshot_free(&s);
	snapshot_free(&want);
	replay_close(rp);
}

/* Reads a file's samples from the first on (from its keyframe); returns the index of the
 * first it could not read (its count where it read them all), the warnings and error in out */
static size_t read_from(const char *p, size_t first, char *out, size_t size)
{
	struct snapshot s;
	char err[256];
	size_t n = first;
	struct replay *rp = replay_open(p, err, sizeof(err));
	out[0] = '\0';
	if (!rp) {
		snprintf(out, size, "%s", err);
		return 0;
	}
	snapshot_init(&s);
	for (; n < replay_count(rp); n++)
		if (replay_read(rp, n, &s, err, sizeof(err))) {
			snprintf(out, size, "%s", err);
			break;
		}
	snprintf(out + strlen(out), size - strlen(out), "%s", replay_warnings(rp));
	snapshot_free(&s);
	replay_close(rp);
	return n;
}

/* The samples a cut or a flipped byte in the last two blocks (samples 128 and 129) can
 * change, and one before them: read from the keyframe at sample 120 on; the samples before
 * stay as test_roundtrip read them */
#define TAIL (NSAMPLES - 3)

static size_t read_all(const char *p, char *out, size_t size)
{
	return read_from(p, 0, out, size);
}

/* The first len bytes of the file to the file to, the byte at flip (-1: none) flipped */
static void copy_to(const char *to, size_t len, long flip)
{
	FILE *in = fopen(path, "rb"), *out = fopen(to, "wb");
	char *buf = malloc(len + 1);
	assert_non_null(in);
	assert_non_null(out);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, in), len);
	if (flip >= 0 && (size_t)flip < len)
		buf[flip] ^= 0x5a;
	assert_int_equal(fwrite(buf, 1, len, out), len);
	free(buf);
	fclose(in);
	fclose(out);
}

/* The offset of every block: off[0..n) */
static size_t block_offsets(long *off, size_t max)
{
	struct stat st;
	uint8_t h[20], hdr[REC_BLOCK_HDR];
	struct rec_block bl;
	size_t n = 0;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(pread(fd, h, 16, 0), 16);
	long o = 20 + (long)(h[12] | h[13] << 8 | h[14] << 16 | (long)h[15] << 24);
	while (o < st.st_size && n < max && pread(fd, hdr, sizeof(hdr), o) == sizeof(hdr) &&
	       rec_block_get(hdr, &bl)) {
		off[n++] = o;
		o += REC_BLOCK_HDR + (long)bl.clen;
	}
	close(fd);
	return n;
}

/* The offsets where the last two blocks start, and the file's size */
static void last_two(long *a, long *b, long *size)
{
	long off[NSAMPLES + 1];
	struct stat st;

	assert_int_equal(block_offsets(off, NSAMPLES + 1), NSAMPLES);
	assert_int_equal(stat(path, &st), 0);
	*size = st.st_size;
	*a = off[NSAMPLES - 2];
	*b = off[NSAMPLES - 1];
}

static void test_cut(void **state)
{
	(void)state;
	char cut[80], msg[1024];
	long a, b, size;
	last_two(&a, &b, &size);
	snprintf(cut, sizeof(cut), "%s.cut", path);
	copy_to(cut, (size_t)size, -1);
	for (long at = size; at >= a; at--) { /* the whole file, then cut a byte shorter */
		assert_int_equal(truncate(cut, at), 0);
		size_t n = read_from(cut, TAIL, msg, sizeof(msg));
		size_t want = at == size ? NSAMPLES : at >= b ? NSAMPLES - 1 : NSAMPLES - 2;
		assert_int_equal(n, want);
		if (at != a && at != b && at != size)
			assert_non_null(strstr(msg, "cut short at offset"));
	}
	unlink(cut);
}

/* The step to the next byte test_flipped flips after at (a, b: the last two blocks) */
static long flip_step(long at, long a, long b)
{
	if (at < 200 || (at >= a && at < a + REC_BLOCK_HDR) || (at >= b && at < b + REC_BLOCK_HDR))
		return 1;
	return at >= a ? 7 : 97;
}

static void test_flipped(void **state)
{
	(void)state;
	char bad[80], msg[1024];
	long a, b, size, off[NSAMPLES + 1];
	last_two(&a, &b, &size);
	block_offsets(off, NSAMPLES + 1);
	snprintf(bad, sizeof(bad), "%s.bad", path);
	copy_to(bad, (size_t)size, -1);
	int fd = open(bad, O_RDWR);
	assert_true(fd >= 0);
	size_t j = 0; /* the sample whose block holds the byte: read from it on */
	/* each byte of the header and of the last two blocks' headers, every 97th before
	 * them and every 7th in the last two blocks' bodies (a checksum catches any) */
	for (long at = 0; at < size; at += flip_step(at, a, b)) {
		uint8_t was;
		assert_int_equal(pread(fd, &was, 1, at), 1);
		assert_int_equal(pwrite(fd, &(uint8_t){was ^ 0x5a}, 1, at), 1);
		while (j + 1 < NSAMPLES && off[j + 1] <= at)
			j++;
		size_t n = read_from(bad, at >= a ? TAIL : at < off[0] ? 0 : j, msg, sizeof(msg));
		assert_int_equal(pwrite(fd, &was, 1, at), 1);
		if (at < off[0]) { /* the header, read from its copy in the first keyframe */
			assert_int_equal(n, NSAMPLES);
			assert_non_null(strstr(msg, "read from its copy"));
			continue;
		}
		assert_true(n < NSAMPLES);
		assert_true(strstr(msg, "offset") || strstr(msg, "version"));
	}
	close(fd);
	unlink(bad);
}

/* The file with a byte at flip flipped: its samples read back are those of gen() but the
 * ones left out, from sample gone up to sample back (NSAMPLES: to the end) */
static void resumes(long flip, int gone, int back, const char *said)
{
	char bad[80], err[256];
	struct snapshot s, want;

	snprintf(bad, sizeof(bad), "%s.gap", path);
	struct stat st;
	stat(path, &st);
	copy_to(bad, (size_t)st.st_size, flip);
	struct replay *rp = replay_open(bad, err, sizeof(err));
	assert_non_null(rp);
	assert_int_equal(replay_count(rp), NSAMPLES - (back - gone));
	assert_true(replay_damaged(rp));
	assert_non_null(strstr(replay_warnings(rp), said));
	assert_int_equal(strcspn(replay_warnings(rp), "\n") + 1, strlen(replay_warnings(rp)));
	snapshot_init(&s);
	snapshot_init(&want);
	for (size_t i = 0; i < replay_count(rp); i++) {
		int k = (int)i < gone ? (int)i : (int)i + (back - gone);
		assert_int_equal(replay_read(rp, i, &s, err, sizeof(err)), 0);
		gen(&want, k);
		check_same(&want, &s);
	}
	snapshot_free(&s);
	snapshot_free(&want);
	replay_close(rp);
	unlink(bad);
}

/* Damage leaves out the samples encoded against it, up to the next keyframe, and the
 * replay goes on from there, saying so in one line */
static void test_resume(void **state)
{
	(void)state;
	long off[NSAMPLES + 1];
	char said[160];
	assert_int_equal(block_offsets(off, NSAMPLES + 1), NSAMPLES);

	/* a byte of sample 10's frame: 10 to 59 out, on from the keyframe at 60 */
	snprintf(said, sizeof(said),
		 "damaged block at offset %ld: checksum mismatch; the samples after ", off[10]);
	resumes(off[10] + REC_BLOCK_HDR + 3, 10, 60, said);
	snprintf(said, sizeof(said), "left out up to the keyframe at offset %ld (", off[60]);
	resumes(off[10] + REC_BLOCK_HDR + 3, 10, 60, said);
	/* sample 70's magic: no block header there; found again at the keyframe at 120 */
	snprintf(said, sizeof(said),
		 "damaged block at offset %ld: no block header there; the samples after ", off[70]);
	resumes(off[70], 70, 120, said);
	/* sample 20's length made larger than the file: not a cut tail, a keyframe follows */
	snprintf(said, sizeof(said),
		 "damaged block at offset %ld: its length runs past the end of the file; the "
		 "samples after ",
		 off[20]);
	resumes(off[20] + 6, 20, 60, said);
	/* the keyframe at 60's flags (its checksum): 60 to 119 out */
	resumes(off[60] + 12, 60, 120, "checksum mismatch");
	/* the first block: from the start of the file */
	resumes(off[0] + 5, 0, 60, "the samples from the start of the file left out up to");
	/* the last keyframe: to the end */
	snprintf(said, sizeof(said), "damaged block at offset %ld: checksum mismatch;", off[120]);
	resumes(off[120] + REC_BLOCK_HDR, 120, NSAMPLES, said);
	resumes(off[120] + REC_BLOCK_HDR, 120, NSAMPLES,
		"left out to the end of the file (no keyframe after it)");
}

static void test_newer(void **state)
{
	(void)state;
	char bad[80], msg[1024];
	snprintf(bad, sizeof(bad), "%s.v2", path);
	copy_to(bad, 4096, -1);
	FILE *f = fopen(bad, "r+b");
	fseek(f, 8, SEEK_SET);
	fputc(REC_VERSION + 1, f);
	fclose(f);
	assert_int_equal(read_all(bad, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "is newer than this memtop reads"));
	unlink(bad);
}

/* A reader that does not know the cgroups' processes (an earlier memtop: the header's
 * field maps to none) reads every other field of every sample, the processes of none; one
 * that knows them reads them */
static void test_tasks_unknown(void **state)
{
	(void)state;
	struct rec_schema own, older;
	struct rec_state enc, dec, old;
	struct snapshot s, t, u;
	struct rbuf raw = {0};
	char err[256];

	rec_schema_own(&own, 0);
	older = own;
	for (int i = 0; i < older.nsys; i++)
		if (!strcmp(rec_sys_fields[older.sys[i]].name, "cgroups.tasks"))
			older.sys[i] = -1;
	rec_state_init(&enc);
	rec_state_init(&dec);
	rec_state_init(&old);
	snapshot_init(&s);
	snapshot_init(&t);
	snapshot_init(&u);
	for (int i = 0; i < NSAMPLES; i++) {
		bool key = i % 60 == 0;
		gen(&s, i);
		raw.n = 0;
		rec_encode(&enc, &s, key, &raw);
		snapshot_reuse(&t);
		snapshot_reuse(&u);
		assert_int_equal(rec_decode(&dec, &own, raw.p, raw.n, key, &t, err, sizeof(err)),
				 0);
		assert_int_equal(rec_decode(&old, &older, raw.p, raw.n, key, &u, err, sizeof(err)),
				 0);
		check_same(&s, &t);
		assert_int_equal(u.ncg_tasks, 0);
		assert_true((t.ncg_tasks > 0) == (i / 10 != 10));
		for (size_t k = 0; k < s.ncgroups; k++) {
			s.cgroups[k].ntasks = 0;
			s.cgroups[k].oom_group = false;
		}
		check_same(&s, &u);
	}
	snapshot_free(&s);
	snapshot_free(&t);
	snapshot_free(&u);
	rec_state_free(&enc);
	rec_state_free(&dec);
	rec_state_free(&old);
	free(raw.p);
}

/* --record-dir: a file a day (a test's day of 100 s), the oldest removed past --keep */
static void test_days(void **state)
{
	(void)state;
	char dir[64], err[256], name[64], file[200];
	struct snapshot s;
	snprintf(dir, sizeof(dir), "/tmp/memtop-unit-days.%d", getpid());
	mkdir(dir, 0755);
	setenv("MEMTOP_RECORD_DAY_SECS", "100", 1);
	struct record_opts o = {.dir = dir, .keep = 2};
	struct recorder *r = recorder_open(&o, err, sizeof(err));
	assert_non_null(r);
	snapshot_init(&s);
	for (int i = 0; i < 40; i++) { /* 4 days of 10 samples */
		gen(&s, 0);
		s.wall = 1.7e9 + i * 10;
		assert_int_equal(recorder_append(r, &s, err, sizeof(err)), 0);
	}
	recorder_close(r);
	for (int d = 0; d < 4; d++) {
		record_day_name(1.7e9 + d * 100, name, sizeof(name));
		snprintf(file, sizeof(file), "%s/%s", dir, name);
		assert_int_equal(access(file, F_OK) == 0, d >= 2);
		unlink(file);
	}
	unsetenv("MEMTOP_RECORD_DAY_SECS");
	snapshot_free(&s);
	rmdir(dir);
}

/* The recording's integer codings (bytebuf.h): varints at their edges, back as written;
 * a varint that never ends, a string longer than its room or than the bytes left: bad */
static void test_varints(void **state)
{
	(void)state;
	static const uint64_t u[] = {0, 1, 127, 128, 16383, 16384, UINT32_MAX, UINT64_MAX};
	static const int64_t v[] = {0, -1, 1, -64, 64, INT64_MIN, INT64_MAX};
	struct rbuf b = {0};
	char str[8];
	uint8_t w[4];

	for (size_t i = 0; i < ARRAY_SIZE(u); i++)
		rb_varint(&b, u[i]);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		rb_svarint(&b, v[i]);
	rb_str(&b, "abc");
	assert_int_equal(b.p[2], 127); /* LEB128: 7 bits a byte, low first */
	assert_true(b.p[3] == 0x80 && b.p[4] == 1);
	struct rcur c = {b.p, b.n, 0, false};
	for (size_t i = 0; i < ARRAY_SIZE(u); i++)
		assert_true(rc_varint(&c) == u[i]);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		assert_true(rc_svarint(&c) == v[i]);
	assert_int_equal(rc_str(&c, str, sizeof(str)), 3);
	assert_string_equal(str, "abc");
	assert_true(!c.bad && c.at == c.n);
	assert_int_equal(rc_varint(&c), 0);
	assert_true(c.bad);

	static const uint8_t endless[11] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					    0x80, 0x80, 0x80, 0x80, 0x80};
	c = (struct rcur){endless, sizeof(endless), 0, false};
	assert_int_equal(rc_varint(&c), 0);
	assert_true(c.bad);
	b.n = 0;
	rb_str(&b, "longer than 8");
	c = (struct rcur){b.p, b.n, 0, false};
	assert_int_equal(rc_str(&c, str, sizeof(str)), 0);
	assert_true(c.bad && !str[0]);
	c = (struct rcur){b.p, b.n - 1, 0, false};
	assert_null(rc_bytes(&c, b.n));
	assert_true(c.bad);
	free(b.p);

	put_le32(w, 0x4b42544du);
	assert_memory_equal(w, "MTBK", 4);
	assert_true(get_le32(w) == 0x4b42544du);
}

/* The golden recording (tests/cli/golden/oom.rec, made by an earlier memtop): every column
 * and field its header names is one this memtop records, with the same type; each block's
 * header is written again to its bytes; and each sample, decoded, encoded in this memtop's
 * format and decoded again, is the same sample, so that a recording made before fields
 * were added still reads whole */
static int golden_block(void *arg, long off, const struct rec_block *b)
{
	long *offs = arg;

	(void)b;
	offs[++offs[0]] = off;
	return offs[0] >= 63;
}

/* The system fields of a and b, and their processes' pids and columns, are the same */
static void test_golden(void **state)
{
	(void)state;
	const char *tests = getenv("TESTS");
	char file[4096], err[256];
	struct rec_schema sc, own;
	struct rec_state dec, enc, again;
	struct rbuf raw = {0};
	struct snapshot s, t;
	long offs[64] = {0};
	uint8_t hdr[REC_BLOCK_HDR];
	const char *why;
	struct stat st;

	snprintf(file, sizeof(file), "%s/cli/golden/oom.rec", tests ? tests : "tests");
	int fd = open(file, O_RDONLY);
	assert_true(fd >= 0 && !fstat(fd, &st));
	uint8_t *in = malloc((size_t)st.st_size);
	assert_int_equal(pread(fd, in, (size_t)st.st_size, 0), st.st_size);
	long len = rec_header_get(in, (size_t)st.st_size, &sc, err, sizeof(err));
	assert_true(len > 0);
	for (int i = 0; i < sc.nproc; i++)
		assert_true(sc.proc[i] >= 0 && sc.proc_rec[i] == rec_column_recorded(sc.proc[i]));
	for (int i = 0; i < sc.ncg; i++)
		assert_true(sc.cg[i] >= 0 && sc.cg_rec[i] == rec_cgcolumn_recorded(sc.cg[i]));
	for (int i = 0; i < sc.nsys; i++)
		assert_true(sc.sys[i] >= 0 && sc.sys_type[i] == rec_sys_fields[sc.sys[i]].type);
	rec_schema_own(&own, sc.cols);
	assert_int_equal(rec_walk(fd, len, st.st_size, true, golden_block, NULL, offs, &why),
			 st.st_size);
	assert_null(why);
	assert_int_equal(offs[0], 8);
	rec_state_init(&dec);
	rec_state_init(&enc);
	rec_state_init(&again);
	snapshot_init(&s);
	snapshot_init(&t);
	for (long i = 1; i <= offs[0]; i++) {
		struct rec_block b;
		assert_true(rec_block_get(in + offs[i], &b));
		rec_block_put(hdr, &b);
		assert_memory_equal(hdr, in + offs[i], REC_BLOCK_HDR);
		uint8_t *frame = malloc(b.rlen + 1);
		assert_int_equal(
			ZSTD_decompress(frame, b.rlen, in + offs[i] + REC_BLOCK_HDR, b.clen),
			b.rlen);
		snapshot_reuse(&s);
		assert_int_equal(rec_decode(&dec, &sc, frame, b.rlen, b.flags & REC_KEY, &s, err,
					    sizeof(err)),
				 0);
		raw.n = 0;
		rec_encode(&enc, &s, b.flags & REC_KEY, &raw);
		snapshot_reuse(&t);
		assert_int_equal(rec_decode(&again, &own, raw.p, raw.n, b.flags & REC_KEY, &t, err,
					    sizeof(err)),
				 0);
		check_same(&s, &t);
		free(frame);
	}
	snapshot_free(&s);
	snapshot_free(&t);
	rec_state_free(&dec);
	rec_state_free(&enc);
	rec_state_free(&again);
	free(raw.p);
	free(in);
	close(fd);
}

UNIT_GROUP(record)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),     cmocka_unit_test(test_cut),
		cmocka_unit_test(test_flipped),	      cmocka_unit_test(test_resume),
		cmocka_unit_test(test_newer),	      cmocka_unit_test(test_days),
		cmocka_unit_test(test_tasks_unknown), cmocka_unit_test(test_golden),
		cmocka_unit_test(test_varints),
	};
	return cmocka_run_group_tests_name("record", tests, make_file, drop_file);
}
