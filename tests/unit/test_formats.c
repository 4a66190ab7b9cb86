/* The formatters of text.c and cells.c against the implementations they replaced (snprintf
 * and stdio, kept here as they were), over many values: the edges of each unit and of
 * rounding, exact half-way cases, random values of every size, and random strings of the
 * bytes escaping cares about, cut to every buffer size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "text.h"
#include "unit.h"

static uint64_t seed = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	seed ^= seed >> 12;
	seed ^= seed << 25;
	seed ^= seed >> 27;
	return seed * 2685821657736338717ull;
}

/* ---- the implementations replaced ---- */

static void old_fmt_kb(uint64_t kb, char *buf, size_t size)
{
	static const char units[] = "KMGTP";
	uint64_t div = 1;
	int u = 0;
	while (kb / div >= 1000 && u < 4) {
		div *= 1024;
		u++;
	}
	uint64_t tenths = (kb * 10 + div / 2) / div;
	if (u == 0)
		snprintf(buf, size, "%lluK", (unsigned long long)kb);
	else if (tenths < 100)
		snprintf(buf, size, "%llu.%llu%c", (unsigned long long)(tenths / 10),
			 (unsigned long long)(tenths % 10), units[u]);
	else
		snprintf(buf, size, "%llu%c", (unsigned long long)((kb + div / 2) / div), units[u]);
}

static void old_fmt_rate(double v, char *buf, size_t size)
{
	if (v < 0)
		v = 0;
	if (v == 0)
		snprintf(buf, size, "0");
	else if (v < 9.95)
		snprintf(buf, size, "%.1f", v);
	else if (v < 99999.5)
		snprintf(buf, size, "%.0f", v);
	else if (v < 9.95e6)
		snprintf(buf, size, "%.1fM", v / 1e6);
	else
		snprintf(buf, size, "%.0fM", v / 1e6);
}

static const struct {
	uint32_t lo, hi;
} old_invisible[] = {
	{0x00ad, 0x00ad},   {0x0600, 0x0605},	{0x061c, 0x061c},   {0x06dd, 0x06dd},
	{0x070f, 0x070f},   {0x0890, 0x0891},	{0x08e2, 0x08e2},   {0x180e, 0x180e},
	{0x200b, 0x200f},   {0x2028, 0x2029},	{0x202a, 0x202e},   {0x2060, 0x2064},
	{0x2066, 0x206f},   {0xfeff, 0xfeff},	{0xfff9, 0xfffb},   {0x110bd, 0x110bd},
	{0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},
	{0xe0001, 0xe0001}, {0xe0020, 0xe007f},
};

static bool old_is_invisible(uint32_t cp)
{
	for (size_t i = 0; i < sizeof(old_invisible) / sizeof(old_invisible[0]); i++)
		if (cp >= old_invisible[i].lo && cp <= old_invisible[i].hi)
			return true;
	return false;
}

static size_t old_utf8_decode(const unsigned char *s, uint32_t *out)
{
	size_t n;
	uint32_t min, cp;
	if (s[0] < 0x80) {
		*out = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (cp >= 0x80 && cp < 0xa0)
		return 0;
	*out = cp;
	return n;
}

static size_t old_escape_display(const char *s, char *out, size_t size, bool utf8)
{
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)s;
	if (size == 0)
		return 0;
	while (*p) {
		char tmp[16];
		size_t n = 1;
		uint32_t cp;
		const char *piece = tmp;
		if (*p == 0x1b) {
			strcpy(tmp, "\\e");
		} else if (*p == '\n') {
			strcpy(tmp, "\\n");
		} else if (*p == '\t') {
			strcpy(tmp, "\\t");
		} else if (*p == '\\') {
			strcpy(tmp, "\\\\");
		} else if (*p < 0x20 || *p == 0x7f) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", *p);
		} else if (*p >= 0x80 && (!utf8 || (n = old_utf8_decode(p, &cp)) == 0)) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", *p);
			n = 1;
		} else if (*p >= 0x80 && old_is_invisible(cp)) {
			if (cp > 0xffff)
				snprintf(tmp, sizeof(tmp), "\\U%08x", (unsigned)cp);
			else
				snprintf(tmp, sizeof(tmp), "\\u%04x", (unsigned)cp);
		} else {
			piece = (const char *)p;
			size_t len = *p < 0x80 ? 1 : n;
			if (o + len + 1 > size)
				break;
			memcpy(out + o, piece, len);
			o += len;
			p += len;
			continue;
		}
		size_t len = strlen(piece);
		if (o + len + 1 > size)
			break;
		memcpy(out + o, piece, len);
		o += len;
		p += n;
	}
	out[o] = '\0';
	return o;
}

