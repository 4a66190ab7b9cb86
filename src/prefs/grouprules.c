#include "grouprules.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "util.h"
#include "yamlines.h"

static const char *const match_key[GM_COUNT] = {[GM_COMM] = "comm",
						[GM_EXE] = "exe",
						[GM_USER] = "user",
						[GM_CMDLINE] = "cmdline",
						[GM_CGROUP] = "cgroup"};
static const char *const field_name[GF_COUNT] = {[GF_COMM] = "Comm",
						 [GF_EXE_BASE] = "ExeBase",
						 [GF_EXE_FULL] = "ExeFull",
						 [GF_USERNAME] = "Username",
						 [GF_MATCHES] = "Matches"};

struct reader {
	struct group_rules *g;
	int open;     /* the list that "- item" lines add to: enum group_match; -1 none */
	bool section; /* after process_names: */
	char *why;
	size_t whylen;
};

static int fail(struct reader *rd, const char *fmt, const char *arg)
{
	snprintf(rd->why, rd->whylen, fmt, arg);
	return -1;
}

/* fail() quoting text of the file, escaped and cut short (parse_quote) */
static int failq(struct reader *rd, const char *fmt, const char *text)
{
	char q[PARSE_QUOTE_SIZE];

	return fail(rd, fmt, parse_quote(text, q, sizeof(q)));
}

/* "{{.Comm}}-x" into parts, each byte copied once; -1 for a template longer than
 * GROUP_TEMPLATE_MAX, a field not known or braces not closed */
static int template(struct reader *rd, struct group_template *t, const char *s)
{
	size_t len = strlen(s), parts = 1;

	if (len > GROUP_TEMPLATE_MAX)
		return fail(rd, "name: a template longer than %s bytes", GROUP_TEMPLATE_MAX_TEXT);
	for (const char *o = s; (o = strstr(o, "{{")); o += 2)
		parts++;
	t->text = xcalloc(parts, sizeof(*t->text));
	t->field = xcalloc(parts, sizeof(*t->field));
	t->nfields = 0;
	for (;;) {
		const char *open = strstr(s, "{{");
		size_t n = open ? (size_t)(open - s) : strlen(s);
		t->text[t->nfields] = xmalloc(n + 1); /* text[0..nfields] set, for the free */
		memcpy(t->text[t->nfields], s, n);
		t->text[t->nfields][n] = '\0';
		if (!open)
			return 0;
		const char *close = strstr(open, "}}");
		if (!close)
			return failq(rd, "name: '{{' without '}}' in '%s'", open);
		const char *f = open + 2 + strspn(open + 2, " ");
		n = (size_t)(close - f);
		while (n && f[n - 1] == ' ')
			n--;
		int k = 0;
		while (k < GF_COUNT && !(*f == '.' && n - 1 == strlen(field_name[k]) &&
					 !strncmp(f + 1, field_name[k], n - 1)))
			k++;
		if (k == GF_COUNT)
			return failq(rd,
				     "name: '%s' is not a field (.Comm, .ExeBase, .ExeFull, "
				     ".Username, .Matches)",
				     open);
		t->field[t->nfields++] = (enum group_field)k;
		s = close + 2;
	}
}

/* The ']' closing the bracket expression at p ("[^]a[:alpha:]]"), NULL if none */
static const char *bracket_end(const char *p)
{
	p += 1 + (p[1] == '^');
	p += *p == ']'; /* a ']' first is itself */
	for (; *p && *p != ']'; p++) {
		if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			const char close[3] = {p[1], ']', '\0'}, *c = strstr(p + 2, close);
			p = c ? c + 1 : p;
		}
	}
	return *p ? p : NULL;
}

/* What RE2 (process-exporter's) refuses and glibc's regcomp takes at a cost super-linear
 * in the text matched or in memory: a back reference (\1 to \9) and a counted repetition
 * ({m,n}) over REPEAT_MAX, alone or nested (their product). RE2 takes 1000; glibc's
 * matcher, in a UTF-8 locale, spends seconds on 1 KiB of text at that count, a tenth of a
 * second at 100. NULL, or the reason. */
#define REPEAT_MAX 100
#define NEST_MAX   64
static const char *unlike_re2(const char *re)
{
	unsigned long frame[NEST_MAX], last = 1; /* the largest product within each group */
	int depth = 0;

	frame[0] = 1;
	for (const char *p = re; *p; p++) {
		if (*p == '\\' && p[1] >= '1' && p[1] <= '9')
			return "a back reference (\\1 to \\9), which RE2 refuses";
		if (*p == '\\' && p[1]) {
			p++;
			last = 1;
		} else if (*p == '[' && (p = bracket_end(p))) {
			last = 1;
		} else if (!p) {
			break;
		} else if (*p == '(') {
			if (depth == NEST_MAX - 1)
				return "groups nested over 63 deep";
			frame[++depth] = 1;
		} else if (*p == ')' && depth) {
			last = frame[depth--];
		} else if (*p == '{' && (isdigit((unsigned char)p[1]) || p[1] == ',')) {
			char *end;
			unsigned long m = strtoul(p + 1, &end, 10), n = m;
			if (*end == ',' && isdigit((unsigned char)end[1]))
				n = strtoul(end + 1, &end, 10);
			else if (*end == ',')
				end++;
			if (*end != '}') {
				last = 1; /* a brace as itself */
			} else if (m > REPEAT_MAX || n > REPEAT_MAX) {
				return "a repetition count over 100";
			} else {
				last *= n > m ? n : m ? m : 1;
				if (last > REPEAT_MAX)
					return "repetitions nested over 1000 in all, which RE2 "
					       "refuses";
				p = end;
			}
		} else if (*p != '*' && *p != '+' && *p != '?' && *p != '|') {
			last = 1;
		}
		if (last > frame[depth])
			frame[depth] = last;
	}
	return NULL;
}

