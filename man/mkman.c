/* Writes the manual page, memtop.1, from its template (man/memtop.1.in: the prose) and
 * memtop's own tables, so that it lists what memtop has: the flags from the usage text
 * (--help), the keys from each screen's binding table, the process and cgroup columns
 * (the system figures and JSON keys are doc/'s, mkdoc.c). The template's lines
 * @OPTIONS@, @KEYS@, @COLUMNS@, @CGCOLUMNS@ and @ACCOUNT@ (the memory account's parts)
 * are replaced by them, and @VERSION@, @THEMES@ and @DOC@ anywhere by the version and
 * where the themes and the documentation are installed. @KEY(HELP)@ anywhere is the key
 * whose help in the key tables is HELP (the first of its names: "V" for "next theme"),
 * so that the prose cannot name a key memtop does not have; mkman fails where no key,
 * or two different ones, have that help.
 * Usage: mkman TEMPLATE > memtop.1
 * With --doc PAGE it rewrites a doc/ page's generated blocks instead (man/mkdoc.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkman.h"

#include "account.h"
#include "cgcolumns.h"
#include "columns.h"
#include "options.h"
#include "prompt.h"
#include "metric.h"
#include "sysfig.h"
#include "tui.h"

#ifndef MEMTOP_DOC
#define MEMTOP_DOC "/usr/local/share/doc/memtop"
#endif

/* s as roff text: backslashes escaped, a leading . or ' made plain; minus signs where
 * hyphens are options (minus: every '-') */
static void roff(FILE *out, const char *s, bool minus)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-' && minus)
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

/* A flag's synopsis, "-d, --delay SECS": the flags in bold, their values in italics */
static void flag_spec(FILE *out, char *spec)
{
	bool first = true;

	for (char *w = strtok(spec, " "); w; w = strtok(NULL, " "), first = false) {
		fputs(first ? "" : " ", out);
		fputs(w[0] == '-' ? "\\fB" : "\\fI", out);
		roff(out, w, true);
		fputs("\\fR", out);
	}
	fputc('\n', out);
}

/* The flags, from options_usage: a line "  -x, --long ARG   what it does", or the flag
 * alone with what it does on the lines below; those lines start at column 24 */
#define DESC_COL 24
static void options(FILE *out)
{
	char *text = NULL, *save;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	bool started = false, any = false, said = false; /* said: of the flag above */

	if (!f) {
		perror("mkman");
		exit(1);
	}
	options_usage(f);
	fclose(f);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line), lead = strspn(line, " ");
		if (lead >= DESC_COL && started) { /* what the flag above does, continued */
			fputs(said ? " " : "", out);
			roff(out, line + lead, false);
			said = true;
			continue;
		}
		if (lead < 2 || line[lead] != '-')
			continue; /* the usage line and the summary */
		char *spec = line + lead, *desc = strstr(spec, "  ");
		if ((!desc || desc - line > DESC_COL) && len > DESC_COL &&
		    line[DESC_COL - 1] == ' ')
			desc = line + DESC_COL - 1;
		if (desc)
			*desc++ = '\0';
		fputs(any ? "\n.TP\n" : ".PD 0\n.TP 20n\n", out);
		flag_spec(out, spec);
		said = desc && desc[strspn(desc, " ")];
		if (said)
			roff(out, desc + strspn(desc, " "), false);
		started = any = true;
	}
	fputs("\n.PD\n", out);
	free(text);
}

/* The keys, as compact tables of preformatted lines: two keys a line where both fit in a
 * half, else one whose help wraps under itself. A key whose help an earlier table gave
 * the same is named on an "as above" line instead. */
#define KEY_W	 8  /* a key's names and the space after them, or longer names and two */
#define HALF_W	 35 /* the left half of a line: the key and its help; two spaces after */
#define LINE_W	 72 /* a whole line, at 80 columns less the section's indent */
#define SEEN_MAX 256

static const struct binding *seen[SEEN_MAX];
static int nseen;

static int ntables; /* the tables listed so far */

/* Listed before: the same key with the same help, or, after the first two tables (the
 * common keys and the process table's), a key that moves the selection (its help names
 * only what is selected) */
static bool seen_before(const struct binding *b)
{
	static const char *const moves[] = {"Up", "Down", "PgUp", "PgDn", "Home", "End"};

	for (size_t i = 0; i < sizeof(moves) / sizeof(*moves) && ntables >= 2; i++)
		if (!strcmp(b->names, moves[i]))
			return true;
	for (int i = 0; i < nseen; i++)
		if (!strcmp(seen[i]->names, b->names) && !strcmp(seen[i]->help, b->help))
			return true;
	if (nseen < SEEN_MAX)
		seen[nseen++] = b;
	return false;
}

