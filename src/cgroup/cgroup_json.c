/* Just enough JSON for the container engines' files: see cgroup_json.h. */
#include "cgroup_json.h"

#include <stdint.h>
#include <string.h>

bool json_ws(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r'))
		(*p)++;
	return *p < end;
}

static int hex4(const char *s, const char *end)
{
	int v = 0;

	if (end - s < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return v;
}

/* cp in UTF-8 into u (4 bytes at most); its length */
static size_t utf8_put(uint32_t cp, char *u)
{
	if (cp < 0x80) {
		u[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	u[0] = (char)(0xf0 | cp >> 18);
	u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	u[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The \u escape at *s (at its backslash): its code point, *s past it */
static uint32_t unicode_escape(const char **s, const char *end)
{
	int hi = hex4(*s + 2, end);
	if (hi < 0)
		return UINT32_MAX;
	*s += 6;
	if (hi >= 0xd800 && hi < 0xdc00 && end - *s >= 6 && (*s)[0] == '\\' && (*s)[1] == 'u') {
		int lo = hex4(*s + 2, end);
		if (lo >= 0xdc00 && lo < 0xe000) {
			*s += 6;
			return 0x10000 + (((uint32_t)hi - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
		}
	}
	return hi == 0 || (hi >= 0xd800 && hi < 0xe000) ? '?' : (uint32_t)hi;
}

bool json_str(const char **p, const char *end, char *out, size_t size)
{
	const char *s = *p;
	size_t n = 0;
	bool full = !out || !size;

	if (s >= end || *s != '"')
		return false;
	for (s++; s < end && *s != '"';) {
		char u[4];
		size_t len = 1;
		if ((unsigned char)*s < 0x20)
			return false;
		if (*s != '\\') {
			u[0] = *s++;
		} else if (s + 1 >= end) {
			return false;
		} else if (s[1] == 'u') {
			uint32_t cp = unicode_escape(&s, end);
			if (cp == UINT32_MAX)
				return false;
			len = utf8_put(cp, u);
		} else {
			const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
			const char *at = memchr(from, s[1], 8);
			if (!s[1] || !at)
				return false;
			u[0] = to[at - from];
			s += 2;
		}
		if (!full && n + len < size) {
			memcpy(out + n, u, len);
			n += len;
		} else if (!full) { /* cut on a character's boundary: stop keeping */
			full = true;
		}
	}
	if (s >= end)
		return false;
	if (out && size)
		out[n] = '\0';
	*p = s + 1;
	return true;
}

bool json_skip(const char **p, const char *end)
{
	int depth = 0;

	do {
		if (!json_ws(p, end))
			return false;
		char c = **p;
		if (c == '"') {
			if (!json_str(p, end, NULL, 0))
				return false;
		} else if (c == '{' || c == '[') {
			if (++depth > 512)
				return false;
			(*p)++;
		} else if (c == '}' || c == ']') {
			if (--depth < 0)
				return false;
			(*p)++;
		} else if (c == ',' || c == ':') {
			if (!depth)
				return false;
			(*p)++;
		} else if ((c >= '0' && c <= '9') || c == '-' || (c >= 'a' && c <= 'z')) {
			while (*p < end && (**p == '-' || **p == '+' || **p == '.' ||
					    (**p >= '0' && **p <= '9') ||
					    (**p >= 'a' && **p <= 'z') || **p == 'E'))
				(*p)++;
		} else {
			return false;
		}
	} while (depth);
	return true;
}

bool json_key(const char **p, const char *end, char *key, size_t size, bool first)
{
	if (!json_ws(p, end))
		return false;
	if (**p == '}') {
		(*p)++;
		return false;
	}
	if (!first) {
		if (**p != ',')
			return false;
		(*p)++;
		json_ws(p, end);
	}
	if (!json_str(p, end, key, size) || !json_ws(p, end) || **p != ':')
		return false;
	(*p)++;
	return json_ws(p, end);
}

bool json_top_string(const char *text, size_t n, const char *key, char *out, size_t size)
{
	const char *p = text, *end = text + n;
	char k[64];

	if (!json_ws(&p, end) || *p != '{')
		return false;
	p++;
	for (bool first = true; json_key(&p, end, k, sizeof(k), first); first = false) {
		if (!strcmp(k, key) && *p == '"')
			return json_str(&p, end, out, size);
		if (!json_skip(&p, end))
			return false;
	}
	return false;
}
