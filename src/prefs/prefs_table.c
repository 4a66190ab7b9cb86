#include "prefs_table.h"

#include <stdio.h>
#include <string.h>

#include "parse.h"

const struct pref prefs_table[PREF_COUNT] = {
	[PREF_COLUMNS] = {.key = "columns",
			  .flag = "columns",
			  .kind = PK_COLUMNS,
			  PREF_FIELD(cols)},
	/* no flag: the column picker's F7 and F8 */
	[PREF_ORDER] = {.key = "order",
			.kind = PK_ORDER,
			PREF_FIELD(order),
			.written_if_set = true},
	[PREF_SORT] = {.key = "sort",
		       .flag = "sort",
		       .letter = 'o',
		       .kind = PK_COLUMN,
		       .preset = "rss",
		       PREF_FIELD(sort)},
	/* -o sorts as it says: in the column's own order */
	[PREF_INVERT] = {.key = "invert",
			 .kind = PK_SWITCH,
			 PREF_FIELD(invert),
			 .kept_by = PREF_BIT(PREF_SORT)},
	[PREF_TREE] = {.key = "tree",
		       .flag = "tree",
		       .letter = 't',
		       .kind = PK_SWITCH,
		       .on = true,
		       PREF_FIELD(tree)},
	[PREF_KTHREADS] = {.key = "hide_kthreads",
			   .flag = "no-kernel-threads",
			   .letter = 'K',
			   .kind = PK_SWITCH,
			   .on = true,
			   PREF_FIELD(filter.hide_kthreads)},
	[PREF_DELAY] = {.key = "delay",
			.flag = "delay",
			.letter = 'd',
			.kind = PK_DELAY,
			.preset = "1",
			PREF_FIELD(delay)},
	[PREF_MOUSE] = {.key = "mouse",
			.flag = "no-mouse",
			.kind = PK_SWITCH,
			.preset = "1",
			.on = false,
			PREF_FIELD(mouse)},
	/* no flag: the g key */
	[PREF_GRAPHS] = {.key = "graphs", .kind = PK_SWITCH, PREF_FIELD(graphs)},
	[PREF_THEME] = {.key = "theme",
			.flag = "theme",
			.kind = PK_THEME,
			PREF_FIELD(theme),
			.written_if_set = true},
	/* the filters the flags give; the screen's own are not saved */
	[PREF_PIDS] = {.flag = "pid", .letter = 'p', .kind = PK_PIDS, PREF_FIELD(filter)},
	[PREF_USER] = {.flag = "user", .letter = 'u', .kind = PK_USER, PREF_FIELD(filter)},
	[PREF_CGROUP] = {.flag = "cgroup", .kind = PK_CGROUP, PREF_FIELD(filter)},
};

static int parse_switch(const char *s, bool *out, char *why, size_t whylen)
{
	char q[PARSE_QUOTE_SIZE];

	if (!strcmp(s, "1") || !strcmp(s, "yes"))
		*out = true;
	else if (!strcmp(s, "0") || !strcmp(s, "no"))
		*out = false;
	else {
		snprintf(why, whylen, "1 or 0, not '%s'", parse_quote(s, q, sizeof(q)));
		return -1;
	}
	return 0;
}

/* A flag's bad column: the reason, then the columns there are */
static int bad_column(char *why, size_t whylen)
{
	size_t n = strlen(why);

	for (int i = 0; i < COL_COUNT && n < whylen; i++)
		n += (size_t)snprintf(why + n, whylen - n, "%s %s", i ? "," : " (try",
				      columns[i].name);
	if (n < whylen)
		snprintf(why + n, whylen - n, ")");
	return -1;
}

static int parse_theme(const char *s, char *theme, size_t size, bool from_flag, char *why,
		       size_t whylen)
{
	if (from_flag && (!s[0] || strlen(s) >= size)) {
		snprintf(why, whylen, "a name or a path of 1 to %zu bytes", size - 1);
		return -1;
	}
	if (strlen(s) >= size) {
		snprintf(why, whylen, "a name or path of at most %zu bytes", size - 1);
		return -1;
	}
	snprintf(theme, size, "%s", s);
	return 0;
}