static void old_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	fputc('"', f);
	while (*p) {
		size_t n;
		uint32_t cp;
		if (*p == '"' || *p == '\\') {
			fputc('\\', f);
			fputc(*p, f);
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
			p++;
		} else if (*p < 0x80) {
			fputc(*p, f);
			p++;
		} else if ((n = old_utf8_decode(p, &cp)) != 0 && old_is_invisible(cp)) {
			if (cp > 0xffff)
				fprintf(f, "\\u%04x\\u%04x", 0xd800 + ((cp - 0x10000) >> 10),
					0xdc00 + ((cp - 0x10000) & 0x3ff));
			else
				fprintf(f, "\\u%04x", cp);
			p += n;
		} else if (n != 0) {
			fwrite(p, 1, n, f);
			p += n;
		} else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0) {
			fprintf(f, "\\u%04x", p[1]);
			p += 2;
		} else {
			fprintf(f, "\\u%04x", *p);
			p++;
		}
	}
	fputc('"', f);
}

/* cells.c's tree_prefix as it was (snprintf per level) */
static int old_tree_prefix(const struct row *r, char *buf, size_t size, bool utf8, int max_cols)
{
	size_t n = 0;
	unsigned from = 1;
	buf[0] = '\0';
	if (max_cols >= 0 && r->depth * 3 > (unsigned)max_cols)
		from = r->depth - (unsigned)max_cols / 3 + 1;
	for (unsigned d = from; d <= r->depth && n < size; d++) {
		const char *s;
		if (d < r->depth)
			s = d <= 64 && r->more >> (d - 1) & 1 ? (utf8 ? "│  " : "|  ") : "   ";
		else
			s = r->last ? (utf8 ? "└─ " : "`- ") : (utf8 ? "├─ " : "|- ");
		int k = snprintf(buf + n, size - n, "%s", s);
		if (k < 0 || (size_t)k >= size - n) {
			buf[n] = '\0';
			return (int)(d - from) * 3;
		}
		n += (size_t)k;
	}
	return from <= r->depth ? (int)(r->depth - from + 1) * 3 : 0;
}

static void old_cmd_cell(const struct row *r, char *buf, size_t size, bool utf8, int width)
{
	char cmd[1024];
	int w = old_tree_prefix(r, buf, size, utf8, width < 0 ? -1 : width - 8);
	size_t n = strlen(buf);
	old_escape_display(r->p->cmd, cmd, sizeof(cmd), utf8);
	snprintf(buf + n, size - n, "%s",
		 width >= 0 && w + (int)strlen(cmd) > width ? cmd_short(cmd) : cmd);
}

/* ---- values ---- */

/* kb around where fmt_kb changes unit or rounding, in every unit */
static void kb_matches(uint64_t kb)
{
	char a[32], b[32];
	memset(a, 'x', sizeof(a));
	memset(b, 'x', sizeof(b));
	size_t n = fmt_kb(kb, a, sizeof(a));
	old_fmt_kb(kb, b, sizeof(b));
	if (strcmp(a, b) || n != strlen(b))
		fail_msg("fmt_kb(%llu) = \"%s\" (%zu), was \"%s\"", (unsigned long long)kb, a, n,
			 b);
}

