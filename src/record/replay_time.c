/* --begin, --end and the replay's J prompt: a time as a person types it, each field
 * checked (a day that its month has, a time of day that exists), in local time. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "parse.h"
#include "record.h"
#include "replay.h"
#include "text.h"

/* At most most digits (one at least) at *p as a number, *p moved past them; -1: none */
static int number(const char **p, int most)
{
	int v = 0, n = 0;

	for (; n < most && **p >= '0' && **p <= '9'; n++)
		v = v * 10 + *(*p)++ - '0';
	return n ? v : -1;
}

/* A time as given */
struct given_time {
	bool date; /* y, mo, d given */
	int y, mo, d, h, mi, sec;
};

/* s's fields into *g, each checked: a day of its month, a time of day */
static int time_fields(const char *s, struct given_time *g, char *err, size_t errlen)
{
	const char *p = s, *field = NULL;
	char q[PARSE_QUOTE_SIZE], day[32];
	int bad = 0, least = 0, most = 0;

	*g = (struct given_time){.date = strchr(s, '-') != NULL};
	if (g->date && ((g->y = number(&p, 4)) < 0 || p - s != 4 || *p++ != '-' ||
			(g->mo = number(&p, 2)) < 0 || *p++ != '-' || (g->d = number(&p, 2)) < 0 ||
			*p++ != ' '))
		p = NULL;
	if (p && ((g->h = number(&p, 2)) < 0 || *p++ != ':' || (g->mi = number(&p, 2)) < 0 ||
		  (*p == ':' && (p++, (g->sec = number(&p, 2)) < 0)) || *p))
		p = NULL;
	if (!p) {
		snprintf(err, errlen, "a time as HH:MM[:SS] or YYYY-MM-DD HH:MM[:SS], not '%s'",
			 parse_quote(s, q, sizeof(q)));
		return -1;
	}
	snprintf(day, sizeof(day), "a day of %04d-%02d", g->y, g->mo);
	if (g->date && (g->mo < 1 || g->mo > 12))
		field = "a month", bad = g->mo, least = 1, most = 12;
	else if (g->date && (g->d < 1 || g->d > record_month_days(g->y, g->mo)))
		field = day, bad = g->d, least = 1, most = record_month_days(g->y, g->mo);
	else if (g->h > 23)
		field = "an hour", bad = g->h, most = 23;
	else if (g->mi > 59)
		field = "a minute", bad = g->mi, most = 59;
	else if (g->sec > 59)
		field = "a second", bad = g->sec, most = 59;
	if (!field)
		return 0;
	snprintf(err, errlen, "%s from %d to %d, not %d in '%s'", field, least, most, bad,
		 parse_quote(s, q, sizeof(q)));
	return -1;
}

int replay_check_time(const char *s, char *err, size_t errlen)
{
	struct given_time g;

	return time_fields(s, &g, err, errlen);
}

int replay_parse_time(const char *s, double ref, double *out, char *err, size_t errlen)
{
	struct tm tm;
	time_t t = (time_t)wall_held(ref);
	struct given_time g;

	if (time_fields(s, &g, err, errlen))
		return -1;
	localtime_r(&t, &tm);
	if (g.date) {
		tm.tm_year = g.y - 1900;
		tm.tm_mon = g.mo - 1;
		tm.tm_mday = g.d;
	}
	tm.tm_hour = g.h;
	tm.tm_min = g.mi;
	tm.tm_sec = g.sec;
	tm.tm_isdst = -1;
	*out = (double)mktime(&tm);
	return 0;
}
