#include "text.h"

#include <string.h>

void fmt_kb(uint64_t kb, char *buf, size_t size)
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

void fmt_rate(double v, char *buf, size_t size)
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

static bool is_invisible(uint32_t cp)
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

/* Length of the valid UTF-8 sequence at s, its code point in *out; 0 when it is not one. */
static size_t utf8_decode(const unsigned char *s, uint32_t *out)
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

size_t escape_display(const char *s, char *out, size_t size, bool utf8)
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
		} else if (*p >= 0x80 && (!utf8 || (n = utf8_decode(p, &cp)) == 0)) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", *p);
			n = 1;
		} else if (*p >= 0x80 && is_invisible(cp)) {
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

void json_string(FILE *f, const char *s)
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
		} else if ((n = utf8_decode(p, &cp)) != 0 && is_invisible(cp)) {
			if (cp > 0xffff) /* as a UTF-16 surrogate pair */
				fprintf(f, "\\u%04x\\u%04x", 0xd800 + ((cp - 0x10000) >> 10),
					0xdc00 + ((cp - 0x10000) & 0x3ff));
			else
				fprintf(f, "\\u%04x", cp);
			p += n;
		} else if (n != 0) {
			fwrite(p, 1, n, f);
			p += n;
		} else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0) {
			fprintf(f, "\\u%04x", p[1]); /* C1 control, escaped as itself */
			p += 2;
		} else {
			fprintf(f, "\\u%04x", *p);
			p++;
		}
	}
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