static void kb_as_before(void **state)
{
	(void)state;
	for (uint64_t kb = 0; kb < 300000; kb++)
		kb_matches(kb);
	for (int u = 1; u <= 5; u++) {
		uint64_t div = 1ull << (10 * u);
		/* the unit's start, its tenths up to 10, its end, each within +-3 */
		for (uint64_t t = 9995; t <= 10005; t++)
			for (uint64_t d = 0; d < 7; d++)
				kb_matches(t * div / 10 + d - 3);
		for (uint64_t t = 10; t <= 100; t++)
			for (uint64_t d = 0; d < 7; d++) {
				kb_matches(t * div / 10 - div / 20 + d - 3);
				kb_matches(t * div + div / 2 + d - 3);
			}
		for (uint64_t d = 0; d < 2000; d++)
			kb_matches(999 * div + div / 2 - 1000 + d);
	}
	for (int i = 0; i < 300000; i++)
		kb_matches(rnd() >> (rnd() % 64));
	kb_matches(UINT64_MAX);
	kb_matches(UINT64_MAX / 10 + 1); /* where kb * 10 wraps, as it did */
	/* cut as snprintf cuts */
	for (size_t size = 0; size < 8; size++) {
		uint64_t kb = 1023488;
		char a[8] = "zzzzzzz", b[8] = "zzzzzzz";
		size_t n = fmt_kb(kb, a, size);
		old_fmt_kb(kb, b, size);
		assert_memory_equal(a, b, sizeof(a));
		assert_int_equal(n, size ? strlen(b) : 0);
	}
}

static void u64_matches(uint64_t v)
{
	char a[32], b[32];
	size_t n = fmt_u64(v, a);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	if (n != strlen(b) || memcmp(a, b, n))
		fail_msg("fmt_u64(%s) = \"%.*s\"", b, (int)n, a);
}

/* the integers of JSON, as printf writes them: every power of ten and beside it, and
 * random ones of every length */
static void u64_as_printf(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 100000; v++)
		u64_matches(v);
	for (uint64_t p = 1; p <= 10000000000000000000ull; p *= 10) {
		u64_matches(p - 1);
		u64_matches(p);
		u64_matches(p + 1);
		if (p == 10000000000000000000ull)
			break;
	}
	u64_matches(UINT64_MAX);
	for (int i = 0; i < 300000; i++)
		u64_matches(rnd() >> (rnd() % 64));
}

/* doubles of every size, and those around every tie of 1, 2 and 3 decimals */
static double some_double(void)
{
	uint64_t r = rnd();
	switch (r % 6) {
	case 0: /* anything, with a random exponent */
		return ldexp((double)(rnd() >> 11), (int)(rnd() % 120) - 100);
	case 1: /* a tie of 1 to 3 decimals, or beside one */
	{
		double t = (double)(rnd() % 2000000) / (r >> 3 & 1 ? 200.0 : 2000.0);
		int k = (int)((r >> 8) % 3);
		return k == 0 ? t : k == 1 ? nextafter(t, 0) : nextafter(t, INFINITY);
	}
	case 2: /* exact binary ties: eighths */
		return (double)(rnd() % 1000000) / 8.0;
	case 3: /* the rates' and shares' edges */
	{
		static const double edges[] = {9.95, 99999.5, 9.95e6, 99.95, 0.05, 0.95, 1e6, 0};
		double e = edges[(r >> 4) % 8];
		int k = (int)((r >> 8) % 5);
		for (int i = 0; i < k; i++)
			e = r >> 12 & 1 ? nextafter(e, INFINITY) : nextafter(e, 0);
		return e;
	}
	case 4: /* rates as the model makes them */
		return (double)(rnd() >> (rnd() % 64)) / (1 + (double)(rnd() % 100000) / 1000.0);
	default: /* integers */
		return (double)(rnd() >> (rnd() % 64));
	}
}

static void fixed_matches(double v, int dec)
{
	char a[400], b[400];
	size_t n = fmt_fixed(v, dec, a, sizeof(a));
	snprintf(b, sizeof(b), "%.*f", dec, v);
	if (strcmp(a, b) || n != strlen(b))
		fail_msg("fmt_fixed(%a, %d) = \"%s\", printf says \"%s\"", v, dec, a, b);
}

static void rate_matches(double v)
{
	char a[400], b[400];
	size_t n = fmt_rate(v, a, sizeof(a));
	old_fmt_rate(v, b, sizeof(b));
	if (strcmp(a, b) || n != strlen(b))
		fail_msg("fmt_rate(%a) = \"%s\", was \"%s\"", v, a, b);
}

