#include "text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t fmt_cut(const char *t, size_t n, char *buf, size_t size)
{
	if (size == 0)
		return 0;
	if (n > size - 1)
		n = size - 1;
	memmove(buf, t, n);
	buf[n] = '\0';
	return n;
}

size_t fmt_u64(uint64_t v, char *out)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	if (v < 100) { /* most figures */
		if (v < 10) {
			out[0] = (char)('0' + v);
			return 1;
		}
		memcpy(out, pairs + v * 2, 2);
		return 2;
	}
	size_t n = 3;
	for (uint64_t x = v / 100; x >= 10; x /= 10)
		n++;
	char *o = out + n;
	for (; v >= 100; v /= 100) {
		o -= 2;
		memcpy(o, pairs + v % 100 * 2, 2);
	}
	if (v >= 10)
		memcpy(o - 2, pairs + v * 2, 2);
	else
		o[-1] = (char)('0' + v);
	return n;
}

size_t fmt_kb(uint64_t kb, char *buf, size_t size)
{
	static const char units[] = "KMGTP";
	unsigned shift = 0; /* the unit is 2^shift KiB */
	int u = 0;
	char t[24], *o = size >= sizeof(t) ? buf : t; /* where it fits, straight into buf */
	size_t n;
	while (kb >> shift >= 1000 && u < 4) {
		shift += 10;
		u++;
	}
	uint64_t half = (1ull << shift) / 2, tenths = (kb * 10 + half) >> shift;
	if (u == 0) {
		n = fmt_u64(kb, o);
	} else if (tenths < 100) {
		o[0] = (char)('0' + tenths / 10);
		o[1] = '.';
		o[2] = (char)('0' + tenths % 10);
		n = 3;
	} else {
		n = fmt_u64((kb + half) >> shift, o);
	}
	o[n++] = units[u];
	if (o == t)
		return fmt_cut(t, n, buf, size);
	buf[n] = '\0';
	return n;
}

size_t fmt_skb(double kb, char *buf, size_t size)
{
	char t[32];
	double a = kb < 0 ? -kb : kb;

	if (a < 0.5)
		return fmt_cut("0", 1, buf, size);
	t[0] = kb < 0 ? '-' : '+';
	size_t n = 1 + fmt_kb(u64_held(a + 0.5), t + 1, sizeof(t) - 1);
	return fmt_cut(t, n, buf, size);
}

size_t fmt_secs(double secs, char *buf, size_t size)
{
	char t[32];
	int n = secs < 99.5    ? snprintf(t, sizeof(t), "%.0fs", secs)
		: secs < 5970  ? snprintf(t, sizeof(t), "%.0fm", secs / 60)
		: secs < 3.6e5 ? snprintf(t, sizeof(t), "%.0fh", secs / 3600)
			       : snprintf(t, sizeof(t), "%.0fd", secs / 86400);
	return fmt_cut(t, n < 0 ? 0 : (size_t)n, buf, size);
}

/* v (0 <= v < 2^52) times 10^decimals (up to 3), rounded as printf rounds: the exact
 * binary value of v, half-way cases to even */
static uint64_t scaled(double v, int decimals)
{
	static const uint64_t pow10[] = {1, 10, 100, 1000};
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	unsigned exp = (unsigned)(bits >> 52) & 0x7ff;
	uint64_t m = bits & ((1ull << 52) - 1);
	unsigned shift = exp ? 1075 - exp : 1074; /* v = m / 2^shift, shift >= 1 below 2^52 */
	if (exp)
		m |= 1ull << 52;
	uint64_t x = m * pow10[decimals]; /* below 2^63 */
	if (shift >= 64)		  /* below half a unit */
		return 0;
	uint64_t q = x >> shift, r = x & ((1ull << shift) - 1), half = 1ull << (shift - 1);
	return q + (r > half || (r == half && (q & 1)));
}

/* "%.*f" of v into t (at least 24 bytes), for 0 <= v < 2^52 and decimals 0 to 3 */
static size_t fixed(double v, int decimals, char *t)
{
	static const unsigned pow10[] = {1, 10, 100, 1000};
	uint64_t whole = (uint64_t)v;
	uint64_t q = (double)whole == v ? whole * pow10[decimals] : scaled(v, decimals);
	size_t n = fmt_u64(q / pow10[decimals], t);
	if (decimals) {
		unsigned f = (unsigned)(q % pow10[decimals]);
		t[n++] = '.';
		for (int d = decimals - 1; d >= 0; d--, f /= 10)
			t[n + (size_t)d] = (char)('0' + f % 10);
		n += (size_t)decimals;
	}
	return n;
}

static bool fixed_fits(double v, int decimals)
{
	/* not for -0 ("-0.0"), NaN, infinities */
	return !signbit(v) && v < 0x1p52 && decimals >= 0 && decimals <= 3;
}

