/* Writes the manual page, memtop.1, from its template (man/memtop.1.in: the prose) and
 * memtop's own tables, so that it lists what memtop has: the flags from the usage text
 * (--help), the keys from each screen's binding table, the process and cgroup columns,
 * the system figures and the JSON keys. The template's lines @OPTIONS@, @KEYS@,
 * @COLUMNS@, @CGCOLUMNS@, @FIGURES@, @JSON@ and @ACCOUNT@ (the memory account's parts)
 * are replaced by them, and @VERSION@ and
 * @THEMES@ anywhere by the version and the themes' installed directory.
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
		fputs(any ? "\n.TP\n" : ".TP\n", out);
		flag_spec(out, spec);
		said = desc && desc[strspn(desc, " ")];
		if (said)
			roff(out, desc + strspn(desc, " "), false);
		started = any = true;
	}
	fputc('\n', out);
	free(text);
}

static void bindings(FILE *out, const char *title, const struct binding *b)
{
	fputs(".SS ", out);
	roff(out, title, false);
	fputc('\n', out);
	for (; b->act; b++) {
		fputs(".TP\n.B ", out);
		roff(out, b->names, true);
		fputc('\n', out);
		roff(out, b->help, false);
		fputc('\n', out);
	}
}

void mkman_key_tables(FILE *out, void (*put)(FILE *out, const char *title, const struct binding *b))
{
	put(out, common_title, common_bindings);
	for (int s = 0; s < NSCREENS; s++)
		if (ui_screens[s].title && ui_screens[s].keys)
			put(out, ui_screens[s].title, ui_screens[s].keys);
	put(out, "Prompts (search, filter, user, interval, signal)", prompt_bindings);
	put(out, "A replay (--replay), on the table and its panes", replay_bindings);
}

static void keys(FILE *out)
{
	mkman_key_tables(out, bindings);
}

bool mkman_figure_metric(const struct sys_figure *f, char *name, size_t size)
{
	struct metric mt = metric_of_figure(f);

	if (mt.type == METRIC_NONE)
		return false;
	metric_name(name, size, METRIC_PREFIX, f->metric, &mt, false);
	return true;
}

/* An entry: the title in bold, the name for -o and --columns, what it is */
static void column(FILE *out, const char *title, const char *name, const char *desc)
{
	fputs(".TP\n.B ", out);
	roff(out, title, false);
	fputs("\n(\\fI", out);
	roff(out, name, true);
	fputs("\\fR) ", out);
	roff(out, desc, false);
	fputc('\n', out);
}

static void process_columns(FILE *out)
{
	for (int c = 0; c < COL_COUNT; c++)
		column(out, columns[c].title, columns[c].name, columns[c].desc);
}

static void cgroup_columns(FILE *out)
{
	for (int c = 0; c < CGCOL_COUNT; c++)
		column(out, cg_columns[c].title, cg_columns[c].name, cg_columns[c].desc);
}

/* The system figures by group: the JSON key, the header's or batch line's label, the help
 * and the OpenMetrics metric */
static void figures(FILE *out)
{
	for (int g = 0; g < SF_NGROUPS; g++) {
		fputs(".TP\n.B ", out);
		roff(out, sf_group_title[g], false);
		fputs("\nJSON \\fB", out);
		roff(out, sf_group_json[g], false);
		fputs("\\fR:", out);
		for (size_t i = 0; i < n_sys_figures; i++) {
			const struct sys_figure *f = &sys_figures[i];
			if (f->group != (enum sf_group)g)
				continue;
			fputs("\n\\fB", out);
			roff(out, f->json, false);
			fputs("\\fR", out);
			if (f->label) {
				fputs(" (", out);
				roff(out, f->label, false);
				fputs(")", out);
			}
			if (f->help) {
				fputs(": ", out);
				roff(out, f->help, false);
			}
			char name[160];
			if (mkman_figure_metric(f, name, sizeof(name))) {
				fputs(", metric \\fI", out);
				roff(out, name, false);
				fputs("\\fR", out);
			}
			fputs(";", out);
		}
		fputc('\n', out);
	}
}

/* The JSON keys of a process and of a cgroup, one per column */
static void json(FILE *out)
{
	fputs(".TP\n.B processes[]\n", out);
	for (int c = 0; c < COL_COUNT; c++) {
		fputs(c ? ",\n\\fB" : "\\fB", out);
		roff(out, columns[c].json, false);
		fputs("\\fR", out);
	}
	fputs("\n.TP\n.B cgroups[]\n", out);
	for (int c = 0; c < CGCOL_COUNT; c++) {
		fputs(c ? ",\n\\fB" : "\\fB", out);
		roff(out, cg_columns[c].json, false);
		fputs("\\fR", out);
	}
	fputc('\n', out);
}

/* The memory account's parts: letter, label, JSON key, formula */
static void account(FILE *out)
{
	for (int p = 0; p < AP_COUNT; p++) {
		fprintf(out, ".TP\n.B %c \\(em ", account_parts[p].key);
		roff(out, account_parts[p].label, false);
		fputs("\nJSON \\fB", out);
		roff(out, account_parts[p].json, false);
		fputs("\\fR: ", out);
		roff(out, account_parts[p].formula, true);
		fputc('\n', out);
	}
}

/* A line of prose, @VERSION@ and @THEMES@ (where the themes are installed) replaced */
static void subst(const char *p)
{
	static const char *const words[][2] = {
		{"@VERSION@", MEMTOP_VERSION},
		{"@THEMES@", MEMTOP_THEMES},
	};

	while (*p) {
		size_t i = 0, n = sizeof(words) / sizeof(*words);
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
		{"@FIGURES@", figures},		{"@JSON@", json},
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