static int add_item(struct reader *rd, enum group_match m, char *v)
{
	struct group_list *l = &rd->g->r[rd->g->n - 1].m[m];

	if (!*v)
		return fail(rd, "%s: an empty item", match_key[m]);
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		l->s = xrealloc(l->s, l->cap * sizeof(*l->s));
		l->re = xrealloc(l->re, l->cap * sizeof(*l->re));
	}
	if (m == GM_CMDLINE || m == GM_CGROUP) {
		int rc = regcomp(&l->re[l->n], v, REG_EXTENDED);
		if (rc) {
			char e[120], msg[300], q[PARSE_QUOTE_SIZE];
			regerror(rc, &l->re[l->n], e, sizeof(e));
			snprintf(msg, sizeof(msg), "%s: '%s' is not a regular expression: %s",
				 match_key[m], parse_quote(v, q, sizeof(q)), e);
			return fail(rd, "%s", msg);
		}
		const char *unlike = unlike_re2(v);
		if (unlike) {
			char msg[300], q[PARSE_QUOTE_SIZE];
			regfree(&l->re[l->n]);
			snprintf(msg, sizeof(msg), "%s: '%s': %s", match_key[m],
				 parse_quote(v, q, sizeof(q)), unlike);
			return fail(rd, "%s", msg);
		}
	}
	l->s[l->n++] = xstrdup(v);
	return 0;
}

/* "[a, 'b', "c"]": each item ends at a ',' or the ']'; a line that ends first (the text's
 * NUL) leaves the list not closed, never read past */
static int flow_list(struct reader *rd, enum group_match m, char *v)
{
	char *p = v + 1;

	for (bool first = true;; first = false) {
		p += strspn(p, " \t");
		if (*p == ']' && first) { /* [] */
			p++;
			break;
		}
		char *item, *rest;
		bool quoted = *p == '"' || *p == '\'';
		if (quoted) {
			if (!(item = yaml_scalar(p, &rest)))
				return fail(rd, "%s: a quote not closed", match_key[m]);
			rest += strspn(rest, " \t"); /* after the closing quote */
		} else {
			item = p;
			rest = p + strcspn(p, ",]");
		}
		char end = *rest;
		if (end != ',' && end != ']')
			return fail(rd, "%s: a list not closed by ']'", match_key[m]);
		*rest = '\0';
		if (!quoted) /* its comment and trailing blanks cut; a quoted item is whole */
			item = yaml_scalar(item, NULL);
		if (add_item(rd, m, item))
			return -1;
		p = rest + 1;
		if (end == ']')
			break;
	}
	p += strspn(p, " \t");
	if (*p && *p != '#')
		return fail(rd, "%s: text after the list's ']'", match_key[m]);
	return 0;
}

/* "key: value" of the last rule */
static int key_value(struct reader *rd, char *k)
{
	char *colon = strchr(k, ':');
	struct group_rule *r = &rd->g->r[rd->g->n - 1];

	*colon = '\0';
	char *v = colon + 1 + strspn(colon + 1, " \t");
	rd->open = -1;
	if (!strcmp(k, "name")) {
		char *s = yaml_scalar(v, NULL);
		if (!s || !*s)
			return fail(rd, "name: %s", s ? "empty" : "a quote not closed");
		if (r->name.text)
			return fail(rd, "a second name in one rule%s", "");
		return template(rd, &r->name, s);
	}
	int m = 0;
	while (m < GM_COUNT && strcmp(k, match_key[m]))
		m++;
	if (m == GM_COUNT)
		return failq(rd,
			     "'%s' is not a key memtop reads (name, comm, exe, user, cmdline, "
			     "cgroup)",
			     k);
	if (*v == '[')
		return flow_list(rd, m, v);
	char *s = yaml_scalar(v, NULL);
	if (!s)
		return fail(rd, "%s: a quote not closed", match_key[m]);
	if (!*s) { /* a block list follows */
		rd->open = m;
		return 0;
	}
	return add_item(rd, m, s);
}

/* An identifier then ':' and a space or the end: a key */
static bool is_key(const char *s)
{
	const char *p = s;

	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return p > s && *p == ':' && (!p[1] || p[1] == ' ' || p[1] == '\t');
}

