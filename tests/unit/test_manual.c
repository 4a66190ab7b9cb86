/* The manual page (build/memtop.1, made by man/mkman.c) lists every key of every screen's
 * binding table, every column of both column tables, every system figure and JSON key,
 * and every flag of the usage text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgcolumns.h"
#include "columns.h"
#include "options.h"
#include "prompt.h"
#include "sysfig.h"
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

static void keys_listed(void **state)
{
	(void)state;
	char *text = manual_text(), line[300];
	for (int s = 0; s < NSCREENS; s++) {
		const struct binding *b = ui_screens[s].keys;
		for (; b && b->act; b++) {
			snprintf(line, sizeof(line), "\n.B %s\n%s\n", b->names, b->help);
			has(text, "the key", line);
		}
	}
	for (const struct binding *b = common_bindings; b->act; b++) {
		snprintf(line, sizeof(line), "\n.B %s\n%s\n", b->names, b->help);
		has(text, "the common key", line);
	}
	for (const struct binding *b = prompt_bindings; b->act; b++) {
		snprintf(line, sizeof(line), "\n.B %s\n%s\n", b->names, b->help);
		has(text, "the prompt key", line);
	}
	for (const struct binding *b = replay_bindings; b->act; b++) {
		snprintf(line, sizeof(line), "\n.B %s\n%s\n", b->names, b->help);
		has(text, "the replay key", line);
	}
	has(text, "the theme key", "\n.B T\n");
	free(text);
}

static void columns_listed(void **state)
{
	(void)state;
	char *text = manual_text(), line[300];
	for (int c = 0; c < COL_COUNT; c++) {
		snprintf(line, sizeof(line), "\n.B %s\n(%s) %s\n", columns[c].title,
			 columns[c].name, columns[c].desc);
		has(text, "the column", line);
		has(text, "the JSON key", columns[c].json);
	}
	for (int c = 0; c < CGCOL_COUNT; c++) {
		snprintf(line, sizeof(line), "\n.B %s\n(%s) %s\n", cg_columns[c].title,
			 cg_columns[c].name, cg_columns[c].desc);
		has(text, "the cgroup column", line);
		has(text, "the JSON key", cg_columns[c].json);
	}
	for (size_t i = 0; i < n_sys_figures; i++)
		has(text, "the system figure", sys_figures[i].json);
	free(text);
}

/* Each "--flag" and "-x" the usage text names starts an entry of OPTIONS */
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
		snprintf(want, sizeof(want), "\n.TP\n%.*s", (int)len, w);
		has(text, "the flag", want);
		n++;
	}
	assert_true(n >= 20);
	has(text, "the flag", "--no-mouse");
	free(usage);
	free(text);
}

int run_manual_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys_listed),
		cmocka_unit_test(columns_listed),
		cmocka_unit_test(flags_listed),
	};
	return cmocka_run_group_tests_name("manual", tests, NULL, NULL);
}