size_t fmt_fixed(double v, int decimals, char *buf, size_t size)
{
	char t[32];
	if (!fixed_fits(v, decimals)) {
		int n = snprintf(buf, size, "%.*f", decimals, v);
		return n < 0 || size == 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	}
	if (size > sizeof(t)) { /* it fits: straight into buf */
		size_t n = fixed(v, decimals, buf);
		buf[n] = '\0';
		return n;
	}
	return fmt_cut(t, fixed(v, decimals, t), buf, size);
}

size_t fmt_rate(double v, char *buf, size_t size)
{
	char t[32];
	size_t n;
	if (v < 0)
		v = 0;
	if (v == 0) {
		t[0] = '0';
		n = 1;
	} else if (v < 9.95) {
		n = fixed(v, 1, t);
	} else if (v < 99999.5) {
		n = fixed(v, 0, t);
	} else if (v < 9.95e6) {
		n = fixed(v / 1e6, 1, t);
		t[n++] = 'M';
	} else if (fixed_fits(v / 1e6, 0)) {
		n = fixed(v / 1e6, 0, t);
		t[n++] = 'M';
	} else {
		int k = snprintf(buf, size, "%.0fM", v / 1e6);
		return k < 0 || size == 0 ? 0 : (size_t)k < size ? (size_t)k : size - 1;
	}
	return fmt_cut(t, n, buf, size);
}

/* Characters that draw nothing yet change how the text around them reads: Unicode's
 * format characters (general category Cf, as of Unicode 15.1: bidi embeddings,
 * overrides, isolates and marks, zero-width spaces and joiners, the byte order mark,
 * tag characters...), and the line and paragraph separators (Zl, Zp), which some
 * terminals take as line breaks. glibc's iswcntrl() and iswprint() do not single them
 * out (U+202E and U+200B are "printable", with a width of 0), so the list is memtop's own;
 * ranges in order, for a binary search. */
static const struct {
	uint32_t lo, hi;
} invisible[] = {
	{0x00ad, 0x00ad},   /* soft hyphen */
	{0x0600, 0x0605},   /* Arabic number signs */
	{0x061c, 0x061c},   /* Arabic letter mark */
	{0x06dd, 0x06dd},   /* Arabic end of ayah */
	{0x070f, 0x070f},   /* Syriac abbreviation mark */
	{0x0890, 0x0891},   /* Arabic pound and piastre marks above */
	{0x08e2, 0x08e2},   /* Arabic disputed end of ayah */
	{0x180e, 0x180e},   /* Mongolian vowel separator */
	{0x200b, 0x200f},   /* zero width space, (non-)joiner, LRM, RLM */
	{0x2028, 0x2029},   /* line and paragraph separators (Zl, Zp) */
	{0x202a, 0x202e},   /* LRE, RLE, PDF, LRO, RLO */
	{0x2060, 0x2064},   /* word joiner, invisible operators */
	{0x2066, 0x206f},   /* LRI, RLI, FSI, PDI, deprecated format characters */
	{0xfeff, 0xfeff},   /* zero width no-break space, byte order mark */
	{0xfff9, 0xfffb},   /* interlinear annotation */
	{0x110bd, 0x110bd}, /* Kaithi number sign */
	{0x110cd, 0x110cd}, /* Kaithi number sign above */
	{0x13430, 0x1343f}, /* Egyptian hieroglyph format controls */
	{0x1bca0, 0x1bca3}, /* shorthand format controls */
	{0x1d173, 0x1d17a}, /* musical symbol beam, tie, slur, phrase */
	{0xe0001, 0xe0001}, /* language tag */
	{0xe0020, 0xe007f}, /* tag characters */
};

bool char_invisible(uint32_t cp)
{
	size_t lo = 0, hi = sizeof(invisible) / sizeof(invisible[0]);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cp < invisible[mid].lo)
			hi = mid;
		else if (cp > invisible[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

size_t utf8_decode(const unsigned char *s, uint32_t *out)
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
	if (cp >= 0x80 && cp < 0xa0) /* C1 controls, CSI among them */
		return 0;
	*out = cp;
	return n;
}

/* A word's bytes that are not shown as they are (high bit of each such byte): controls,
 * DEL, bytes from 0x80, the backslash, and the byte of quote (a byte times ONES; 0: none) */
#define ONES  0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
static uint64_t zero_bytes(uint64_t y)
{
	return ~(((y & ~HIGHS) + ~HIGHS) | y) & HIGHS;
}

static uint64_t special_bytes(uint64_t x, uint64_t quote)
{
	uint64_t low7 = x & ~HIGHS;
	uint64_t ctl = ~(low7 + 0x60 * ONES) & ~x & HIGHS; /* below 0x20 */
	uint64_t high = ((low7 + ONES) | x) & HIGHS;	   /* 0x7f, and from 0x80 */
	return ctl | high | zero_bytes(x ^ ('\\' * ONES)) | (quote ? zero_bytes(x ^ quote) : 0);
}

/* The length of the run of printable ASCII at p, before end: bytes shown as they are
 * (not the backslash, nor the byte of quote). A word at a time. */
static size_t plain_run(const unsigned char *p, const unsigned char *end, uint64_t quote)
{
	const unsigned char *q = p;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; end - q >= 8; q += 8) {
		uint64_t x, m;
		memcpy(&x, q, sizeof(x));
		if ((m = special_bytes(x, quote)))
			return (size_t)(q - p) + (size_t)__builtin_ctzll(m) / 8;
	}
#endif
	for (; q < end && *q >= 0x20 && *q < 0x7f && *q != '\\' && *q != (quote & 0xff); q++)
		;
	return (size_t)(q - p);
}