static int line(struct reader *rd, char *l)
{
	struct group_rules *g = rd->g;
	char *k = l + strspn(l, " \t");

	if (k == l) {
		if (!is_key(k) || strncmp(k, "process_names:", 14) || k[14 + strspn(k + 14, " ")])
			return failq(rd, "'%s': memtop reads process_names: alone", k);
		rd->section = true;
		return 0;
	}
	if (!rd->section)
		return failq(rd, "'%s' before process_names:", k);
	if (*k == '-' && (k[1] == ' ' || k[1] == '\t' || !k[1])) {
		char *item = k + 1 + strspn(k + 1, " \t");
		if (!is_key(item)) {
			if (rd->open < 0)
				return failq(rd, "'%s': a list item after no list key", item);
			char *s = yaml_scalar(item, NULL);
			return s ? add_item(rd, (enum group_match)rd->open, s)
				 : fail(rd, "a quote not closed%s", "");
		}
		if (g->n == g->cap) {
			g->cap = g->cap ? 2 * g->cap : 8;
			g->r = xrealloc(g->r, g->cap * sizeof(*g->r));
		}
		memset(&g->r[g->n], 0, sizeof(g->r[g->n]));
		g->r[g->n++].line = 0; /* set by the caller */
		return key_value(rd, item);
	}
	if (!g->n)
		return failq(rd, "'%s' outside a rule ('- ' starts one)", k);
	if (!is_key(k))
		return failq(rd, "'%s' is not a 'key: value' line", k);
	return key_value(rd, k);
}

/* A rule with no matcher matches nothing: refused; without a name, {{.ExeBase}} */
static int finish(struct reader *rd, struct group_rule *r)
{
	size_t n = 0;

	for (int m = 0; m < GM_COUNT; m++)
		n += r->m[m].n;
	if (!n)
		return fail(rd, "a rule with no matcher (comm, exe, user, cmdline, cgroup)%s", "");
	if (!r->name.text)
		return template(rd, &r->name, "{{.ExeBase}}");
	return 0;
}

int group_rules_parse(struct group_rules *g, char *text, const char *name, char *err, size_t errlen)
{
	char why[400] = "", *at = text, shown[1024];
	struct reader rd = {g, -1, false, why, sizeof(why)};
	int n = 0, rc = 0;

	memset(g, 0, sizeof(*g));
	for (char *l; !rc && (l = yaml_line(&at, &n));) {
		size_t before = g->n;
		rc = line(&rd, l);
		if (g->n > before)
			g->r[g->n - 1].line = n;
		if (!rc && before && g->n > before && (rc = finish(&rd, &g->r[before - 1])))
			n = g->r[before - 1].line;
	}
	if (!rc && g->n && finish(&rd, &g->r[g->n - 1])) {
		rc = -1;
		n = g->r[g->n - 1].line;
	}
	if (!rc && !g->n) {
		rc = -1;
		snprintf(why, sizeof(why), "no rules (process_names: then '- comm: [...]' lines)");
	}
	if (rc) {
		snprintf(err, errlen, "--groups %s:%d: %s",
			 parse_escape(name, shown, sizeof(shown)), n, why);
		group_rules_free(g);
	}
	return rc;
}

_Static_assert(YAML_FILE_MAX == 1 << 20, "the message says 1 MiB");

int group_rules_read(struct group_rules *g, const char *path, char *err, size_t errlen)
{
	char *text = xmalloc(YAML_FILE_MAX + 2), shown[1024];
	const char *why;
	long n = read_config(path, text, YAML_FILE_MAX + 2, &why);

	memset(g, 0, sizeof(*g));
	if (n < 0 || n > YAML_FILE_MAX) {
		free(text);
		snprintf(err, errlen, "--groups %s: %s", parse_escape(path, shown, sizeof(shown)),
			 n < 0 ? why : "longer than 1 MiB");
		return -1;
	}
	text = xrealloc(text, (size_t)n + 1); /* the text alone: nothing readable past its end */
	int rc = group_rules_parse(g, text, path, err, errlen);
	free(text);
	return rc;
}

bool group_rules_need_cgroups(const struct group_rules *g)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->r[i].m[GM_CGROUP].n)
			return true;
	return false;
}

void group_rules_free(struct group_rules *g)
{
	for (size_t i = 0; i < g->n; i++) {
		struct group_rule *r = &g->r[i];
		for (int m = 0; m < GM_COUNT; m++) {
			for (size_t j = 0; j < r->m[m].n; j++) {
				free(r->m[m].s[j]);
				if (m == GM_CMDLINE || m == GM_CGROUP)
					regfree(&r->m[m].re[j]);
			}
			free(r->m[m].s);
			free(r->m[m].re);
		}
		if (r->name.text)
			for (size_t j = 0; j <= r->name.nfields; j++)
				free(r->name.text[j]);
		free(r->name.text);
		free(r->name.field);
	}
	free(g->r);
	memset(g, 0, sizeof(*g));
}
