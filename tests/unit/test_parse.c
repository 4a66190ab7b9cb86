#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "unit.h"

/* A reason is one line, without a raw control character */
static void assert_printable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		assert_false(*p < 0x20 || *p == 0x7f);
}

static void delay(void **state)
{
	(void)state;
	char err[200];
	double d;
	static const struct {
		const char *in;
		double want;
	} good[] = {
		{"0.1", 0.1}, {"86400", 86400}, {"2.5", 2.5}, {"1e1", 10}, {"1", 1},
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		d = -1;
		assert_int_equal(parse_delay(good[i].in, &d, err, sizeof(err)), 0);
		assert_float_equal(d, good[i].want, 0);
	}
	static const char *const bad[] = {
		"0", "0.099", "86400.5", "-1", "nan",	"inf", "-inf",
		"",  " ",     "1x",	 "1 ", "1e999", "x",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		d = 7;
		err[0] = '\0';
		assert_int_equal(parse_delay(bad[i], &d, err, sizeof(err)), -1);
		assert_float_equal(d, 7, 0); /* left alone */
		assert_non_null(strstr(err, "seconds between 0.1 and 86400, not '"));
		assert_printable(err);
	}
	assert_int_equal(parse_delay("abc", &d, err, sizeof(err)), -1);
	assert_string_equal(err, "seconds between 0.1 and 86400, not 'abc'");
}

static void user(void **state)
{
	(void)state;
	char err[200];
	uint32_t uid;

	assert_int_equal(parse_user("root", &uid, err, sizeof(err)), 0);
	assert_int_equal(uid, 0);
	assert_int_equal(parse_user("0", &uid, err, sizeof(err)), 0);
	assert_int_equal(uid, 0);
	assert_int_equal(parse_user("12345", &uid, err, sizeof(err)), 0);
	assert_int_equal(uid, 12345);
	assert_int_equal(parse_user("4294967295", &uid, err, sizeof(err)), 0);
	assert_int_equal(uid, UINT32_MAX);
	static const char *const bad[] = {
		"4294967296", "99999999999999999999999", "-1", "+5", " 5", "5 ", "12x", "",
		"x y",	      "no_such_user_here",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uid = 77;
		assert_int_equal(parse_user(bad[i], &uid, err, sizeof(err)), -1);
		assert_int_equal(uid, 77);
		assert_printable(err);
	}
	assert_int_equal(parse_user("4294967296", &uid, err, sizeof(err)), -1);
	assert_string_equal(err, "no such user '4294967296'");
}