/* s padded with spaces to width w (roff text: minus signs for '-' where minus) */
static void cell(FILE *out, const char *s, size_t w, bool minus)
{
	roff(out, s, minus);
	for (size_t n = strlen(s); n < w; n++)
		fputc(' ', out);
}

/* help after a key of width at, wrapped at LINE_W, continued under itself */
static void wrapped(FILE *out, const char *help, size_t at)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", help);
	size_t col = at;
	bool first = true;
	for (char *save, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!first && col + 1 + strlen(w) > LINE_W) {
			fputc('\n', out);
			cell(out, "", at, false);
			col = at;
			first = true;
		}
		if (!first) {
			fputc(' ', out);
			col++;
		}
		roff(out, w, false);
		col += strlen(w);
		first = false;
	}
	fputc('\n', out);
}

/* The width of b in a half line: its names in the field, or past it by two spaces */
static size_t half_width(const struct binding *b, size_t key_w)
{
	size_t k = strlen(b->names) + 2;

	return (k > key_w ? k : key_w) + strlen(b->help);
}

/* n rows in .nf lines: two a line where both fit in a half, else one, its help wrapped
 * under itself; the names in a field of key_w */
static void table_rows(FILE *out, const struct binding *const *rows, int n, size_t key_w)
{
	for (int i = 0; i < n; i++) {
		if (i + 1 < n && half_width(rows[i], key_w) <= HALF_W &&
		    half_width(rows[i + 1], key_w) <= LINE_W - HALF_W - 2) {
			size_t k = strlen(rows[i]->names) + 2;
			cell(out, rows[i]->names, k > key_w ? k : key_w, true);
			cell(out, rows[i]->help,
			     HALF_W + 2 - half_width(rows[i], key_w) + strlen(rows[i]->help),
			     false);
			k = strlen(rows[i + 1]->names) + 2;
			cell(out, rows[i + 1]->names, k > key_w ? k : key_w, true);
			roff(out, rows[i + 1]->help, false);
			fputc('\n', out);
			i++;
			continue;
		}
		size_t w = strlen(rows[i]->names) < key_w ? key_w : strlen(rows[i]->names) + 2;
		cell(out, rows[i]->names, w, true);
		wrapped(out, rows[i]->help, w);
	}
}

/* A table of at most two keys of its own (a screen's way back, its Enter) waits for the
 * "Other screens" section, a paragraph each */
#define SMALL_MAX 16
static char small[SMALL_MAX][512];
static int nsmall;

static void as_above(FILE *out, const struct binding *const *again, int n)
{
	if (!n)
		return;
	fputs("as above:", out);
	for (int i = 0; i < n; i++) {
		fputc(' ', out);
		roff(out, again[i]->names, true);
	}
}

static void bindings(FILE *out, const char *title, const struct binding *b)
{
	const struct binding *rows[64] = {NULL}, *again[64] = {NULL};
	int n = 0, nagain = 0;

	for (; b->act && n < 64; b++)
		if (seen_before(b))
			again[nagain++] = b;
		else
			rows[n++] = b;
	ntables++;
	if (n <= 2 && nsmall < SMALL_MAX) {
		char *buf = NULL;
		size_t size = 0;
		FILE *f = open_memstream(&buf, &size);
		if (!f) {
			perror("mkman");
			exit(1);
		}
		roff(f, title, false);
		for (int i = 0; i < n; i++) {
			fputs(i ? "; " : ": ", f);
			roff(f, rows[i]->names, true);
			fputc(' ', f);
			roff(f, rows[i]->help, false);
		}
		fputs(nagain ? "; " : "", f);
		as_above(f, again, nagain);
		fclose(f);
		snprintf(small[nsmall++], sizeof(*small), "%s", buf);
		free(buf);
		return;
	}
	fputs(".SS ", out);
	roff(out, title, false);
	fputs("\n.nf\n", out);
	table_rows(out, rows, n, KEY_W);
	as_above(out, again, nagain);
	fputs(nagain ? "\n.fi\n" : ".fi\n", out);
}

static void small_tables(FILE *out)
{
	if (!nsmall)
		return;
	fputs(".SS Other screens\n", out);
	for (int i = 0; i < nsmall; i++)
		fprintf(out, ".PP\n%s\n", small[i]);
}

/* The key tables run on without a blank line between them: the headings stand out */
static void keys(FILE *out)
{
	fputs(".PD 0\n", out);
	mkman_key_tables(out, bindings);
	small_tables(out);
	fputs(".PD\n", out);
}

