#include <curses.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "theme.h"
#include "unit.h"
#include "util.h"

/* Every theme in themes/ (those make install ships) loads by its name without a warning:
 * each role it names is one of memtop's, each color and attribute known, none missing */
static void shipped_themes_parse(void **state)
{
	(void)state;
	char err[160], warn[1024], buf[8192], name[64];
	glob_t g;
	assert_int_equal(glob("themes/*.theme", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 4); /* default, mono, 256, light */
	for (size_t i = 0; i < g.gl_pathc; i++) {
		assert_true(read_file(g.gl_pathv[i], buf, sizeof(buf)) > 0);
		struct theme *t = theme_parse(buf, err, sizeof(err), warn, sizeof(warn));
		if (!t)
			fail_msg("%s: %s", g.gl_pathv[i], err);
		if (*warn)
			fail_msg("%s: %s", g.gl_pathv[i], warn);
		theme_free(t);
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(g.gl_pathv[i] + 7, "."),
			 g.gl_pathv[i] + 7);
		t = theme_load(name, err, sizeof(err), warn, sizeof(warn));
		if (!t || *warn)
			fail_msg("theme_load(%s): %s%s", name, t ? "" : err, t ? warn : "");
		theme_free(t);
		/* compiled in, as the file says */
		size_t k = 0;
		while (theme_builtins[k].name && strcmp(theme_builtins[k].name, name))
			k++;
		if (!theme_builtins[k].name)
			fail_msg("%s: not compiled in", g.gl_pathv[i]);
		assert_string_equal(theme_builtins[k].text, buf);
	}
	size_t nbuiltin = 0;
	while (theme_builtins[nbuiltin].name)
		nbuiltin++;
	assert_int_equal(nbuiltin, g.gl_pathc);
	assert_string_equal(theme_builtins[0].name, "default");
	globfree(&g);
	struct theme *t = theme_load("default", err, sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	assert_string_equal(warn, "");
	assert_int_equal(theme_fg(t, ROLE_ALERT), COLOR_WHITE);
	theme_free(t);
}

/* The light theme draws text dark; the 256 one uses the palette beyond the eight */
static void light_and_256(void **state)
{
	(void)state;
	char err[160], warn[1024];
	struct theme *t = theme_load("light", err, sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	assert_int_equal(theme_fg(t, ROLE_ROW), COLOR_BLACK);
	assert_int_equal(theme_fg(t, ROLE_VALUE), COLOR_BLACK);
	theme_free(t);
	t = theme_load("256", err, sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	assert_true(theme_fg(t, ROLE_HEADER) > 15);
	theme_free(t);
	/* colors by number: 0 to 255, no more */
	t = theme_parse("header 208 default\nlabel 256 default\nvalue -3 default\n", err,
			sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	assert_int_equal(theme_fg(t, ROLE_HEADER), 208);
	assert_non_null(strstr(warn, "unknown color '256'"));
	assert_non_null(strstr(warn, "unknown color '-3'"));
	theme_free(t);
	/* T goes through the shipped ones and comes back */
	const char *n = "default";
	for (int i = 0; i < 4; i++)
		n = theme_next(n);
	assert_string_equal(n, "default");
	assert_string_equal(theme_next("/some/file.theme"), "default");
}

/* NO_COLOR (any non-empty value) means mono unless a theme was chosen */
static void no_color(void **state)
{
	(void)state;
	unsetenv("NO_COLOR");
	assert_string_equal(theme_chosen(""), "default");
	setenv("NO_COLOR", "", 1);
	assert_string_equal(theme_chosen(""), "default");
	setenv("NO_COLOR", "1", 1);
	assert_string_equal(theme_chosen(""), "mono");
	assert_string_equal(theme_chosen(NULL), "mono");
	assert_string_equal(theme_chosen("light"), "light");
	unsetenv("NO_COLOR");
}

/* Counts the lines of s that hold want. */
static int lines_with(const char *s, const char *want)
{
	int n = 0;
	for (const char *p = s; *p;) {
		size_t len = strcspn(p, "\n");
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		n += strstr(line, want) != NULL;
		p += len + (p[len] == '\n');
	}
	return n;
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A role the theme has no line for takes the default theme's colors, with one warning. */
static void missing_roles_default(void **state)
{
	(void)state;
	char err[160], warn[1024];
	struct theme *t = theme_parse("header red default\n", err, sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	assert_int_equal(theme_fg(t, ROLE_HEADER), COLOR_RED);
	assert_int_equal(theme_fg(t, ROLE_ALERT), COLOR_WHITE); /* default.theme's */
	assert_int_equal(theme_fg(t, ROLE_METER_USED), COLOR_GREEN);
	assert_int_equal(theme_fg(t, ROLE_VALUE), -1);
	assert_int_equal(count_lines(warn), 1);
	assert_int_equal(lines_with(warn, "22 roles missing, default colors used: label, value,"),
			 1);
	assert_int_equal(lines_with(warn, "help_title, graph1, graph2, graph3, graph4, graph_axis"),
			 1);
	assert_null(strstr(warn, ": header,")); /* table_header is missing, header is not */
	theme_free(t);

	/* one missing: singular, and named */
	char text[2048] = "";
	const char *roles[] = {"header",	"label",       "value",	     "meter_used",
			       "meter_buffers", "meter_cache", "meter_swap", "meter_frame",
			       "table_header",	"sort_column", "selected",   "row",
			       "row_dim",	"alert",       "warning",    "status",
			       "help_title",	"graph1",      "graph2",     "graph3",
			       "graph4",	"graph_axis"};
	for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s blue default\n",
			 roles[i]);
	t = theme_parse(text, err, sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	assert_string_equal(warn, "theme: 1 role missing, default colors used: key\n");
	assert_int_equal(theme_fg(t, ROLE_KEY), COLOR_WHITE);
	assert_int_equal(theme_fg(t, ROLE_HELP_TITLE), COLOR_BLUE);
	theme_free(t);

	/* an empty file is all defaults; a NULL warning buffer is allowed */
	t = theme_parse("# nothing\n", err, sizeof(err), NULL, 0);
	assert_non_null(t);
	assert_int_equal(theme_fg(t, ROLE_HEADER), COLOR_CYAN);
	theme_free(t);
}

/* An unknown role or a bad value: a warning naming the line; the other lines load. */
static void bad_lines_warn(void **state)
{
	(void)state;
	char err[160], warn[1024], text[9000], buf[8192];
	assert_true(read_file("themes/mono.theme", buf, sizeof(buf)) > 0);
	/* mono.theme with bad lines after its own: line numbers count from 1 */
	int base = count_lines(buf);
	snprintf(text, sizeof(text),
		 "%snosuchrole red default\nalert purple default\nwarning red\n"
		 "key red default blink\nlabel red default\n",
		 buf);
	struct theme *t = theme_parse(text, err, sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	char want[160];
	snprintf(want, sizeof(want), "theme line %d: unknown role 'nosuchrole'", base + 1);
	assert_int_equal(lines_with(warn, want), 1);
	snprintf(want, sizeof(want), "theme line %d: unknown color 'purple'; alert", base + 2);
	assert_int_equal(lines_with(warn, want), 1);
	snprintf(want, sizeof(want), "theme line %d: expected 'role foreground", base + 3);
	assert_int_equal(lines_with(warn, want), 1);
	snprintf(want, sizeof(want), "theme line %d: unknown attribute 'blink'; key", base + 4);
	assert_int_equal(lines_with(warn, want), 1);
	assert_int_equal(count_lines(warn), 4); /* no role is missing */
	/* bad lines leave their role as it was (mono's), the rest load */
	assert_int_equal(theme_fg(t, ROLE_ALERT), -1);
	assert_int_equal(theme_fg(t, ROLE_WARNING), -1);
	assert_int_equal(theme_fg(t, ROLE_KEY), -1);
	assert_int_equal(theme_fg(t, ROLE_LABEL), COLOR_RED);
	theme_free(t);

	/* a bad line for a role the theme gives nowhere else: the default's colors */
	t = theme_parse("alert purple default\n", err, sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	assert_int_equal(theme_fg(t, ROLE_ALERT), COLOR_WHITE);
	assert_int_equal(lines_with(warn, "unknown color 'purple'"), 1);
	assert_int_equal(lines_with(warn, "22 roles missing"), 1); /* alert has its line */
	theme_free(t);
}

/* A theme's words quoted in a warning are escaped: a control sequence in a theme file
 * cannot reach the terminal through memtop's stderr. */
static void bad_words_escaped(void **state)
{
	(void)state;
	char err[160], warn[1024];
	struct theme *t = theme_parse("role\x1b]52;c;eA==\a red default\n"
				      "header \x1b[31m default\n"
				      "label red default bold\x1b[5m\n",
				      err, sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	assert_null(strchr(warn, '\x1b'));
	assert_null(strchr(warn, '\a'));
	assert_int_equal(lines_with(warn, "theme line 1: unknown role 'role\\e]52;c;eA==\\x07'"),
			 1);
	assert_int_equal(lines_with(warn, "theme line 2: unknown color '\\e[31m'"), 1);
	assert_int_equal(lines_with(warn, "theme line 3: unknown attribute 'bold\\e[5m'"), 1);
	theme_free(t);
}

/* A file that is no theme at all warns about a few lines, counts the rest, and loads. */
static void many_bad_lines(void **state)
{
	(void)state;
	char err[160], warn[1024], text[4096] = "";
	for (int i = 0; i < 40; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "root:x:0:0:root:/root:/bin/bash\n");
	struct theme *t = theme_parse(text, err, sizeof(err), warn, sizeof(warn));
	assert_non_null(t);
	assert_int_equal(lines_with(warn, "unknown role"), 5);
	assert_int_equal(lines_with(warn, "theme: 35 more lines with problems ignored"), 1);
	assert_int_equal(lines_with(warn, "theme: 23 roles missing"), 1);
	assert_int_equal(count_lines(warn), 7);
	theme_free(t);
	/* a small buffer holds whole lines only */
	char small[80];
	t = theme_parse(text, err, sizeof(err), small, sizeof(small));
	assert_non_null(t);
	assert_true(strlen(small) < sizeof(small));
	assert_true(!*small || small[strlen(small) - 1] == '\n');
	theme_free(t);
}

static void theme_files(void **state)
{
	(void)state;
	char err[160], warn[1024], path[] = "/tmp/memtop-unit-theme.XXXXXX";
	assert_null(theme_load("no-such-theme", err, sizeof(err), warn, sizeof(warn)));
	assert_non_null(strstr(err, "no-such-theme"));
	assert_null(theme_load("/nonexistent/x.theme", err, sizeof(err), warn, sizeof(warn)));
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char text[] = "# one role\nheader red default bold\nbogus red default\n";
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	struct theme *t = theme_load(path, err, sizeof(err), warn, sizeof(warn));
	unlink(path);
	assert_non_null(t);
	assert_int_equal(theme_fg(t, ROLE_HEADER), COLOR_RED);
	char want[160];
	snprintf(want, sizeof(want), "theme %s:3: unknown role 'bogus'", path);
	assert_int_equal(lines_with(warn, want), 1);
	snprintf(want, sizeof(want), "theme %s: 22 roles missing, default colors used: ", path);
	assert_int_equal(lines_with(warn, want), 1);
	assert_int_equal(count_lines(warn), 2);
	theme_free(t);
}

UNIT_GROUP(theme)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shipped_themes_parse), cmocka_unit_test(missing_roles_default),
		cmocka_unit_test(bad_lines_warn),	cmocka_unit_test(many_bad_lines),
		cmocka_unit_test(theme_files),		cmocka_unit_test(bad_words_escaped),
		cmocka_unit_test(light_and_256),	cmocka_unit_test(no_color),
	};
	return cmocka_run_group_tests_name("theme", tests, NULL, NULL);
}
