#include "parse.h"

#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define QUOTE_IN 40 /* bytes of input a message quotes at most */

static bool locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && !strcmp(cs, "UTF-8");
}

const char *parse_quote(const char *s, char *buf, size_t size)
{
	char cut[QUOTE_IN + 1], esc[QUOTE_IN * 4 + 1]; /* a byte escapes to 4 at most */
	bool utf8 = locale_utf8();
	size_t n = strnlen(s, QUOTE_IN + 1);
	bool more = n > QUOTE_IN;

	if (!size)
		return buf;
	if (more)
		n = QUOTE_IN;
	for (;;) {
		/* never cut a UTF-8 character in two: s[n] is the first byte left out */
		while (more && n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		memcpy(cut, s, n);
		cut[n] = '\0';
		size_t len = escape_display(cut, esc, sizeof(esc), utf8);
		if (len + (more ? 3 : 0) < size || !n) {
			snprintf(buf, size, "%s%s", esc, more ? "..." : "");
			return buf;
		}
		n--;
		more = true;
	}
}

const char *parse_escape(const char *s, char *buf, size_t size)
{
	escape_display(s, buf, size, locale_utf8());
	return buf;
}

int parse_delay(const char *s, double *secs, char *err, size_t errlen)
{
	char *end, q[PARSE_QUOTE_SIZE];

	errno = 0;
	double d = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(d) || d < DELAY_MIN || d > DELAY_MAX) {
		snprintf(err, errlen, "seconds between %g and %g, not '%s'", DELAY_MIN, DELAY_MAX,
			 parse_quote(s, q, sizeof(q)));
		return -1;
	}
	*secs = d;
	return 0;
}

int parse_user(const char *s, uint32_t *uid, char *err, size_t errlen)
{
	struct passwd *pw = *s ? getpwnam(s) : NULL;
	char q[PARSE_QUOTE_SIZE];

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	if (*s && strspn(s, "0123456789") == strlen(s)) {
		errno = 0;
		unsigned long long v = strtoull(s, NULL, 10);
		if (!errno && v <= UINT32_MAX) {
			*uid = (uint32_t)v;
			return 0;
		}
	}
	snprintf(err, errlen, "no such user '%s'", parse_quote(s, q, sizeof(q)));
	return -1;
}

/* A process id at s, digits only; *end is where it stops. */
static bool pid_at(const char *s, const char **end, int32_t *pid)
{
	char *e;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	long v = strtol(s, &e, 10);
	*end = e;
	if (errno || v < 1 || v > INT32_MAX)
		return false;
	*pid = (int32_t)v;
	return true;
}

int parse_pid(const char *s, int32_t *pid, char *err, size_t errlen)
{
	const char *end;
	char q[PARSE_QUOTE_SIZE];

	if (!pid_at(s, &end, pid) || *end) {
		snprintf(err, errlen, "a PID, not '%s'", parse_quote(s, q, sizeof(q)));
		return -1;
	}
	return 0;
}

int parse_oom_adj(const char *s, int *adj, char *err, size_t errlen)
{
	char *end, q[PARSE_QUOTE_SIZE];
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < -1000 || v > 1000) {
		snprintf(err, errlen, "-1000 to 1000, not '%s'", parse_quote(s, q, sizeof(q)));
		return -1;
	}
	*adj = (int)v;
	return 0;
}

int parse_amount(const char *s, bool allow_max, uint64_t *bytes, char *err, size_t errlen)
{
	static const char units[] = "KMGT";
	char *end, q[PARSE_QUOTE_SIZE];
	const char *u;
	double v = NAN;

	if (allow_max && !strcmp(s, "max")) {
		*bytes = UINT64_MAX;
		return 0;
	}
	if (*s >= '0' && *s <= '9') { /* no sign, space, hex, inf or nan */
		errno = 0;
		v = strtod(s, &end);
		if (errno || end == s || (end[0] && end[1]) || strchr(s, 'x') || strchr(s, 'X') ||
		    strchr(s, 'e') || strchr(s, 'E'))
			v = NAN;
		else if ((*end & ~0x20) && (u = strchr(units, *end & ~0x20)))
			v = ldexp(v, 10 * (int)(u - units + 1));
		else if (*end)
			v = NAN;
	}
	if (!(v >= 4096 && v <= 0x1p60) || (v != floor(v) && !strpbrk(s, "KMGTkmgt"))) {
		snprintf(err, errlen, "a size like 250M, 1.5G%s (4K at least), not '%s'",
			 allow_max ? " or max" : "", parse_quote(s, q, sizeof(q)));
		return -1;
	}
	*bytes = (uint64_t)v;
	return 0;
}

int parse_pids(const char *s, int32_t *pids, int max, int *n, char *err, size_t errlen)
{
	const char *p = s, *end;
	char q[PARSE_QUOTE_SIZE];
	int count = 0;
	int32_t pid;

	do {
		if (!pid_at(p, &end, &pid) || (*end && *end != ',') || (*end == ',' && !end[1])) {
			snprintf(err, errlen, "PID[,PID...], not '%s'",
				 parse_quote(s, q, sizeof(q)));
			return -1;
		}
		if (count == max) {
			snprintf(err, errlen, "at most %d PIDs", max);
			return -1;
		}
		pids[count++] = pid;
		p = *end ? end + 1 : end;
	} while (*p);
	*n = count;
	return 0;
}

int parse_column(const char *s, enum col_id *col, char *err, size_t errlen)
{
	char q[PARSE_QUOTE_SIZE];
	int c = column_by_name(s);

	if (c < 0) {
		snprintf(err, errlen, "no column '%s'", parse_quote(s, q, sizeof(q)));
		return -1;
	}
	*col = (enum col_id)c;
	return 0;
}

int parse_order(const char *s, int8_t order[COL_COUNT], char *err, size_t errlen)
{
	int8_t rank[COL_COUNT];
	char name[64];
	int n = 0;

	memset(rank, COL_COUNT, sizeof(rank));
	while (*s) {
		size_t len = strcspn(s, ",");
		snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : 0), s);
		enum col_id c;
		if (parse_column(name, &c, err, errlen))
			return -1;
		rank[c] = (int8_t)n++;
		s += len + (s[len] == ',');
	}
	memcpy(order, rank, sizeof(rank));
	return 0;
}

int parse_columns(const char *s, unsigned *set, char *err, size_t errlen)
{
	static const char flag[] = "--columns: "; /* columns_parse speaks of the flag */
	char why[256];

	if (!columns_parse(s, set, why, sizeof(why)))
		return 0;
	escape_display(strncmp(why, flag, strlen(flag)) ? why : why + strlen(flag), err, errlen,
		       locale_utf8());
	return -1;
}
