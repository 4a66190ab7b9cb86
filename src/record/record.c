/* The recorder: one block a refresh, written by one write() to a file opened for
 * appending; a file cut by a crash is trimmed to its last whole block before more is
 * appended. */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "parse.h"
#include "reccodec.h"
#include "util.h"

#define ZSTD_LEVEL 3

struct recorder {
	struct record_opts o;
	int fd;
	char path[4096];
	char shown[4096]; /* path as messages name it: escaped (parse_escape) */
	char day[64];	  /* the day file's name (--record-dir) */
	long size;	  /* of the file written */
	long since_key;
	struct rec_state st;
	struct rbuf raw, out;
	struct rbuf hdr; /* the file's header, copied into every keyframe */
	ZSTD_CCtx *zc;
	char warn[4096 + 256]; /* what opening a file found, not yet said ("": nothing) */
	bool foreign;	       /* the file opened last is another version's */
};

double record_day_secs(void)
{
	const char *e = getenv("MEMTOP_RECORD_DAY_SECS");
	double d = e ? atof(e) : 0;
	return d >= 1 ? d : 86400;
}

void record_day_name(double wall, char *buf, size_t size)
{
	double day = record_day_secs();
	time_t t = (time_t)wall;
	struct tm tm;
	char when[32];

	if (day != 86400) /* a test's short day: named by its start */
		t = (time_t)(day * (double)(long)(wall / day));
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), day != 86400 ? "%Y%m%d-%H%M%S" : "%Y%m%d", &tm);
	snprintf(buf, size, "memtop-%s.rec", when);
}

bool record_file_ours(const char *name)
{
	size_t n = strlen(name);
	if (strncmp(name, "memtop-", 7))
		return false;
	return (n > 11 && !strcmp(name + n - 4, ".rec")) ||
	       (n > 13 && !strcmp(name + n - 6, ".rec.1"));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The n digits at s as a number, -1 where one is not a digit */
static int digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + s[i] - '0';
	}
	return v;
}

int record_month_days(int year, int month)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = year % 4 == 0 && (year % 100 || year % 400 == 0);

	return month < 1 || month > 12 ? 0 : mdays[month - 1] + (month == 2 && leap);
}

size_t record_day_key(const char *name)
{
	const char *d = name + 7;
	size_t k = 8;

	if (strncmp(name, "memtop-", 7) || strnlen(d, 8) < 8)
		return 0;
	int y = digits(d, 4), m = digits(d + 4, 2), day = digits(d + 6, 2);
	if (y < 0 || day < 1 || day > record_month_days(y, m))
		return 0;
	if (record_day_secs() != 86400) { /* a test's short day: YYYYMMDD-HHMMSS */
		if (strnlen(d, 15) < 15)
			return 0;
		int h = d[8] == '-' ? digits(d + 9, 2) : -1, mi = digits(d + 11, 2),
		    s = digits(d + 13, 2);
		if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59)
			return 0;
		k = 15;
	}
	return !strcmp(d + k, ".rec") || !strcmp(d + k, ".rec.1") ? k : 0;
}

/* Whether path is a recording: a regular file (a symbolic link not followed) that starts
 * with the recording's magic; its size in *size */
static bool recording_at(const char *path, long *size)
{
	char magic[sizeof(REC_MAGIC) - 1];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	bool ours = fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
		    pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
		    !memcmp(magic, REC_MAGIC, sizeof(magic));

	if (fd >= 0)
		close(fd);
	*size = ours ? (long)st.st_size : 0;
	return ours;
}

/* Removes the oldest days past --keep, then the oldest files while the directory's
 * recordings pass --record-max; never the file being written, nor a day after today's
 * (a file named by a clock that ran ahead: neither counted nor removed), nor a file that
 * is not a recording named as memtop names them (record_day_key) */
