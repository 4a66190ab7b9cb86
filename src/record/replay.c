/* The replay source: an index of the recording's blocks (their headers only), and each
 * sample decoded from the keyframe before it. */
#include "replay.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "parse.h"
#include "reccodec.h"
#include "record.h"
#include "text.h"
#include "util.h"

struct rfile {
	char *shown; /* its path as messages name it: escaped (parse_escape) */
	int fd;
	struct rec_schema sc;
};

struct rblock {
	uint32_t file;
	long off;
	struct rec_block b;
};

struct replay {
	struct rfile *files;
	size_t nfiles;
	struct rblock *blk;
	size_t nblk, blkcap;
	size_t lo, hi; /* the range: blk[lo..hi) */
	size_t cursor; /* the block replay_collect reads next: before lo, one that only feeds
			* the model the samples before the range */
	size_t last;   /* the sample of the range it read last, SIZE_MAX: none */
	double begin, end;
	struct tbuf warn;
	bool damaged; /* blocks were left out for damage (warn says which) */
	struct rec_state st;
	size_t decoded; /* the block st holds, SIZE_MAX: none */
	struct snapshot scratch;
	uint8_t *frame, *raw;
	size_t framecap, rawcap;
};

/* A file's blocks being indexed (rec_walk: damage passed over, each gap said in a line) */
struct scan {
	struct replay *r;
	const char *shown; /* the file's path, escaped */
	int fd;
	long size;
	double last; /* the wall-clock time of the last sample indexed, 0: none */
};

/* A sample's wall-clock time as the warnings say it */
static void when(double wall, char *buf, size_t size)
{
	time_t t = (time_t)wall_held(wall);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
}

/* Damage from at to the end of the file that holds no block (no block's magic): said as
 * what it is, zeros or other bytes, with no sample left out; false where it may hold
 * samples */
static bool tail_said(struct scan *sc, long at)
{
	uint8_t buf[65536];
	bool zeros = true;

	/* pieces overlapping by 3 bytes, so that a magic across two is seen */
	for (long o = at; o < sc->size; o += (long)sizeof(buf) - 3) {
		ssize_t n = pread(sc->fd, buf, sizeof(buf), o);
		if (n <= 0)
			return false;
		for (ssize_t i = 0; i < n; i++) {
			zeros = zeros && !buf[i];
			if (i + 4 <= n && !memcmp(buf + i, "MTBK", 4))
				return false;
		}
		if (o + n >= sc->size)
			break;
	}
	tbuf_printf(&sc->r->warn,
		    "%s: %ld %s at the end of the file from offset %ld, after the last sample "
		    "(no sample left out)\n",
		    sc->shown, sc->size - at, zeros ? "zero bytes" : "bytes that are not a sample",
		    at);
	return true;
}

/* The damage passed over, in one line: where it is, and the samples left out */
static void say_gap(void *arg, long at, const char *why, long resume, const struct rec_block *key)
{
	struct scan *sc = arg;
	struct replay *r = sc->r;
	char t[32], span[64], to[32];

	if (sc->last) {
		when(sc->last, t, sizeof(t));
		snprintf(span, sizeof(span), "the samples after %s", t);
	} else {
		snprintf(span, sizeof(span), "the samples from the start of the file");
	}
	if (resume < 0 && tail_said(sc, at))
		return;
	if (resume < 0) {
		tbuf_printf(&r->warn,
			    "%s: damaged block at offset %ld: %s; %s left out to the end of the "
			    "file (no keyframe after it)\n",
			    sc->shown, at, why, span);
	} else {
		when(key->wall, to, sizeof(to));
		tbuf_printf(&r->warn,
			    "%s: damaged block at offset %ld: %s; %s left out up to the keyframe "
			    "at offset %ld (%s)\n",
			    sc->shown, at, why, span, resume, to);
	}
	r->damaged = true;
}