size_t escape_codepoint(uint32_t cp, char *out)
{
	return (size_t)sprintf(out, cp > 0xffff ? "\\U%08x" : "\\u%04x", (unsigned)cp);
}

size_t escape_display(const char *s, char *out, size_t size, bool utf8)
{
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	if (size == 0)
		return 0;
	while (*p) {
		size_t run = plain_run(p, end, 0);
		if (run) { /* shown as it is */
			size_t k = o + run + 1 > size ? size - 1 - o : run;
			memcpy(out + o, p, k);
			o += k;
			if (k < run)
				break;
			p += run;
			continue;
		}
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
		} else if (*p >= 0x80 && (!utf8 || (n = utf8_decode(p, &cp)) == 0)) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", *p);
			n = 1;
		} else if (*p >= 0x80 && char_invisible(cp)) {
			tmp[escape_codepoint(cp, tmp)] = '\0';
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

/* Writes \uXXXX (lowercase hex) at o */
static char *json_u(char *o, unsigned v)
{
	static const char hex[] = "0123456789abcdef";
	o[0] = '\\';
	o[1] = 'u';
	o[2] = hex[v >> 12 & 0xf];
	o[3] = hex[v >> 8 & 0xf];
	o[4] = hex[v >> 4 & 0xf];
	o[5] = hex[v & 0xf];
	return o + 6;
}

/* Quotes the string at *p (ending at end) into out, while room for the longest escape of
 * a character (12 bytes) is left of room; moves *p past what it quoted. Returns the bytes
 * written. */
static size_t quote_some(const unsigned char **pp, const unsigned char *end, char *out, size_t room)
{
	const unsigned char *p = *pp;
	char *o = out;
	while (*p && room - (size_t)(o - out) >= 12) {
		size_t n = plain_run(p, end, '"' * ONES);
		uint32_t cp;
		if (n) {
			n = n < room - (size_t)(o - out) ? n : room - (size_t)(o - out);
			memcpy(o, p, n);
			o += n;
			p += n;
		} else if (*p == '"' || *p == '\\') {
			*o++ = '\\';
			*o++ = (char)*p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			o = json_u(o, *p++);
		} else if ((n = utf8_decode(p, &cp)) != 0 && char_invisible(cp)) {
			if (cp > 0xffff) { /* as a UTF-16 surrogate pair */
				o = json_u(o, 0xd800 + ((cp - 0x10000) >> 10));
				o = json_u(o, 0xdc00 + ((cp - 0x10000) & 0x3ff));
			} else {
				o = json_u(o, cp);
			}
			p += n;
		} else if (n != 0) {
			memcpy(o, p, n);
			o += n;
			p += n;
		} else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0) {
			o = json_u(o, p[1]); /* C1 control, escaped as itself */
			p += 2;
		} else {
			o = json_u(o, *p++);
		}
	}
	*pp = p;
	return (size_t)(o - out);
}

size_t json_quote(const char *s, char *out)
{
	const unsigned char *p = (const unsigned char *)(s ? s : ""), *end = p + strlen((char *)p);
	size_t n = quote_some(&p, end, out + 1, (size_t)-1 - 1);
	out[0] = '"';
	out[n + 1] = '"';
	return n + 2;
}

void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : ""), *end = p + strlen((char *)p);
	char buf[1024];
	fputc('"', f);
	while (*p)
		fwrite(buf, 1, quote_some(&p, end, buf, sizeof(buf)), f);
	fputc('"', f);
}

const char *cmd_short(const char *cmd)
{
	if (cmd[0] == '[')
		return cmd;
	const char *end = strchr(cmd, ' ');
	if (!end)
		end = cmd + strlen(cmd);
	const char *base = cmd;
	for (const char *c = cmd; c < end; c++)
		if (*c == '/' && c + 1 < end)
			base = c + 1;
	return base;
}