static void prune(struct recorder *r)
{
	DIR *d = opendir(r->o.dir);
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, today = record_day_key(r->day);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t k = record_day_key(e->d_name);
		if (!k || k != today || strncmp(e->d_name + 7, r->day + 7, k) > 0)
			continue;
		names = xgrow(names, n, &cap, sizeof(*names), 32);
		names[n++] = xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	long days = 0, total = 0, size;
	const char *newer = NULL;      /* the recording counted before, a day's or a newer one's */
	for (size_t i = n; i-- > 0;) { /* newest first; a day's .rec.1 beside its .rec */
		snprintf(path, sizeof(path), "%s/%s", r->o.dir, names[i]);
		if (!recording_at(path, &size))
			continue;
		days += !newer || strncmp(names[i], newer, today + 7);
		newer = names[i];
		total += size;
		bool current = !strcmp(names[i], r->day);
		if (!current &&
		    ((r->o.keep && days > r->o.keep) || (r->o.max && (uint64_t)total > r->o.max))) {
			unlink(path);
			total -= size;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The first damage that a walk of an existing file passed over */
static void first_gap(void *arg, long at, const char *why, long resume, const struct rec_block *key)
{
	long *bad = arg;

	(void)why;
	(void)resume;
	(void)key;
	if (*bad < 0)
		*bad = at;
}

/* Where the blocks of an existing file that a replay can read end, from offset from (as
 * the replay walks them: past damage to the keyframe after it). *trim: bytes follow that
 * end (a cut last block, or damage with no keyframe after it: nothing a replay can read).
 * Damage is said in r->warn. */
static long readable_end(struct recorder *r, long from, long size, bool *trim)
{
	const char *why;
	long bad = -1;
	long end = rec_walk(r->fd, from, size, false, NULL, first_gap, &bad, &why);
	bool damaged_tail = why && !strcmp(why, "damaged");

	if (bad >= 0)
		snprintf(r->warn, sizeof(r->warn),
			 "%s: damaged at offset %ld (a replay leaves it out); recording goes on at "
			 "offset %ld%s",
			 r->shown, bad, end,
			 damaged_tail ? ", the unreadable bytes after it cut off" : "");
	*trim = why != NULL;
	return end;
}

/* Opens r->path for appending: a new file gets the header; an existing one must have
 * this memtop's header, and is trimmed to its last whole block that a replay can read
 * (damage before it stays, said in r->warn: the replay leaves it out, and the next block
 * written is a keyframe, where it goes on) */
static int open_file(struct recorder *r, char *err, size_t errlen)
{
	struct stat st;

	/* a symbolic link is not followed (one planted where root records would make it
	 * write elsewhere), nor does a FIFO block the opening; the file is for its owner */
	r->fd = open(r->path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
		     0600);
	if (r->fd < 0 && errno == ELOOP) {
		snprintf(err, errlen, "%s: a symbolic link; memtop records only to a regular file",
			 r->shown);
		return -1;
	}
	if (r->fd < 0 || fstat(r->fd, &st)) {
		snprintf(err, errlen, "%s: %s", r->shown, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", r->shown);
		return -1;
	}
	/* one recorder a file: two appending at once would interleave their samples */
	if (flock(r->fd, LOCK_EX | LOCK_NB)) {
		snprintf(err, errlen, "%s: %s", r->shown,
			 errno == EWOULDBLOCK ? "another memtop is recording to it"
					      : strerror(errno));
		return -1;
	}
	r->hdr.n = 0;
	rec_header_put(&r->hdr, r->o.cols);
	struct rbuf hdr = r->hdr;
	r->size = st.st_size;
	int rc = 0;
	if (!st.st_size) {
		rc = write(r->fd, hdr.p, hdr.n) == (ssize_t)hdr.n ? 0 : -1;
		r->size = (long)hdr.n;
		if (rc)
			snprintf(err, errlen, "%s: %s", r->shown, strerror(errno));
	} else {
		uint8_t *have = xmalloc(hdr.n);
		if (pread(r->fd, have, hdr.n, 0) != (ssize_t)hdr.n || memcmp(have, hdr.p, hdr.n)) {
			r->foreign = true;
			snprintf(err, errlen,
				 "%s: not a recording this memtop appends to (another version or "
				 "other columns); record to a new file",
				 r->shown);
			rc = -1;
		} else {
			bool trim;
			long end = readable_end(r, (long)hdr.n, st.st_size, &trim);
			if (trim && ftruncate(r->fd, end)) {
				snprintf(err, errlen, "%s: %s", r->shown, strerror(errno));
				rc = -1;
			}
			r->size = end;
		}
		free(have);
	}
	r->since_key = REC_KEYFRAME; /* a file starts with a keyframe */
	return rc;
}

struct recorder *recorder_open(const struct record_opts *o, char *err, size_t errlen)
{
	struct recorder *r = xcalloc(1, sizeof(*r));
	r->o = *o;
	r->fd = -1;
	rec_state_init(&r->st);
	r->zc = ZSTD_createCCtx();
	if (o->dir) {
		struct stat st;
		bool exists = !stat(o->dir, &st);
		if (!exists || !S_ISDIR(st.st_mode)) {
			const char *why = exists ? "not a directory" : strerror(errno);
			snprintf(err, errlen, "--record-dir %s: %s",
				 parse_escape(o->dir, r->shown, sizeof(r->shown)), why);
			recorder_close(r);
			return NULL;
		}
		return r; /* the day's file opens with the first sample */
	}
	snprintf(r->path, sizeof(r->path), "%s", o->file);
	parse_escape(r->path, r->shown, sizeof(r->shown));
	if (open_file(r, err, errlen)) {
		recorder_close(r);
		return NULL;
	}
	return r;
}

/* The day's file in the directory, or the file past --record-max moved aside */
static int next_file(struct recorder *r, double wall, char *err, size_t errlen)
{
	char day[64], old[4200];
	if (r->o.dir) {
		record_day_name(wall, day, sizeof(day));
		bool full = r->o.max && r->size > (long)(r->o.max / 2);
		if (r->fd >= 0 && !strcmp(day, r->day) && !full)
			return 0;
		if (r->fd >= 0 && full && !strcmp(day, r->day)) {
			snprintf(old, sizeof(old), "%s.1", r->path);
			rename(r->path, old);
		}
		snprintf(r->day, sizeof(r->day), "%s", day);
		snprintf(r->path, sizeof(r->path), "%s/%s", r->o.dir, day);
		parse_escape(r->path, r->shown, sizeof(r->shown));
	} else {
		if (!r->o.max || r->size <= (long)(r->o.max / 2))
			return 0;
		snprintf(old, sizeof(old), "%s.1", r->path);
		if (rename(r->path, old)) {
			snprintf(err, errlen, "%s: %s", r->shown, strerror(errno));
			return -1;
		}
	}
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	r->foreign = false;
	int rc = open_file(r, err, errlen);
	/* the day's file of another version (memtop upgraded during the day): moved aside as
	 * a full one is, where the day has none yet, and the day goes on in a new file */
	snprintf(old, sizeof(old), "%s.1", r->path);
	if (rc && r->foreign && r->o.dir && access(old, F_OK) && !rename(r->path, old)) {
		close(r->fd);
		r->fd = -1;
		snprintf(r->warn, sizeof(r->warn), "%s: another version's; moved to %s.1", r->day,
			 r->day);
		rc = open_file(r, err, errlen);
	}
	if (!rc && r->o.dir)
		prune(r);
	return rc;
}

int recorder_append(struct recorder *r, const struct snapshot *s, char *err, size_t errlen)
{
	if (next_file(r, s->wall, err, errlen))
		return -1;
	bool key = r->since_key >= REC_KEYFRAME;
	struct rec_block b = {.flags = key ? REC_KEY | REC_HEAD : 0, .wall = s->wall};
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == MT_EV_OOM_KILL && !s->events[i].earlier)
			b.flags |= REC_OOM; /* seen live: N and P stop at it */
	r->raw.n = 0;
	if (key) { /* the header's copy */
		rb_varint(&r->raw, r->hdr.n);
		rb_bytes(&r->raw, r->hdr.p, r->hdr.n);
	}
	rec_encode(&r->st, s, key, &r->raw);
	size_t bound = ZSTD_compressBound(r->raw.n);
	r->out.n = 0;
	if (r->out.cap < REC_BLOCK_HDR + bound) {
		r->out.cap = REC_BLOCK_HDR + bound;
		r->out.p = xrealloc(r->out.p, r->out.cap);
	}
	size_t c = ZSTD_compressCCtx(r->zc, r->out.p + REC_BLOCK_HDR, bound, r->raw.p, r->raw.n,
				     ZSTD_LEVEL);
	if (ZSTD_isError(c)) {
		snprintf(err, errlen, "%s: zstd: %s", r->shown, ZSTD_getErrorName(c));
		return -1;
	}
	b.clen = (uint32_t)c;
	b.rlen = (uint32_t)r->raw.n;
	rec_block_put(r->out.p, &b);
	b.crc = rec_block_crc(r->out.p, r->out.p + REC_BLOCK_HDR, c);
	rec_block_put(r->out.p, &b);
	size_t n = REC_BLOCK_HDR + c;
	/* the rest of a short write again: the write that fails says why (a full disk) */
	size_t done = 0;
	ssize_t w = 0;
	while (done < n &&
	       ((w = write(r->fd, r->out.p + done, n - done)) > 0 || (w < 0 && errno == EINTR)))
		done += w > 0 ? (size_t)w : 0;
	if (done != n) {
		snprintf(err, errlen, "%s: writing a sample: %s", r->shown,
			 w < 0 ? strerror(errno) : "nothing written");
		/* a partial block is cut off, the next sample starts over with a keyframe */
		if (done && ftruncate(r->fd, r->size))
			snprintf(err, errlen, "%s: cutting off a partial sample: %s", r->shown,
				 strerror(errno));
		r->since_key = REC_KEYFRAME;
		return -1;
	}
	r->size += (long)n;
	r->since_key = key ? 1 : r->since_key + 1;
	return 0;
}

bool recorder_warning(struct recorder *r, char *buf, size_t size)
{
	if (!r || !r->warn[0])
		return false;
	snprintf(buf, size, "%s", r->warn);
	r->warn[0] = '\0';
	return true;
}

void recorder_close(struct recorder *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	rec_state_free(&r->st);
	ZSTD_freeCCtx(r->zc);
	free(r->raw.p);
	free(r->out.p);
	free(r->hdr.p);
	free(r);
}