static int add_block(void *arg, long off, const struct rec_block *b)
{
	struct scan *sc = arg;
	struct replay *r = sc->r;

	r->blk = xgrow(r->blk, r->nblk, &r->blkcap, sizeof(*r->blk), 1024);
	r->blk[r->nblk++] = (struct rblock){(uint32_t)(r->nfiles - 1), off, *b};
	sc->last = b->wall;
	return 0;
}

/* Looking for a copy of a damaged header: in the first keyframe that has one and holds
 * together */
struct head_find {
	int fd;
	struct rec_schema *sc;
	long len, at; /* the header's length, the keyframe's offset; 0: none found */
};

static int find_head(void *arg, long off, const struct rec_block *b)
{
	struct head_find *h = arg;
	const uint8_t *copy;
	size_t n;
	char why[200];

	if (!(b->flags & REC_HEAD))
		return 0;
	uint8_t *frame = xmalloc(b->clen + 1), *raw = xmalloc(b->rlen + 1);
	if (pread(h->fd, frame, b->clen, off + REC_BLOCK_HDR) == (ssize_t)b->clen &&
	    ZSTD_getFrameContentSize(frame, b->clen) == b->rlen &&
	    ZSTD_decompress(raw, b->rlen, frame, b->clen) == b->rlen &&
	    rec_head_copy(raw, b->rlen, &copy, &n) > 0 &&
	    rec_header_get(copy, n, h->sc, why, sizeof(why)) == (long)n) {
		h->len = (long)n;
		h->at = off;
	}
	free(frame);
	free(raw);
	return h->len > 0;
}

/* The header of fd (size bytes) from its copy in a keyframe, where the one at its start is
 * damaged: its length, 0 where no copy holds together; the place of the copy in *at */
static long header_copy(int fd, long size, struct rec_schema *sc, long *at)
{
	struct head_find h = {.fd = fd, .sc = sc};
	const char *why;

	rec_walk(fd, 0, size, true, find_head, NULL, &h, &why);
	*at = h.at;
	return h.len;
}

/* Opens one file, its header (or its copy, where it is damaged), and indexes its blocks */
static int open_file(struct replay *r, const char *path, char *err, size_t errlen)
{
	uint8_t hdr[65536 + 20];
	char why[200], shown[4096];
	struct stat st;
	/* not blocked by a FIFO: it is refused as not a regular file */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	parse_escape(path, shown, sizeof(shown));

	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "%s: %s", shown, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	ssize_t n = S_ISREG(st.st_mode) ? pread(fd, hdr, sizeof(hdr), 0) : -1;
	struct rfile f = {.shown = xstrdup(shown), .fd = fd};
	long len = n < 0 ? -1 : rec_header_get(hdr, (size_t)n, &f.sc, why, sizeof(why)), at;
	long copy = len <= 0 && n > 0 ? header_copy(fd, (long)st.st_size, &f.sc, &at) : 0;
	if (copy > 0) {
		tbuf_printf(&r->warn,
			    "%s: %s; read from its copy in the keyframe at offset %ld (no sample "
			    "left out)\n",
			    shown, len < 0 ? why : "damaged header (its length)", at);
		len = copy;
	}
	if (len <= 0) {
		snprintf(err, errlen, "%s: %s", shown,
			 n < 0	   ? (S_ISREG(st.st_mode) ? strerror(errno) : "not a regular file")
			 : len < 0 ? why
				   : "cut short in its header");
		close(fd);
		free(f.shown);
		return -1;
	}
	r->files = xrealloc(r->files, (r->nfiles + 1) * sizeof(*r->files));
	r->files[r->nfiles++] = f;
	struct scan sc = {.r = r, .shown = shown, .fd = fd, .size = (long)st.st_size};
	size_t before = r->nblk;
	const char *cut;
	long end = rec_walk(fd, len, (long)st.st_size, true, add_block, say_gap, &sc, &cut);
	if (cut && !strcmp(cut, "cut short"))
		tbuf_printf(&r->warn,
			    "%s: the last sample is cut short at offset %ld (the recorder stopped "
			    "mid-write); replaying the %zu whole samples before it\n",
			    shown, end, r->nblk - before);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The recordings of a directory, in the order of their names (their days) */
static int open_dir(struct replay *r, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	char **names = NULL, path[4096];
	size_t n = 0;
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (record_file_ours(e->d_name)) {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xstrdup(e->d_name);
		}
	if (d)
		closedir(d);
	/* a day's file moved aside (.rec.1) comes before the day's file */
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		if (len > 6 && !strcmp(names[i] + len - 6, ".rec.1"))
			names[i][len - 6] = ' '; /* memtop-D rec.1 sorts before memtop-D.rec */
	}
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		if (len > 6 && !strcmp(names[i] + len - 6, " rec.1"))
			names[i][len - 6] = '.';
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (open_file(r, path, err, errlen)) /* said, and left out */
			tbuf_printf(&r->warn, "%s; left out\n", err);
		free(names[i]);
	}
	free(names);
	parse_escape(dir, path, sizeof(path));
	if (!r->nfiles && !n)
		snprintf(err, errlen, "%s: no recordings (memtop-*.rec) in it", path);
	else if (!r->nfiles)
		snprintf(err, errlen, "%s: no recording in it could be read", path);
	return r->nfiles ? 0 : -1;
}

