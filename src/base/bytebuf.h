/* Bytes coded for a file: a growing buffer to write them and a cursor to read them back,
 * with unsigned LEB128 varints, zigzag varints for signed values, length-prefixed strings
 * and little-endian 32-bit words. The recording's header and samples are written with
 * them (doc/recordings.md). */
#ifndef MEMTOP_BYTEBUF_H
#define MEMTOP_BYTEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* A 32-bit word at o, little-endian */
void put_le32(uint8_t *o, uint32_t v);
uint32_t get_le32(const uint8_t *in);

#endif