static void fixed_and_rates_as_before(void **state)
{
	(void)state;
	static const double odd[] = {0.0,	  -0.0,
				     -1.5,	  NAN,
				     -NAN,	  INFINITY,
				     -INFINITY,	  1e300,
				     0x1p52,	  0x1p52 - 0.5,
				     0x1p53 + 2,  4.9e-324,
				     1e-310,	  2.2250738585072014e-308,
				     0.25,	  0.35,
				     0.125,	  0.375,
				     2.5,	  3.5,
				     9.949999,	  9.95,
				     99999.49999, 99999.5,
				     9949999.999, 9.95e6,
				     1e18,	  1.8e19,
				     0.0005,	  0.0015,
				     0.0025,	  1.0005,
				     99.95,	  99.949999};
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		for (int d = 0; d <= 3; d++)
			fixed_matches(odd[i], d);
		rate_matches(odd[i]);
	}
	for (int i = 0; i < 1000000; i++) {
		double v = some_double();
		fixed_matches(v, (int)(rnd() % 4));
		rate_matches(v);
	}
	for (int k = 0; k <= 200000; k++) { /* every hundredth and twentieth */
		fixed_matches(k / 100.0, 1);
		fixed_matches(k / 20.0, 0);
		fixed_matches(k / 1000.0, 2);
		rate_matches(k / 100.0);
		rate_matches(k * 50.0);
	}
	/* cut as snprintf cuts */
	for (size_t size = 0; size < 8; size++) {
		char a[8] = "zzzzzzz", b[8] = "zzzzzzz";
		fmt_rate(2500000, a, size);
		old_fmt_rate(2500000, b, size);
		assert_memory_equal(a, b, sizeof(a));
		char c[8] = "zzzzzzz", d[8] = "zzzzzzz";
		fmt_fixed(123.456, 2, c, size);
		snprintf(d, size, "%.2f", 123.456);
		assert_memory_equal(c, d, sizeof(c));
	}
}

/* ---- strings ---- */

/* a string of the bytes escaping treats apart: plain runs, quotes, backslashes, controls,
 * UTF-8 of 2 to 4 bytes, invisible characters, C1, invalid and cut sequences */
static size_t some_string(char *s, size_t max)
{
	static const char *const pieces[] = {"abc",
					     "x",
					     " ",
					     "\\",
					     "\"",
					     "\x1b",
					     "\n",
					     "\t",
					     "\x01",
					     "\x7f",
					     "\xc3\xa9",
					     "\xe5\x90\x8d",
					     "\xf0\x9f\x90\xa7",
					     "\xe2\x80\xae",
					     "\xef\xbb\xbf",
					     "\xf3\xa0\x80\x81",
					     "\xc2\x9b",
					     "\xc2\x85",
					     "\xff",
					     "\xfe",
					     "\x80",
					     "\xe2\x82",
					     "\xc3",
					     "\xed\xa0\x80",
					     "\xf4\x90\x80\x80",
					     "\xc0\xaf",
					     "/usr/bin/",
					     "-x",
					     "["};
	size_t n = 0, k = rnd() % 40;
	for (size_t i = 0; i < k; i++) {
		const char *p = pieces[rnd() % (sizeof(pieces) / sizeof(pieces[0]))];
		size_t len = strlen(p);
		if (n + len + 1 > max)
			break;
		memcpy(s + n, p, len);
		n += len;
	}
	s[n] = '\0';
	return n;
}

static void escape_as_before(void **state)
{
	(void)state;
	char s[400], a[2000], b[2000];
	for (int i = 0; i < 10000; i++) {
		size_t len = some_string(s, sizeof(s));
		bool utf8 = i % 2;
		/* every size up to the whole and beyond for some strings, some sizes for the
		 * others */
		for (size_t k = 0, size = 0; size < 4 * len + 12;
		     k++, size = i < 1000 ? k
				 : k < 8  ? rnd() % (4 * len + 12)
					  : 4 * len + 12) {
			memset(a, 'z', size + 2);
			memset(b, 'z', size + 2);
			size_t n = escape_display(s, a, size, utf8);
			size_t m = old_escape_display(s, b, size, utf8);
			if (n != m || memcmp(a, b, size + 2))
				fail_msg("escape_display(\"%s\", %zu, %d) = \"%.*s\", was \"%.*s\"",
					 s, size, utf8, (int)size, a, (int)size, b);
		}
	}
}

/* every byte at every place of a run of plain text (where escaping reads a word at a
 * time) */