struct replay *replay_open(const char *path, char *err, size_t errlen)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	struct stat st;
	char shown[4096];

	rec_state_init(&r->st);
	snapshot_init(&r->scratch);
	r->decoded = SIZE_MAX;
	r->last = SIZE_MAX;
	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", parse_escape(path, shown, sizeof(shown)),
			 strerror(errno));
		replay_close(r);
		return NULL;
	}
	if (S_ISDIR(st.st_mode) ? open_dir(r, path, err, errlen)
				: open_file(r, path, err, errlen)) {
		replay_close(r);
		return NULL;
	}
	r->hi = r->nblk;
	if (!r->nblk) {
		snprintf(err, errlen, "%s: no samples", parse_escape(path, shown, sizeof(shown)));
		replay_close(r);
		return NULL;
	}
	return r;
}

int replay_select(struct replay *r, double begin, double end)
{
	size_t lo = 0, hi;
	while (lo < r->hi && begin && r->blk[lo].b.wall < begin)
		lo++;
	for (hi = lo; hi < r->hi && (!end || r->blk[hi].b.wall <= end); hi++)
		;
	if (hi == lo)
		return -1;
	r->lo = lo;
	r->hi = hi;
	r->cursor = lo;
	r->last = SIZE_MAX;
	return 0;
}

void replay_close(struct replay *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfiles; i++) {
		close(r->files[i].fd);
		free(r->files[i].shown);
	}
	free(r->files);
	free(r->blk);
	free(r->warn.s);
	rec_state_free(&r->st);
	snapshot_free(&r->scratch);
	free(r->frame);
	free(r->raw);
	free(r);
}

size_t replay_count(const struct replay *r)
{
	return r->hi - r->lo;
}

double replay_wall(const struct replay *r, size_t i)
{
	return r->blk[r->lo + i].b.wall;
}

bool replay_has_oom(const struct replay *r, size_t i)
{
	return r->blk[r->lo + i].b.flags & REC_OOM;
}

bool replay_keyframe(const struct replay *r, size_t i)
{
	return r->blk[r->lo + i].b.flags & REC_KEY;
}

size_t replay_find(const struct replay *r, double t)
{
	size_t i = 0;
	while (i < replay_count(r) && replay_wall(r, i) < t)
		i++;
	return i;
}

unsigned replay_cols(const struct replay *r)
{
	return r->files[0].sc.cols;
}

const char *replay_warnings(const struct replay *r)
{
	return r->warn.n ? r->warn.s : "";
}

bool replay_damaged(const struct replay *r)
{
	return r->damaged;
}

static uint8_t *room(uint8_t **p, size_t *cap, size_t n)
{
	if (n > *cap) {
		*cap = n;
		*p = xrealloc(*p, n ? n : 1);
	}
	return *p;
}

