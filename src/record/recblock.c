/* The recording's blocks (recblock.h): their header on disk, its checksum, and the walk
 * over a file's blocks that passes damage over. */
#include "recblock.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "bytebuf.h"
#include "util.h"

void rec_block_put(uint8_t *out, const struct rec_block *b)
{
	uint64_t bits;
	memcpy(&bits, &b->wall, 8);
	put_le32(out, REC_BLOCK_MAGIC);
	put_le32(out + 4, b->clen);
	put_le32(out + 8, b->rlen);
	put_le32(out + 12, b->flags);
	put_le32(out + 16, (uint32_t)bits);
	put_le32(out + 20, (uint32_t)(bits >> 32));
	put_le32(out + 24, b->crc);
}

bool rec_block_get(const uint8_t *in, struct rec_block *b)
{
	if (get_le32(in) != REC_BLOCK_MAGIC)
		return false;
	uint64_t bits = get_le32(in + 16) | (uint64_t)get_le32(in + 20) << 32;
	b->clen = get_le32(in + 4);
	b->rlen = get_le32(in + 8);
	b->flags = get_le32(in + 12);
	memcpy(&b->wall, &bits, 8);
	b->crc = get_le32(in + 24);
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

static uint64_t bytes_read; /* by the walks, for rec_walk_read */

uint64_t rec_walk_read(void)
{
	return bytes_read;
}

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
	bytes_read += want;
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
 * goes on past damage; -1 where there is none. Look-alikes that do not hold together cost
 * the bytes of their frame, which are checksummed: *spent counts them, and none is
 * checked past budget (damage made of look-alikes each claiming the rest of the file
 * would otherwise cost the square of its size), so that a walk reads a file a few times
 * at most. */
static long resync(int fd, long off, long size, long *spent, long budget)
{
	uint8_t chunk[65536], hdr[REC_BLOCK_HDR], *frame = NULL;
	struct rec_block b;
	long found = -1;

	/* chunks overlapping by 3 bytes, so that a magic across two is seen */
	for (long at = off + 1; found < 0 && at + REC_BLOCK_HDR <= size; at += sizeof(chunk) - 3) {
		ssize_t n = pread(fd, chunk, sizeof(chunk), at);
		bytes_read += sizeof(chunk);
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
			if (*spent > budget - (long)b.clen)
				goto out; /* checked enough look-alikes */
			frame = xrealloc(frame, b.clen + 1);
			bytes_read += b.clen;
			if (pread(fd, frame, b.clen, o + REC_BLOCK_HDR) == (ssize_t)b.clen &&
			    block_ok(&b, frame))
				found = o;
			else
				*spent += (long)b.clen;
		}
	}
out:
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
	/* the bytes of keyframe look-alikes checked in vain: twice the file's, at most */
	long spent = 0, budget = 2 * (size - off) + REC_BLOCK_HDR;

	for (;;) {
		long end = scan(fd, off, size, check, walk_block, &w, why);
		bool damaged = *why && !strcmp(*why, "damaged");
		/* a block cut short with a keyframe after it: its length is what is damaged */
		long next = *why ? resync(fd, end, size, &spent, budget) : -1;
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
