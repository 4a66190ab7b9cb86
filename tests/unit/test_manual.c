/* The manual page (build/memtop.1, made by man/mkman.c) lists every key of every screen's
 * binding table with its help (a key that moves the selection, after the first tables, by
 * its name on an "as above" line), every column of both column tables with its name and
 * description, and every flag of the usage text. (The system figures and JSON keys are
 * doc/'s: tests/cli/docs_current.sh.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgcolumns.h"
#include "columns.h"
#include "options.h"
#include "prompt.h"
#include "tui.h"
#include "unit.h"

#define MANUAL "build/memtop.1"

/* The page's text with roff's escapes for '-' and '\' undone and its fonts left out */
static char *manual_text(void)
{
	FILE *f = fopen(MANUAL, "r");
	if (!f)
		fail_msg("%s: not built (make man)", MANUAL);
	char *raw = malloc(1 << 20), *out = malloc(1 << 20);
	size_t n = fread(raw, 1, (1 << 20) - 1, f), k = 0;
	fclose(f);
	raw[n] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (raw[i] == '\\' && (raw[i + 1] == '-' || raw[i + 1] == '&')) {
			if (raw[++i] == '-')
				out[k++] = '-';
		} else if (raw[i] == '\\' && raw[i + 1] == 'e') {
			out[k++] = '\\';
			i++;
		} else if (raw[i] == '\\' && raw[i + 1] == 'f') {
			i += 2;
		} else {
			out[k++] = raw[i];
		}
	}
	out[k] = '\0';
	free(raw);
	return out;
}

static void has(const char *text, const char *what, const char *want)
{
	if (!strstr(text, want))
		fail_msg("%s lacks %s '%s'", MANUAL, what, want + (*want == '\n'));
}

/* At p, s as text: a run of spaces and line breaks in the text is one space of s */
static bool same_text(const char *p, const char *s)
{
	while (*s) {
		if (*s == ' ') {
			if (*p != ' ' && *p != '\n')
				return false;
			while (*p == ' ' || *p == '\n')
				p++;
			s++;
			continue;
		}
		if (*p++ != *s++)
			return false;
	}
	return true;
}

/* A key's row: its names at the start of a line or after spaces (a second key of the
 * line), then spaces, then its help (wrapped as it may be) */
static bool key_row(const char *text, const struct binding *b)
{
	size_t len = strlen(b->names);

	for (const char *p = text; (p = strstr(p, b->names)); p++) {
		if (p > text && p[-1] != '\n' && p[-1] != ' ')
			continue;
		const char *h = p + len;
		if (*h != ' ')
			continue;
		while (*h == ' ')
			h++;
		if (same_text(h, b->help))
			return true;
	}
	return false;
}

/* A key that moves the selection, named on an "as above:" line */
static bool as_above(const char *text, const struct binding *b)
{
	static const char *const moves[] = {"Up", "Down", "PgUp", "PgDn", "Home", "End"};
	bool move = false;

	for (size_t i = 0; i < sizeof(moves) / sizeof(*moves); i++)
		move |= !strcmp(b->names, moves[i]);
	for (const char *p = text; move && (p = strstr(p, "\nas above:")); p++) {
		const char *end = strchr(p + 1, '\n');
		for (const char *q = strstr(p, b->names); q && end && q < end;
		     q = strstr(q + 1, b->names))
			if (q[-1] == ' ' &&
			    (q[strlen(b->names)] == ' ' || q[strlen(b->names)] == '\n'))
				return true;
	}
	return false;
}

static void table_listed(const char *text, const char *what, const struct binding *b)
{
	for (; b && b->act; b++)
		if (!key_row(text, b) && !as_above(text, b))
			fail_msg("%s lacks %s '%s' with its help '%s'", MANUAL, what, b->names,
				 b->help);
}

static void keys_listed(void **state)
{
	(void)state;
	char *text = manual_text();
	for (int s = 0; s < NSCREENS; s++)
		table_listed(text, "the key", ui_screens[s].keys);
	table_listed(text, "the common key", common_bindings);
	table_listed(text, "the prompt key", prompt_bindings);
	table_listed(text, "the replay key", replay_bindings);
	has(text, "the theme key", "\nV ");
	free(text);
}

static void columns_listed(void **state)
{
	(void)state;
	char *text = manual_text(), line[400];
	for (int c = 0; c < COL_COUNT; c++) {
		snprintf(line, sizeof(line), "\n%s (%s) %s", columns[c].title, columns[c].name,
			 columns[c].desc);
		has(text, "the column", line);
	}
	for (int c = 0; c < CGCOL_COUNT; c++) {
		snprintf(line, sizeof(line), "\n%s (%s) %s", cg_columns[c].title,
			 cg_columns[c].name, cg_columns[c].desc);
		has(text, "the cgroup column", line);
	}
	free(text);
}

/* Each "--flag" and "-x" the usage text names starts a line: an entry of OPTIONS */
static void flags_listed(void **state)
{
	(void)state;
	char *usage = NULL, *text = manual_text(), want[80];
	size_t size = 0;
	FILE *f = open_memstream(&usage, &size);
	options_usage(f);
	fclose(f);
	int n = 0;
	for (char *p = usage; (p = strstr(p, "\n  ")); p++) {
		char *w = p + 1 + strspn(p + 1, " ");
		if (w - p > 8 || *w != '-')
			continue; /* not a flag's line */
		size_t len = strcspn(w, " ,\n");
		snprintf(want, sizeof(want), "\n%.*s", (int)len, w); /* a .TP entry's tag */
		has(text, "the flag", want);
		n++;
	}
	assert_true(n >= 20);
	has(text, "the flag", "--no-mouse");
	free(usage);
	free(text);
}

UNIT_GROUP(manual)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys_listed),
		cmocka_unit_test(columns_listed),
		cmocka_unit_test(flags_listed),
	};
	return cmocka_run_group_tests_name("manual", tests, NULL, NULL);
}
