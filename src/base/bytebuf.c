/* Bytes coded for a file (bytebuf.h) */
#include "bytebuf.h"

#include <string.h>

#include "util.h"

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

void put_le32(uint8_t *o, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		o[i] = (uint8_t)(v >> (8 * i));
}

uint32_t get_le32(const uint8_t *in)
{
	return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 |
	       (uint32_t)in[3] << 24;
}
