/* mkman's markdown mode: rewrites the generated blocks of a doc/ page from memtop's own
 * tables, the same ones the manual lists (man/mkman.c), so that the manual and doc/
 * cannot disagree. A block is the lines between
 *     <!-- generated: NAME ... -->
 * and
 *     <!-- end generated -->
 * and NAME is one of the blocks below (columns, cgcolumns, figures, account, keys, json,
 * metrics, recfields). Everything else of the page is copied as it is.
 * Usage: mkman --doc PAGE > PAGE.new */
#include "mkman.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "cgcolumns.h"
#include "columns.h"
#include "groupcolumns.h"
#include "metric.h"
#include "prompt.h"
#include "recfmt.h"
#include "sysfig.h"
#include "tui.h"

#define BEGIN_MARK "<!-- generated: "
#define END_MARK   "<!-- end generated -->"

/* s as the text of a table cell: the characters markdown would read as a table's
 * bar, emphasis, HTML or an escape are escaped */
static void md(FILE *out, const char *s)
{
	for (const char *p = s; p && *p; p++) {
		bool word_start = p == s || !((p[-1] >= 'a' && p[-1] <= 'z') ||
					      (p[-1] >= 'A' && p[-1] <= 'Z') ||
					      (p[-1] >= '0' && p[-1] <= '9'));
		if (strchr("|\\*<>[]`", *p) || (*p == '_' && word_start))
			fputc('\\', out);
		fputc(*p, out);
	}
}

/* s as a code span: between backticks, or two where it holds one */
static void code(FILE *out, const char *s)
{
	const char *tick = strchr(s, '`') ? "`` " : "`";
	const char *end = strchr(s, '`') ? " ``" : "`";

	if (strchr(s, '|')) { /* a bar ends a table's cell even in a code span */
		fputs(tick, out);
		for (; *s; s++)
			fputs(*s == '|' ? "\\|" : (char[]){*s, 0}, out);
		fputs(end, out);
		return;
	}
	fprintf(out, "%s%s%s", tick, s, end);
}

/* Each word of a key's names as a code span: `Z` `Space` */
static void key_names(FILE *out, const char *names)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s", names);
	bool first = true;
	for (char *save, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		fputs(first ? "" : " ", out);
		code(out, w);
		first = false;
	}
}

static void key_table(FILE *out, const char *title, const struct binding *b)
{
	fputs("\n**", out);
	md(out, title);
	fputs("**\n\n| key | does |\n| --- | --- |\n", out);
	for (; b->act; b++) {
		fputs("| ", out);
		key_names(out, b->names);
		fputs(" | ", out);
		md(out, b->help);
		fputs(" |\n", out);
	}
}

static void keys(FILE *out)
{
	mkman_key_tables(out, key_table);
}

static void column_rows(FILE *out, const struct column *cols, int n, bool shown)
{
	fputs(shown ? "| column | name | JSON | default | meaning |\n| --- | --- | --- | --- | "
		      "--- |\n"
		    : "| column | name | JSON | meaning |\n| --- | --- | --- | --- |\n",
	      out);
	for (int c = 0; c < n; c++) {
		fputs("| ", out);
		code(out, cols[c].title);
		fputs(" | ", out);
		code(out, cols[c].name);
		fputs(" | ", out);
		code(out, cols[c].json);
		if (cols[c].total) {
			fputs(", ", out);
			code(out, cols[c].total);
		}
		if (shown)
			fputs(cols[c].on ? " | shown" : " | off", out);
		fputs(" | ", out);
		md(out, cols[c].desc);
		fputs(" |\n", out);
	}
}

static void process_columns(FILE *out)
{
	column_rows(out, columns, COL_COUNT, true);
}

static void cgroup_columns(FILE *out)
{
	column_rows(out, cg_columns, CGCOL_COUNT, false);
}