static const char *one_byte_string(int i, char *s)
{
	int byte = i % 255 + 1, at = i / 255 % 20;
	memcpy(s, "abcdefghijklmnopqrst", 21);
	s[at] = (char)byte;
	return s;
}

static void escape_every_byte(void **state)
{
	(void)state;
	char s[24], a[200], b[200];
	for (int i = 0; i < 255 * 20 * 2; i++) {
		one_byte_string(i, s);
		bool utf8 = i >= 255 * 20;
		size_t n = escape_display(s, a, sizeof(a), utf8);
		size_t m = old_escape_display(s, b, sizeof(b), utf8);
		if (n != m || strcmp(a, b))
			fail_msg("escape_display(\"%s\") = \"%s\", was \"%s\"", s, a, b);
	}
}

static void json_as_before(void **state)
{
	(void)state;
	static char s[4000];
	for (int i = 0; i < 50000; i++) {
		if (i < 255 * 20) {
			one_byte_string(i, s);
		} else if (i % 50 == 0) { /* longer than json_string's buffer */
			size_t n = 0;
			while (n < 1000 + rnd() % 2500)
				n += some_string(s + n, sizeof(s) - n);
		} else {
			some_string(s, 400);
		}
		char *a = NULL, *b = NULL;
		size_t na = 0, nb = 0;
		FILE *f = open_memstream(&a, &na);
		json_string(f, i ? s : NULL);
		fclose(f);
		f = open_memstream(&b, &nb);
		old_json_string(f, i ? s : NULL);
		fclose(f);
		if (na != nb || memcmp(a, b, na))
			fail_msg("json_string(\"%s\") = %s, was %s", s, a, b);
		char *q = malloc(json_quote_max(i ? s : NULL));
		size_t nq = json_quote(i ? s : NULL, q);
		if (nq != nb || memcmp(q, b, nb))
			fail_msg("json_quote(\"%s\") = %.*s, was %s", s, (int)nq, q, b);
		free(q);
		free(a);
		free(b);
	}
}

/* The COMMAND cell (tree lines, escaping, the short form, the 1023-byte cut) in buffers of
 * every size and columns of every width */
static void cmd_cell_as_before(void **state)
{
	(void)state;
	static char cmd[3000];
	char a[2200], b[2200];
	for (int i = 0; i < 3000; i++) {
		struct proc_sample p = {.pid = 1};
		struct row r = {.p = &p};
		size_t n = 0;
		if (i % 3 == 0) { /* long: past 1023 bytes once escaped */
			while (n < 1000 + rnd() % 1500)
				n += some_string(cmd + n, sizeof(cmd) - n);
		} else {
			n = some_string(cmd, sizeof(cmd));
		}
		p.cmd = cmd;
		r.depth = (uint16_t)(i % 4 == 0 ? 0 : rnd() % 90);
		r.last = rnd() & 1;
		r.more = rnd();
		bool utf8 = rnd() & 1;
		static const size_t sizes[] = {1, 2, 5, 40, 1000, 1023, 1024, 1025, 1280, 2200};
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			int width = i % 2 ? -1 : (int)(rnd() % 300);
			size_t size = sizes[k];
			memset(a, 'z', sizeof(a));
			memset(b, 'z', sizeof(b));
			size_t len = cmd_cell(&r, a, size, utf8, width);
			old_cmd_cell(&r, b, size, utf8, width);
			/* the same text, and nothing written past size */
			if (strcmp(a, b) || len != strlen(b) ||
			    memcmp(a + size, b + size, sizeof(a) - size))
				fail_msg(
					"cmd_cell(size %zu, width %d, depth %u) = \"%.60s\" (%zu), "
					"was \"%.60s\"",
					size, width, r.depth, a, len, b);
		}
	}
}

UNIT_GROUP(formats)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(u64_as_printf),
		cmocka_unit_test(kb_as_before),
		cmocka_unit_test(fixed_and_rates_as_before),
		cmocka_unit_test(escape_as_before),
		cmocka_unit_test(escape_every_byte),
		cmocka_unit_test(json_as_before),
		cmocka_unit_test(cmd_cell_as_before),
	};
	return cmocka_run_group_tests_name("formats", tests, NULL, NULL);
}
