#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "unit.h"

static void sizes(void **state)
{
	(void)state;
	char b[16];
	struct {
		uint64_t kb;
		const char *want;
	} cases[] = {
		{0, "0K"},	   {512, "512K"},	    {999, "999K"},    {1000, "1.0M"},
		{2048, "2.0M"},	   {10240, "10M"},	    {307200, "300M"}, {1048576, "1.0G"},
		{24598212, "23G"}, {5368709120ull, "5.0T"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_kb(cases[i].kb, b, sizeof(b));
		assert_string_equal(b, cases[i].want);
		assert_true(strlen(b) <= 5);
	}
}

/* Where fmt_kb changes unit (at 1000 of a unit, not 1024), and where it rounds from tenths
 * to whole units (9.95 and up) and up to the next tenth (half a tenth). */
static void size_boundaries(void **state)
{
	(void)state;
	char b[16];
	struct {
		uint64_t kb;
		const char *want;
	} cases[] = {
		{999, "999K"},
		{1000, "1.0M"},
		{1023, "1.0M"},
		{1024, "1.0M"},
		{1075, "1.0M"},
		{1076, "1.1M"},
		{10188, "9.9M"},
		{10189, "10M"},
		{1023487, "999M"},
		{1023488, "1000M"},
		{1023999, "1000M"},
		{1024000, "1.0G"},
		{1048575999, "1000G"},
		{1048576000, "1.0T"},
		{1073741823999ull, "1000T"},
		{1073741824000ull, "1.0P"},
		{1099511627776000ull, "1000P"}, /* P is the last unit */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_kb(cases[i].kb, b, sizeof(b));
		if (strcmp(b, cases[i].want))
			fail_msg("fmt_kb(%llu) = \"%s\", want \"%s\"",
				 (unsigned long long)cases[i].kb, b, cases[i].want);
		assert_true(strlen(b) <= 5);
	}
	/* a buffer too small is cut, never overrun */
	char small[4] = "xxx";
	fmt_kb(1023488, small, sizeof(small));
	assert_string_equal(small, "100");
}

static void rates(void **state)
{
	(void)state;
	char b[16];
	fmt_rate(0, b, sizeof(b));
	assert_string_equal(b, "0");
	fmt_rate(-3, b, sizeof(b));
	assert_string_equal(b, "0");
	fmt_rate(2.5, b, sizeof(b));
	assert_string_equal(b, "2.5");
	fmt_rate(1234, b, sizeof(b));
	assert_string_equal(b, "1234");
	fmt_rate(2500000, b, sizeof(b));
	assert_string_equal(b, "2.5M");
}

static void escape_controls(void **state)
{
	(void)state;
	char b[128];
	escape_display("\x1b[2J\x1b[31mEVIL\a", b, sizeof(b), true);
	assert_string_equal(b, "\\e[2J\\e[31mEVIL\\x07");
	escape_display("tab\there\nnl\x7f", b, sizeof(b), true);
	assert_string_equal(b, "tab\\there\\nnl\\x7f");
	escape_display("back\\slash", b, sizeof(b), true);
	assert_string_equal(b, "back\\\\slash");
}

static void short_commands(void **state)
{
	(void)state;
	assert_string_equal(cmd_short("/usr/bin/foo -x /a/b"), "foo -x /a/b");
	assert_string_equal(cmd_short("./dd_grow"), "dd_grow");
	assert_string_equal(cmd_short("bash"), "bash");
	assert_string_equal(cmd_short("/dir/"), "dir/");
	assert_string_equal(cmd_short(""), "");
	assert_string_equal(cmd_short("[kworker/R-rcu_gp]"), "[kworker/R-rcu_gp]");
}

static void escape_utf8(void **state)
{
	(void)state;
	char b[128];
	escape_display("caf\xc3\xa9", b, sizeof(b), true); /* valid UTF-8 kept */
	assert_string_equal(b, "caf\xc3\xa9");
	escape_display("caf\xc3\xa9", b, sizeof(b), false); /* C locale: escaped */
	assert_string_equal(b, "caf\\xc3\\xa9");
	escape_display("\xc2\x9b"
		       "2J",
		       b, sizeof(b), true); /* C1 CSI */
	assert_string_equal(b, "\\xc2\\x9b2J");
	escape_display("bad\xff\xfe", b, sizeof(b), true);
	assert_string_equal(b, "bad\\xff\\xfe");
	escape_display("\xe2\x82", b, sizeof(b), true); /* truncated sequence */
	assert_string_equal(b, "\\xe2\\x82");
}

static void escape_truncates_whole(void **state)
{
	(void)state;
	char b[6];
	assert_int_equal(escape_display("ab\x1b\x1b", b, sizeof(b), true), 4);
	assert_string_equal(b, "ab\\e");
}

static char *json_of(const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	json_string(f, s);
	fclose(f);
	return out;
}

static void json_escapes(void **state)
{
	(void)state;
	char *j = json_of("a\"b\\c\x1b[1m\n\x7f");
	assert_string_equal(j, "\"a\\\"b\\\\c\\u001b[1m\\u000a\\u007f\"");
	free(j);
	j = json_of("caf\xc3\xa9 \xff");
	assert_string_equal(j, "\"caf\xc3\xa9 \\u00ff\"");
	free(j);
	j = json_of("\xc2\x9b");
	assert_string_equal(j, "\"\\u009b\"");
	free(j);
}

int run_text_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes),
		cmocka_unit_test(size_boundaries),
		cmocka_unit_test(rates),
		cmocka_unit_test(escape_controls),
		cmocka_unit_test(escape_utf8),
		cmocka_unit_test(short_commands),
		cmocka_unit_test(escape_truncates_whole),
		cmocka_unit_test(json_escapes),
	};
	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