/* The system figures by group: JSON key, label, meaning, metric */
static void figures(FILE *out)
{
	for (int g = 0; g < SF_NGROUPS; g++) {
		fputs("\n**", out);
		md(out, sf_groups[g].title);
		fputs("** (JSON `", out);
		md(out, sf_groups[g].json);
		fputs("`)\n\n| JSON key | label | meaning | metric |\n| --- | --- | --- | --- |\n",
		      out);
		for (size_t i = 0; i < n_sys_figures; i++) {
			const struct sys_figure *f = &sys_figures[i];
			if (f->group != (enum sf_group)g)
				continue;
			fputs("| ", out);
			code(out, f->json);
			fputs(" | ", out);
			md(out, f->label ? f->label : "");
			fputs(" | ", out);
			size_t len = strlen(f->json);
			if (f->help)
				md(out, f->help);
			else if (len > 6 && !strcmp(f->json + len - 6, "_per_s"))
				fprintf(out, "`%.*s` per second", (int)(len - 6), f->json);
			fputs(" | ", out);
			char name[160];
			if (mkman_figure_metric(f, name, sizeof(name)))
				code(out, name);
			fputs(" |\n", out);
		}
	}
}

static void account(FILE *out)
{
	fputs("| letter | part | JSON | of /proc/meminfo |\n| --- | --- | --- | --- |\n", out);
	for (int p = 0; p < AP_COUNT; p++) {
		fprintf(out, "| `%c` | ", account_parts[p].key);
		md(out, account_parts[p].label);
		fputs(" | ", out);
		code(out, account_parts[p].json);
		fputs(" | ", out);
		md(out, account_parts[p].formula);
		fputs(" |\n", out);
	}
}

static void json_keys(FILE *out, const char *what, const struct column *cols, int n)
{
	fprintf(out, "- `%s`: ", what);
	for (int c = 0; c < n; c++) {
		fputs(c ? ", " : "", out);
		code(out, cols[c].json);
		if (cols[c].total) {
			fputs(" (", out);
			code(out, cols[c].total);
			fputs(")", out);
		}
	}
	fputs("\n", out);
}

static void json(FILE *out)
{
	json_keys(out, "processes[]", columns, COL_COUNT);
	json_keys(out, "cgroups[]", cg_columns, CGCOL_COUNT);
	json_keys(out, "groups[]", group_columns, GROUPCOL_COUNT);
	for (int g = 0; g < SF_NGROUPS; g++) {
		bool first = true;
		fputs("- `", out);
		md(out, sf_groups[g].json);
		fputs("` (", out);
		md(out, sf_groups[g].title);
		fputs("): ", out);
		for (size_t i = 0; i < n_sys_figures; i++) {
			if (sys_figures[i].group != (enum sf_group)g)
				continue;
			fputs(first ? "" : ", ", out);
			code(out, sys_figures[i].json);
			first = false;
		}
		fputs("\n", out);
	}
}

static void table_metrics(FILE *out, const char *prefix, const struct column *cols, int n)
{
	for (int c = 0; c < n; c++) {
		struct metric mt = metric_of_column(&cols[c]);
		char name[160];
		if (!cols[c].metric || mt.type == METRIC_NONE)
			continue;
		metric_name(name, sizeof(name), prefix, cols[c].metric, &mt, false);
		fputs("| ", out);
		code(out, name);
		fputs(mt.type == METRIC_COUNTER ? " | counter | " : " | gauge | ", out);
		code(out, cols[c].title);
		fputs(" | ", out);
		md(out, cols[c].help ? cols[c].help : cols[c].desc);
		fputs(" |\n", out);
	}
}

