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

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned min;
	unsigned cp;
	if (s[0] < 0x80)
		return 1;
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
	return n;
}

size_t escape_display(const char *s, char *out, size_t size, bool utf8)
{
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)s;
	if (size == 0)
		return 0;
	while (*p) {
		char tmp[8];
		size_t n = 1;
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
		} else if (*p >= 0x80 && (!utf8 || (n = utf8_len(p)) == 0)) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", *p);
			n = 1;
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
		} else if ((n = utf8_len(p)) != 0) {
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