/* -p given more than once adds up */
static int parse_more_pids(const char *s, struct model_filter *f, char *why, size_t whylen)
{
	int32_t pids[MAX_PIDS];
	int n;

	if (parse_pids(s, pids, MAX_PIDS, &n, why, whylen))
		return -1;
	if (f->npids + (size_t)n > MAX_PIDS) {
		snprintf(why, whylen, "at most %d PIDs in all", MAX_PIDS);
		return -1;
	}
	memcpy(f->pids + f->npids, pids, (size_t)n * sizeof(*pids));
	f->npids += (size_t)n;
	return 0;
}

int pref_parse(const struct pref *r, struct prefs *p, const char *s, bool from_flag, char *why,
	       size_t whylen)
{
	void *field = (char *)p + r->at;
	struct model_filter *f = field;

	switch (r->kind) {
	case PK_SWITCH:
		if (from_flag) {
			*(bool *)field = r->on;
			return 0;
		}
		return parse_switch(s, field, why, whylen);
	case PK_COLUMNS:
		return parse_columns(s, field, why, whylen);
	case PK_ORDER:
		return parse_order(s, field, why, whylen);
	case PK_COLUMN:
		if (!parse_column(s, field, why, whylen))
			return 0;
		return from_flag ? bad_column(why, whylen) : -1;
	case PK_DELAY:
		return parse_delay(s, field, why, whylen);
	case PK_THEME:
		return parse_theme(s, field, r->size, from_flag, why, whylen);
	case PK_PIDS:
		return parse_more_pids(s, f, why, whylen);
	case PK_USER:
		if (parse_user(s, &f->uid, why, whylen))
			return -1;
		f->by_user = true;
		return 0;
	case PK_CGROUP:
		return prefs_set_cgroup(f, s, why, whylen);
	}
	return -1;
}

const char *pref_flag_name(const struct pref *r, char *buf, size_t size)
{
	if (r->letter)
		snprintf(buf, size, "-%c", r->letter);
	else
		snprintf(buf, size, "--%s", r->flag);
	return buf;
}

const char *pref_flag_joint(const struct pref *r)
{
	return r->kind == PK_COLUMN || r->kind == PK_COLUMNS || r->kind == PK_USER ? ": "
										   : " needs ";
}

void pref_format(const struct pref *r, const struct prefs *p, char *buf, size_t size)
{
	const void *field = (const char *)p + r->at;
	size_t n = 0;

	buf[0] = '\0';
	switch (r->kind) {
	case PK_SWITCH:
		snprintf(buf, size, "%d", *(const bool *)field);
		break;
	case PK_COLUMNS:
		for (int c = 0; c < COL_COUNT; c++)
			if (*(const unsigned *)field & COL_BIT(c) && n < size)
				n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "",
						      columns[c].name);
		break;
	case PK_COLUMN:
		snprintf(buf, size, "%s", columns[*(const enum col_id *)field].name);
		break;
	case PK_ORDER: { /* the columns in their order; nothing while it is the table's */
		enum col_id by[COL_COUNT];
		if (!memcmp(field, (int8_t[COL_COUNT]){0}, COL_COUNT))
			break;
		columns_ordered(field, by);
		for (int i = 0; i < COL_COUNT && n < size; i++)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "",
					      columns[by[i]].name);
		break;
	}
	case PK_DELAY:
		snprintf(buf, size, "%g", *(const double *)field);
		break;
	case PK_THEME:
		snprintf(buf, size, "%s", (const char *)field);
		break;
	case PK_PIDS:
	case PK_USER:
	case PK_CGROUP: /* not saved */
		break;
	}
}

/* Every preference at its row's default; the column sets and the cgroup table's order
 * from their tables */
void prefs_init(struct prefs *p)
{
	char why[200];

	memset(p, 0, sizeof(*p));
	p->cols = columns_default();
	p->cg.cols = cg_columns_default();
	p->cg.sort = CGCOL_USAGE;
	p->cg.tree = true;
	p->slab.sort = SLABCOL_SIZE;
	p->users.sort = USERCOL_PSS;
	for (const struct pref *r = prefs_table; r < prefs_table + PREF_COUNT; r++)
		if (r->preset)
			pref_parse(r, p, r->preset, false, why, sizeof(why));
}