static void metrics(FILE *out)
{
	fputs("| metric | type | from | help |\n| --- | --- | --- | --- |\n", out);
	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *f = &sys_figures[i];
		struct metric mt = metric_of_figure(f);
		char name[160];
		if (!mkman_figure_metric(f, name, sizeof(name)))
			continue;
		fputs("| ", out);
		code(out, name);
		fputs(mt.type == METRIC_COUNTER ? " | counter | " : " | gauge | ", out);
		code(out, f->json);
		fputs(" | ", out);
		md(out, f->help ? f->help : "");
		fputs(" |\n", out);
	}
	table_metrics(out, METRIC_PROCESS_PREFIX, columns, COL_COUNT);
	table_metrics(out, METRIC_CGROUP_PREFIX, cg_columns, CGCOL_COUNT);
	table_metrics(out, METRIC_GROUP_PREFIX, group_columns, GROUPCOL_COUNT);
}

/* The system fields a recording holds (recfields.def), by type; the fields of each NUMA node
 * and BPF concern once, with I for its number */
static void recfields(FILE *out)
{
	static const char *const types[] = {
		[RF_U64] = "1, u64",	    [RF_I64] = "2, signed",	 [RF_U32] = "3, u32",
		[RF_SIZE] = "4, size",	    [RF_BOOL] = "5, bool",	 [RF_DBL] = "6, double",
		[RF_HIST] = "7, histogram", [RF_CHARS] = "8, char array"};
	char name[128];

	fputs("| type | fields |\n| --- | --- |\n", out);
	for (size_t t = RF_U64; t < sizeof(types) / sizeof(*types); t++) {
		bool first = true;
		fprintf(out, "| %s | ", types[t]);
		for (size_t f = 0; f < rec_nsys_fields; f++) {
			const char *n = rec_sys_fields[f].name, *i = n;
			if (rec_sys_fields[f].type != t)
				continue;
			while ((i = strchr(i, '.')) && !(i[1] >= '0' && i[1] <= '9'))
				i++;
			if (i && strncmp(i, ".0.", 3))
				continue; /* nodes.1.node...: as nodes.0.node */
			if (i)		  /* nodes.0.node: nodes.I.node */
				snprintf(name, sizeof(name), "%.*s.I%s", (int)(i - n), n, i + 2);
			else
				snprintf(name, sizeof(name), "%s", n);
			fputs(first ? "" : ", ", out);
			code(out, name);
			first = false;
		}
		fputs(" |\n", out);
	}
}

static const struct {
	const char *name;
	void (*put)(FILE *out);
} blocks[] = {
	{"columns", process_columns},
	{"cgcolumns", cgroup_columns},
	{"figures", figures},
	{"account", account},
	{"keys", keys},
	{"json", json},
	{"metrics", metrics},
	{"recfields", recfields},
};

int mkman_doc(const char *path)
{
	char line[4096];
	FILE *in = fopen(path, "r");
	bool skipping = false;
	int lineno = 0;

	if (!in) {
		fprintf(stderr, "mkman --doc: %s: cannot open\n", path);
		return 2;
	}
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (skipping) {
			if (strncmp(line, END_MARK, strlen(END_MARK)))
				continue;
			skipping = false;
			fputs(line, stdout);
			continue;
		}
		fputs(line, stdout);
		if (strncmp(line, BEGIN_MARK, strlen(BEGIN_MARK)))
			continue;
		const char *name = line + strlen(BEGIN_MARK);
		size_t len = strcspn(name, " \n"), i, n = sizeof(blocks) / sizeof(*blocks);
		for (i = 0; i < n; i++)
			if (strlen(blocks[i].name) == len && !strncmp(name, blocks[i].name, len))
				break;
		if (i == n) {
			fprintf(stderr, "mkman --doc: %s:%d: no block named %.*s\n", path, lineno,
				(int)len, name);
			fclose(in);
			return 1;
		}
		fputc('\n', stdout);
		blocks[i].put(stdout);
		fputc('\n', stdout);
		skipping = true;
	}
	fclose(in);
	if (skipping) {
		fprintf(stderr, "mkman --doc: %s: a block without %s\n", path, END_MARK);
		return 1;
	}
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