/* The columns in a paragraph, as a glossary: the title in bold, "(name)", what it is */
static void column_list(FILE *out, const struct column *cols, int n)
{
	for (int c = 0; c < n; c++) {
		fputs("\\fB", out);
		roff(out, cols[c].title, false);
		fputs("\\fR (", out);
		roff(out, cols[c].name, true);
		fputs(") ", out);
		roff(out, cols[c].desc, false);
		fputs(c + 1 < n ? ";\n" : ".\n", out);
	}
}

static void process_columns(FILE *out)
{
	column_list(out, columns, COL_COUNT);
}

static void cgroup_columns(FILE *out)
{
	column_list(out, cg_columns, CGCOL_COUNT);
}

/* The memory account's parts: letter and label, in a sentence (their JSON keys and
 * formulas are doc/columns.md's) */
static void account(FILE *out)
{
	for (int p = 0; p < AP_COUNT; p++) {
		fprintf(out, "\\fB%c\\fR ", account_parts[p].key);
		roff(out, account_parts[p].label, false);
		fputs(p + 1 < AP_COUNT ? ",\n" : ".\n", out);
	}
}

/* The first name of the key whose help is help, in table b, into *found (an error where
 * it differs from one found before) */
static int key_in(const struct binding *b, const char *help, size_t len, char *found, size_t size)
{
	char name[32];

	for (; b && b->act; b++) {
		if (strlen(b->help) != len || strncmp(b->help, help, len))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(b->names, " "), b->names);
		if (found[0] && strcmp(found, name))
			return -1;
		snprintf(found, size, "%s", name);
	}
	return 0;
}

/* @KEY(help)@ at p: writes its key, returns the length of the mark; exits 1 where it
 * names no key or two */
static size_t key_mark(const char *p)
{
	const char *help = p + 5, *end = strstr(help, ")@");
	char found[32] = "";
	int err = 0;

	if (!end) {
		fprintf(stderr, "mkman: an unclosed @KEY(: %s\n", p);
		exit(1);
	}
	size_t len = (size_t)(end - help);

	err |= key_in(common_bindings, help, len, found, sizeof(found));
	err |= key_in(replay_bindings, help, len, found, sizeof(found));
	for (int s = 0; s < NSCREENS; s++)
		err |= key_in(ui_screens[s].keys, help, len, found, sizeof(found));
	if (err || !found[0]) {
		fprintf(stderr, "mkman: @KEY(%.*s)@: %s\n", (int)len, help,
			err ? "two keys have that help" : "no key has that help");
		exit(1);
	}
	roff(stdout, found, false);
	return (size_t)(end + 2 - p);
}

/* A line of prose, @VERSION@ and @THEMES@ (where the themes are installed) replaced, and
 * @KEY(help)@ by the key */
static void subst(const char *p)
{
	static const char *const words[][2] = {
		{"@VERSION@", MEMTOP_VERSION},
		{"@THEMES@", MEMTOP_THEMES},
		{"@DOC@", MEMTOP_DOC},
	};

	while (*p) {
		size_t i = 0, n = sizeof(words) / sizeof(*words);
		if (!strncmp(p, "@KEY(", 5)) {
			p += key_mark(p);
			continue;
		}
		while (i < n && strncmp(p, words[i][0], strlen(words[i][0])))
			i++;
		if (i == n) {
			fputc(*p++, stdout);
			continue;
		}
		roff(stdout, words[i][1], false);
		p += strlen(words[i][0]);
	}
}

int main(int argc, char **argv)
{
	static const struct {
		const char *mark;
		void (*put)(FILE *out);
	} marks[] = {
		{"@OPTIONS@", options},		{"@KEYS@", keys},
		{"@COLUMNS@", process_columns}, {"@CGCOLUMNS@", cgroup_columns},
		{"@ACCOUNT@", account},
	};
	char line[4096];

	if (argc == 3 && !strcmp(argv[1], "--doc"))
		return mkman_doc(argv[2]);
	FILE *in = argc == 2 ? fopen(argv[1], "r") : NULL;

	if (!in) {
		fprintf(stderr, "usage: mkman TEMPLATE > memtop.1 (%s)\n",
			argc == 2 ? argv[1] : "no template");
		return 2;
	}
	while (fgets(line, sizeof(line), in)) {
		size_t i, n = sizeof(marks) / sizeof(*marks);
		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < n && strcmp(line, marks[i].mark); i++)
			;
		if (i < n) {
			marks[i].put(stdout);
			continue;
		}
		subst(line);
		fputc('\n', stdout);
	}
	fclose(in);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
