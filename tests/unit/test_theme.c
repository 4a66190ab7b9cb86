#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "unit.h"
#include "util.h"

static void shipped_themes_parse(void **state)
{
	(void)state;
	char err[160], buf[8192];
	const char *files[] = {"themes/default.theme", "themes/mono.theme"};
	for (size_t i = 0; i < 2; i++) {
		assert_true(read_file(files[i], buf, sizeof(buf)) > 0);
		struct theme *t = theme_parse(buf, err, sizeof(err));
		if (!t)
			fail_msg("%s: %s", files[i], err);
		theme_free(t);
	}
	struct theme *t = theme_load("default", err, sizeof(err));
	assert_non_null(t);
	assert_int_equal(theme_fg(t, ROLE_ALERT), COLOR_WHITE);
	theme_free(t);
}

static void bad_themes(void **state)
{
	(void)state;
	char err[160];
	assert_null(theme_parse("header cyan\n", err, sizeof(err)));
	assert_non_null(strstr(err, "line 1"));
	assert_null(theme_parse("header purple default\n", err, sizeof(err)));
	assert_null(theme_parse("nosuchrole red default\n", err, sizeof(err)));
	assert_null(theme_parse("header red default blink\n", err, sizeof(err)));
	/* a theme must give every role */
	assert_null(theme_parse("header red default\n", err, sizeof(err)));
	assert_non_null(strstr(err, "label"));
	assert_null(theme_load("no-such-theme", err, sizeof(err)));
}

int run_theme_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shipped_themes_parse),
		cmocka_unit_test(bad_themes),
	};
	return cmocka_run_group_tests_name("theme", tests, NULL, NULL);
}