/* Block a decoded into s */
static int decode(struct replay *r, size_t a, struct snapshot *s, char *err, size_t errlen)
{
	const struct rblock *k = &r->blk[a];
	const struct rfile *f = &r->files[k->file];
	uint8_t hdr[REC_BLOCK_HDR];
	char why[200];
	const uint8_t *copy;
	size_t n;
	long skip = 0;

	snapshot_reuse(s);
	room(&r->frame, &r->framecap, k->b.clen);
	room(&r->raw, &r->rawcap, k->b.rlen);
	rec_block_put(hdr, &k->b);
	if (pread(f->fd, r->frame, k->b.clen, k->off + REC_BLOCK_HDR) != (ssize_t)k->b.clen)
		snprintf(why, sizeof(why), "%s", strerror(errno ? errno : EIO));
	else if (rec_block_crc(hdr, r->frame, k->b.clen) != k->b.crc)
		snprintf(why, sizeof(why), "checksum mismatch");
	else if (ZSTD_getFrameContentSize(r->frame, k->b.clen) != k->b.rlen ||
		 ZSTD_decompress(r->raw, k->b.rlen, r->frame, k->b.clen) != k->b.rlen)
		snprintf(why, sizeof(why), "zstd frame does not decompress to %u bytes", k->b.rlen);
	else if ((skip = k->b.flags & REC_HEAD ? rec_head_copy(r->raw, k->b.rlen, &copy, &n) : 0) <
		 0)
		snprintf(why, sizeof(why), "its copy of the header does not hold together");
	else if (rec_decode(&r->st, &f->sc, r->raw + skip, k->b.rlen - (size_t)skip,
			    k->b.flags & REC_KEY, s, why, sizeof(why)))
		;
	else {
		r->decoded = a;
		return 0;
	}
	r->decoded = SIZE_MAX;
	snprintf(err, errlen, "%s: damaged block at offset %ld: %s", f->shown, k->off, why);
	return -1;
}

/* Decodes block a (of the whole recording) into s: the next one, or from the keyframe at
 * or before it */
static int read_block(struct replay *r, size_t a, struct snapshot *s, char *err, size_t errlen)
{
	size_t k = a;

	if (r->decoded == SIZE_MAX || a != r->decoded + 1 ||
	    r->blk[a].file != r->blk[r->decoded].file) {
		while (k > 0 && !(r->blk[k].b.flags & REC_KEY) &&
		       r->blk[k - 1].file == r->blk[a].file)
			k--;
		for (; k < a; k++)
			if (decode(r, k, &r->scratch, err, errlen))
				break;
	}
	return k < a || decode(r, a, s, err, errlen) ? -1 : 0;
}

int replay_read(struct replay *r, size_t i, struct snapshot *s, char *err, size_t errlen)
{
	if (i >= replay_count(r)) {
		snprintf(err, errlen, "no sample %zu", i);
		return -1;
	}
	if (read_block(r, r->lo + i, s, err, errlen)) {
		r->hi = r->lo + i; /* the samples end before the damage */
		return -1;
	}
	return 0;
}

int replay_collect(struct replay *r, struct snapshot *s, char *err, size_t errlen)
{
	if (r->cursor < r->lo) { /* a sample before the range: it only feeds the model */
		if (!read_block(r, r->cursor, s, err, errlen)) {
			r->cursor++;
			r->last = SIZE_MAX;
			return 0;
		}
		r->cursor = r->lo; /* one that cannot be read: the range's first without them */
	}
	if (replay_read(r, r->cursor - r->lo, s, err, errlen))
		return -1;
	r->last = r->cursor++ - r->lo;
	return 0;
}

size_t replay_last(const struct replay *r)
{
	return r->last;
}

void replay_rewind(struct replay *r, size_t i, double window)
{
	size_t a = r->lo + i;
	double from = r->blk[a].b.wall - window;

	if (a > 0) /* the one before it, however long before: the rates it printed */
		a--;
	while (a > 0 && r->blk[a - 1].b.wall >= from)
		a--;
	r->cursor = a;
	r->last = SIZE_MAX;
}
