#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric.h"
#include "unit.h"

static void label_is(const char *in, const char *want)
{
	char out[256];
	size_t n = metric_label(in, out);

	assert_true(n <= metric_label_max(in));
	out[n] = '\0';
	assert_string_equal(out, want);
}

/* What the format escapes, escaped as it says; control bytes and bytes that are not UTF-8
 * as the text \xNN; UTF-8 as it is */
static void labels_escape_hostile_names(void **state)
{
	(void)state;
	label_is("bash", "bash");
	label_is("a\\b\"c\nd", "a\\\\b\\\"c\\nd");
	label_is("\x1b[2J", "\\\\x1b[2J");
	label_is("\t\r\x7f", "\\\\x09\\\\x0d\\\\x7f");
	label_is("caf\xc3\xa9", "caf\xc3\xa9");
	label_is("cut\xe2\x80", "cut\\\\xe2\\\\x80");	   /* a sequence cut short */
	label_is("\xc0\xaf", "\\\\xc0\\\\xaf");		   /* overlong */
	label_is("\xed\xa0\x80", "\\\\xed\\\\xa0\\\\x80"); /* a surrogate */
	label_is("\xc2\x85", "\\\\xc2\\\\x85");		   /* C1: NEL */
	label_is(NULL, "");
}

/* The characters that draw nothing yet change how the text around them reads, as the
 * text \u202e (\U000e0001 beyond U+FFFF), as the screen, batch and JSON show them */
static void labels_escape_format_characters(void **state)
{
	(void)state;
	label_is("invoice\xe2\x80\xaegpj.exe", "invoice\\\\u202egpj.exe"); /* U+202E */
	label_is("zero\xe2\x80\x8bwidth", "zero\\\\u200bwidth");	   /* U+200B */
	label_is("tag\xf3\xa0\x80\x81", "tag\\\\U000e0001");		   /* U+E0001 */
	label_is("\xef\xbb\xbf", "\\\\ufeff");
	label_is("\xe2\x80\xa8", "\\\\u2028"); /* the line separator */
}

static void number_is(double v, const char *want)
{
	char buf[64];

	metric_number(v, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void numbers(void **state)
{
	(void)state;
	number_is(0, "0");
	number_is(-0.0, "0");
	number_is(25276502016.0, "25276502016");
	number_is(2e-6, "2e-06");
	number_is(0.1, "0.1");
	number_is(1795450463.9716787, "1795450463.9716787");
	number_is(1.0 / 0.0, "+Inf");
	/* 16 digits where 15 do not read back and 16 do: not 17 with noise */
	number_is(0.1 + 0.2, "0.30000000000000004");
	number_is(1.0 / 3, "0.3333333333333333");
	/* whole counts of small units divided, not multiplied by an inexact factor */
	number_is(645.551 * 1e-6, "0.0006455510000000001");
	number_is(metric_scale(645551, 1e-9), "0.000645551");
	number_is(metric_scale(645551, 1e-6), "0.645551");
	number_is(metric_scale(28650317, 1e-6), "28.650317");
	number_is(metric_scale(123, 0.01), "1.23");
	number_is(metric_scale(3, 1024), "3072");
	for (int i = 1; i < 200000; i += 7) { /* every one the fewest digits */
		char buf[64];
		double v = metric_scale(i, 1e-6);
		metric_number(v, buf, sizeof(buf));
		assert_true(strtod(buf, NULL) == v);
		assert_true(strlen(buf) <= 8);
	}
}

static const struct column *column(const char *name)
{
	return &columns[column_by_name(name)];
}

/* Names, types and factors come from the tables' units */
static void metrics_from_the_tables(void **state)
{
	char name[160];
	(void)state;

	struct metric mt = metric_of_column(column("rss"));
	assert_int_equal(mt.type, METRIC_GAUGE);
	assert_true(mt.factor == 1024);
	metric_name(name, sizeof(name), METRIC_PROCESS_PREFIX, "resident", &mt, false);
	assert_string_equal(name, "memtop_process_resident_bytes");

	mt = metric_of_column(column("reclaim")); /* a rate: its counter, ns, in seconds */
	assert_int_equal(mt.type, METRIC_COUNTER);
	assert_true(mt.factor > 0.99e-9 && mt.factor < 1.01e-9);
	metric_name(name, sizeof(name), METRIC_PROCESS_PREFIX, "reclaim_stall", &mt, false);
	assert_string_equal(name, "memtop_process_reclaim_stall_seconds_total");
	metric_name(name, sizeof(name), METRIC_PROCESS_PREFIX, "reclaim_stall", &mt, true);
	assert_string_equal(name, "memtop_process_reclaim_stall_seconds");

	assert_int_equal(metric_of_column(column("mem")).type, METRIC_NONE);  /* a share */
	assert_int_equal(metric_of_column(column("grow")).type, METRIC_NONE); /* growth */
	assert_int_equal(metric_of_column(column("cmd")).type, METRIC_NONE);
	assert_int_equal(metric_of_column(&cg_columns[CGCOL_OOM_KILLS]).type, METRIC_COUNTER);
	mt = metric_of_column(&cg_columns[CGCOL_PSI_SOME]); /* hundredths of a percent */
	assert_string_equal(mt.unit, "ratio");
	assert_true(mt.factor > 0.99e-4 && mt.factor < 1.01e-4);

	/* system figures: rates are not exported, their counters are; every exported one has
	 * its help, and no two share a name */
	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *f = &sys_figures[i];
		mt = metric_of_figure(f);
		if (f->unit == SF_RATE && !f->total)
			assert_int_equal(mt.type, METRIC_NONE);
		if (mt.type == METRIC_NONE)
			continue;
		assert_non_null(f->help);
		char a[160], b[160];
		metric_name(a, sizeof(a), METRIC_PREFIX, f->metric, &mt, false);
		for (size_t j = 0; j < i; j++) {
			struct metric mj = metric_of_figure(&sys_figures[j]);
			if (mj.type == METRIC_NONE)
				continue;
			metric_name(b, sizeof(b), METRIC_PREFIX, sys_figures[j].metric, &mj, false);
			assert_string_not_equal(a, b);
		}
	}
}

UNIT_GROUP(metric)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(labels_escape_hostile_names),
		cmocka_unit_test(labels_escape_format_characters),
		cmocka_unit_test(numbers),
		cmocka_unit_test(metrics_from_the_tables),
	};
	return cmocka_run_group_tests_name("metric", tests, NULL, NULL);
}