static void pids(void **state)
{
	(void)state;
	char err[200], list[64 * 4 + 8];
	int32_t p[64], one;
	int n;

	assert_int_equal(parse_pid("1", &one, err, sizeof(err)), 0);
	assert_int_equal(one, 1);
	assert_int_equal(parse_pid("2147483647", &one, err, sizeof(err)), 0);
	assert_int_equal(one, INT32_MAX);
	static const char *const bad_one[] = {
		"0",  "-5", "2147483648", "99999999999", "99999999999999999999999", "abc", "",
		" 5", "+5", "5x",	  "1,2",
	};
	for (size_t i = 0; i < sizeof(bad_one) / sizeof(bad_one[0]); i++) {
		assert_int_equal(parse_pid(bad_one[i], &one, err, sizeof(err)), -1);
		assert_printable(err);
	}
	assert_int_equal(parse_pid("abc", &one, err, sizeof(err)), -1);
	assert_string_equal(err, "a PID, not 'abc'");

	assert_int_equal(parse_pids("1,22,333", p, 64, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(p[0], 1);
	assert_int_equal(p[2], 333);
	assert_int_equal(parse_pids("7", p, 1, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	static const char *const bad[] = {
		"",  ",",   "1,",   ",1",   "1,,2", "1;2",
		"0", "1,0", "1,-2", "1, 2", "12x",  "1,2147483648",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = 99;
		assert_int_equal(parse_pids(bad[i], p, 64, &n, err, sizeof(err)), -1);
		assert_int_equal(n, 99);
		assert_printable(err);
	}
	assert_int_equal(parse_pids("1,,2", p, 64, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "PID[,PID...], not '1,,2'");

	/* exactly max, then one more */
	size_t len = 0;
	for (int i = 1; i <= 64; i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d", i > 1 ? "," : "",
					i);
	assert_int_equal(parse_pids(list, p, 64, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 64);
	assert_int_equal(p[63], 64);
	snprintf(list + len, sizeof(list) - len, ",65");
	assert_int_equal(parse_pids(list, p, 64, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "at most 64 PIDs");
}

static void column(void **state)
{
	(void)state;
	char err[300];
	enum col_id c = COL_PID;
	unsigned set = 0;

	assert_int_equal(parse_column("rss", &c, err, sizeof(err)), 0);
	assert_int_equal(c, COL_RSS);
	assert_int_equal(parse_column("MINF/s", &c, err, sizeof(err)), 0);
	assert_int_equal(c, COL_MINFLT);
	assert_int_equal(parse_column("nosuch", &c, err, sizeof(err)), -1);
	assert_string_equal(err, "no column 'nosuch'");
	assert_int_equal(c, COL_MINFLT);

	/* lists go through columns_parse; the reason names no flag */
	assert_int_equal(parse_columns("pid,pss", &set, err, sizeof(err)), 0);
	assert_int_equal(set, COL_BIT(COL_PID) | COL_BIT(COL_PSS));
	assert_int_equal(parse_columns("pid,nosuch", &set, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown column 'nosuch'");
	assert_int_equal(parse_columns("pid,\033[2J", &set, err, sizeof(err)), -1);
	assert_printable(err);
	assert_non_null(strstr(err, "\\e[2J"));
}

/* What a user typed comes back escaped and cut short, however it is built */
static void quoted(void **state)
{
	(void)state;
	char err[300], q[PARSE_QUOTE_SIZE];
	double d;
	uint32_t uid;
	int32_t pid[4];
	int n;
	enum col_id c;
	const char *osc52 = "\033]52;c;aGVsbG8=\a";

	assert_int_equal(parse_column(osc52, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "no column '\\e]52;c;aGVsbG8=\\x07'");
	assert_int_equal(parse_delay(osc52, &d, err, sizeof(err)), -1);
	assert_printable(err);
	assert_int_equal(parse_user(osc52, &uid, err, sizeof(err)), -1);
	assert_printable(err);
	assert_int_equal(parse_pids(osc52, pid, 4, &n, err, sizeof(err)), -1);
	assert_printable(err);
	assert_int_equal(parse_pid("\x9b"
				   "31m",
				   pid, err, sizeof(err)),
			 -1);
	assert_printable(err);
	assert_null(strchr(err, '\x9b')); /* C1 CSI, a byte on its own */

	/* short input whole, long input cut with "..." */
	assert_string_equal(parse_quote("abc", q, sizeof(q)), "abc");
	char long_in[200];
	memset(long_in, 'x', sizeof(long_in) - 1);
	long_in[sizeof(long_in) - 1] = '\0';
	parse_quote(long_in, q, sizeof(q));
	assert_int_equal(strlen(q), 43);
	assert_string_equal(q + 40, "...");
	/* escapes fill the room: the cut falls between them, never inside one */
	char escs[41];
	memset(escs, '\033', sizeof(escs) - 1);
	escs[sizeof(escs) - 1] = '\0';
	parse_quote(escs, q, sizeof(q));
	assert_true(strlen(q) < sizeof(q));
	assert_string_equal(q + strlen(q) - 3, "...");
	assert_int_equal((strlen(q) - 3) % 2, 0);
	for (size_t i = 0; i + 3 < strlen(q); i += 2)
		assert_memory_equal(q + i, "\\e", 2);
	parse_quote("abcdefgh", q, 6); /* a small buffer still ends in "..." */
	assert_string_equal(q, "ab...");
	parse_quote("abc", q, 1);
	assert_string_equal(q, "");

	/* under a UTF-8 locale letters stay, and a cut never splits one */
	if (setlocale(LC_CTYPE, "C.UTF-8")) {
		char e[100] = "";
		for (int i = 0; i < 30; i++)
			strcat(e, "\xc3\xa9"); /* é */
		parse_quote(e, q, sizeof(q));
		assert_int_equal(strlen(q), 40 + 3);
		assert_memory_equal(q, e, 40);
		parse_quote("\xc3\xa9\033", q, sizeof(q));
		assert_string_equal(q, "\xc3\xa9\\e");
		setlocale(LC_CTYPE, "C");
	}
	parse_quote("\xc3\xa9", q, sizeof(q));
	assert_string_equal(q, "\\xc3\\xa9");
}

static void oom_adj(void **state)
{
	(void)state;
	char err[128];
	int adj = 7;
	assert_int_equal(parse_oom_adj("-1000", &adj, err, sizeof(err)), 0);
	assert_int_equal(adj, -1000);
	assert_int_equal(parse_oom_adj("1000", &adj, err, sizeof(err)), 0);
	assert_int_equal(adj, 1000);
	static const char *const bad[] = {"", "-1001", "1001", "5x", "x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_oom_adj(bad[i], &adj, err, sizeof(err)), -1);
	assert_int_equal(adj, 1000);
	assert_string_equal(err, "-1000 to 1000, not 'x'");
}
/* A cgroup's amount: strict, K/M/G/T, "max" where a limit takes it; never a crash */
static void amount(void **state)
{
	(void)state;
	char err[160];
	uint64_t b = 7;
	static const struct {
		const char *s;
		uint64_t bytes;
	} good[] = {{"250M", 250ULL << 20}, {"1G", 1ULL << 30}, {"1.5G", 3ULL << 29},
		    {"64k", 64 << 10},	    {"4096", 4096},	{"2T", 2ULL << 40},
		    {"max", UINT64_MAX},    {"0.5M", 512 << 10}};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(parse_amount(good[i].s, true, &b, err, sizeof(err)), 0);
		assert_true(b == good[i].bytes);
	}
	static const char *const bad[] = {
		"",    "-1M",	"+1M", " 1M", "1M ", "1MB",   "1Q",	      "0",   "100", "4095",
		"1e9", "0x10M", "nan", "inf", "MAX", "1..2M", "99999999999T", "1.5", "M",   "\x1b"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_amount(bad[i], true, &b, err, sizeof(err)), -1);
	assert_int_equal(parse_amount("max", false, &b, err, sizeof(err)), -1);
	assert_string_equal(err, "a size like 250M, 1.5G (4K at least), not 'max'");
	assert_int_equal(parse_amount("12Q", true, &b, err, sizeof(err)), -1);
	assert_string_equal(err, "a size like 250M, 1.5G or max (4K at least), not '12Q'");
	assert_true(b == (512 << 10));
}

UNIT_GROUP(parse)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(delay),  cmocka_unit_test(user),   cmocka_unit_test(pids),
		cmocka_unit_test(column), cmocka_unit_test(quoted), cmocka_unit_test(oom_adj),
		cmocka_unit_test(amount),
	};
	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
