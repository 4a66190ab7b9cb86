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

/* code point cp as UTF-8 in buf */
static const char *utf8(uint32_t cp, char buf[5])
{
	if (cp < 0x80) {
		buf[0] = (char)cp, buf[1] = 0;
	} else if (cp < 0x800) {
		buf[0] = (char)(0xc0 | cp >> 6), buf[1] = (char)(0x80 | (cp & 0x3f)), buf[2] = 0;
	} else if (cp < 0x10000) {
		buf[0] = (char)(0xe0 | cp >> 12), buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		buf[2] = (char)(0x80 | (cp & 0x3f)), buf[3] = 0;
	} else {
		buf[0] = (char)(0xf0 | cp >> 18), buf[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		buf[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), buf[3] = (char)(0x80 | (cp & 0x3f));
		buf[4] = 0;
	}
	return buf;
}

/* Unicode's format characters (Cf, as of 15.1) and the line and paragraph separators,
 * written out again from the standard's list rather than taken from text.c */
static const uint32_t invisible_ranges[][2] = {
	{0x00ad, 0x00ad},   {0x0600, 0x0605},	{0x061c, 0x061c},   {0x06dd, 0x06dd},
	{0x070f, 0x070f},   {0x0890, 0x0891},	{0x08e2, 0x08e2},   {0x180e, 0x180e},
	{0x200b, 0x200f},   {0x2028, 0x2029},	{0x202a, 0x202e},   {0x2060, 0x2064},
	{0x2066, 0x206f},   {0xfeff, 0xfeff},	{0xfff9, 0xfffb},   {0x110bd, 0x110bd},
	{0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},
	{0xe0001, 0xe0001}, {0xe0020, 0xe007f},
};

static bool listed(uint32_t cp)
{
	for (size_t i = 0; i < sizeof(invisible_ranges) / sizeof(invisible_ranges[0]); i++)
		if (cp >= invisible_ranges[i][0] && cp <= invisible_ranges[i][1])
			return true;
	return false;
}

/* Bidi overrides, zero-width and other invisible characters are shown as \u escapes, so a
 * process cannot disguise its name or command line; the characters around them are not. */
static void escape_invisible(void **state)
{
	(void)state;
	char b[128], c[5], want[16];
	escape_display("invoice\xe2\x80\xaegpj.exe", b, sizeof(b), true); /* U+202E */
	assert_string_equal(b, "invoice\\u202egpj.exe");
	escape_display("a\xe2\x80\x8b"
		       "b\xef\xbb\xbf"
		       "c\xe2\x81\xa6"
		       "d\xe2\x81\xa9",
		       b, sizeof(b), true); /* U+200B, U+FEFF, U+2066, U+2069 */
	assert_string_equal(b, "a\\u200bb\\ufeffc\\u2066d\\u2069");
	escape_display("\xe2\x80\xa8\xe2\x80\xa9\xc2\xad", b, sizeof(b), true);
	assert_string_equal(b, "\\u2028\\u2029\\u00ad");
	escape_display("\xf3\xa0\x80\x81\xf3\xa0\x81\x81", b, sizeof(b), true); /* tags */
	assert_string_equal(b, "\\U000e0001\\U000e0041");
	/* in the C locale every byte from 0x80 is escaped already */
	escape_display("\xe2\x80\xae", b, sizeof(b), false);
	assert_string_equal(b, "\\xe2\\x80\\xae");
	/* the ends of each range, and the characters beside them */
	for (size_t i = 0; i < sizeof(invisible_ranges) / sizeof(invisible_ranges[0]); i++) {
		uint32_t ends[] = {invisible_ranges[i][0], invisible_ranges[i][1],
				   invisible_ranges[i][0] - 1, invisible_ranges[i][1] + 1};
		for (size_t e = 0; e < 4; e++) {
			uint32_t cp = ends[e];
			if (cp >= 0x80 && cp < 0xa0)
				continue; /* C1, escaped as bytes */
			escape_display(utf8(cp, c), b, sizeof(b), true);
			if (listed(cp))
				snprintf(want, sizeof(want), cp > 0xffff ? "\\U%08x" : "\\u%04x",
					 (unsigned)cp);
			else
				snprintf(want, sizeof(want), "%s", c);
			if (strcmp(b, want))
				fail_msg("U+%04X shown as \"%s\", want \"%s\"", (unsigned)cp, b,
					 want);
		}
	}
	/* neither cut in two */
	char small[8];
	assert_int_equal(escape_display("ab\xe2\x80\xae", small, sizeof(small), true), 2);
	assert_string_equal(small, "ab");
	assert_int_equal(escape_display("\xf3\xa0\x80\x81", b, 10, true), 0);
	assert_int_equal(escape_display("\xf3\xa0\x80\x81", b, 11, true), 10);
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

/* JSON keeps the invisible characters visible as \u escapes (a surrogate pair beyond
 * U+FFFF), which decode back to the same characters; other UTF-8 stays as it is. */
static void json_invisible(void **state)
{
	(void)state;
	char *j = json_of("invoice\xe2\x80\xaegpj.exe\xe2\x80\x8b");
	assert_string_equal(j, "\"invoice\\u202egpj.exe\\u200b\"");
	free(j);
	j = json_of("\xef\xbb\xbf\xe2\x80\xa8\xc2\xad");
	assert_string_equal(j, "\"\\ufeff\\u2028\\u00ad\"");
	free(j);
	j = json_of("\xf3\xa0\x80\x81"); /* U+E0001 */
	assert_string_equal(j, "\"\\udb40\\udc01\"");
	free(j);
	j = json_of("caf\xc3\xa9 \xe2\x80\x90 \xf0\x9f\x90\xa7"); /* é, hyphen, penguin */
	assert_string_equal(j, "\"caf\xc3\xa9 \xe2\x80\x90 \xf0\x9f\x90\xa7\"");
	free(j);
}

UNIT_GROUP(text)
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
		cmocka_unit_test(escape_invisible),
		cmocka_unit_test(json_invisible),
	};
	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
