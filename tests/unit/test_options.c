#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "settings.h"
#include "unit.h"

static int parse(struct options *o, const char *a0, const char *a1, const char *a2)
{
	char err[256];
	char *argv[] = {"memtop", (char *)a0, (char *)a1, (char *)a2, NULL};
	int argc = 1 + (a0 != NULL) + (a1 != NULL) + (a2 != NULL);
	return options_parse(o, argc, argv, err, sizeof(err));
}

static void defaults(void **state)
{
	(void)state;
	struct options o;
	assert_int_equal(parse(&o, NULL, NULL, NULL), 0);
	assert_int_equal(o.mode, OUT_TUI);
	assert_float_equal(o.prefs.delay, 1.0, 0);
	assert_int_equal(o.prefs.sort, COL_RSS);
	assert_int_equal(o.iterations, 0);
	assert_false(o.bpf_stats);
}

static void good_values(void **state)
{
	(void)state;
	struct options o;
	assert_int_equal(parse(&o, "-b", "-n", "3"), 0);
	assert_int_equal(o.mode, OUT_BATCH);
	assert_int_equal(o.iterations, 3);
	/* each flag sets its own field: two flags of one getopt value would share it */
	assert_int_equal(parse(&o, "--json", "--no-wait", NULL), 0);
	assert_true(o.no_wait);
	assert_null(o.web_config);
	char *serve[] = {"memtop", "--serve", "9100", "--web-config", "w.yml", NULL}, err[256];
	assert_int_equal(options_parse(&o, 5, serve, err, sizeof(err)), 0);
	assert_string_equal(o.web_config, "w.yml");
	assert_false(o.no_wait);
	assert_int_equal(parse(&o, "--json", "-d", "0.5"), 0);
	assert_int_equal(o.mode, OUT_JSON);
	assert_float_equal(o.prefs.delay, 0.5, 0);
	assert_int_equal(parse(&o, "-p", "1,22,333", NULL), 0);
	assert_int_equal(o.prefs.filter.npids, 3);
	assert_int_equal(o.prefs.filter.pids[2], 333);
	assert_int_equal(parse(&o, "-o", "swap", "--no-bpf"), 0);
	assert_int_equal(o.prefs.sort, COL_SWAP);
	assert_true(o.no_bpf);
	assert_int_equal(parse(&o, "--bpf-stats", NULL, NULL), 0);
	assert_true(o.bpf_stats);
	assert_int_equal(parse(&o, "-u", "root", NULL), 0);
	assert_true(o.prefs.filter.by_user);
	assert_int_equal(o.prefs.filter.uid, 0);
	assert_int_equal(parse(&o, "-o", "MINF/s", NULL), 0);
	assert_int_equal(o.prefs.sort, COL_MINFLT);
	assert_int_equal(parse(&o, "--tree", "-K", NULL), 0);
	assert_true(o.prefs.tree && o.prefs.filter.hide_kthreads);
	assert_int_equal(parse(&o, "-tK", NULL, NULL), 0);
	assert_true(o.prefs.tree && o.prefs.filter.hide_kthreads);
}

static void bad_values(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	const char *bad[][2] = {
		{"-n", "0"},
		{"-n", "x"},
		{"-n", "-4"},
		{"-d", "0"},
		{"-d", "abc"},
		{"-d", "nan"},
		{"-d", "1e9"},
		{"-p", "abc"},
		{"-p", "1,,2"},
		{"-p", "0"},
		{"-p", "12x"},
		{"-o", "nosuch"},
		{"--columns", "rss,nosuch"},
		{"--columns", "rss,+pss"},
		{"--columns", ","},
		{"-u", "no_such_user_here"},
		{"--frobnicate", NULL},
		{"-d", NULL},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = {"memtop", (char *)bad[i][0], (char *)bad[i][1], NULL};
		err[0] = '\0';
		assert_int_equal(options_parse(&o, bad[i][1] ? 3 : 2, argv, err, sizeof(err)), -1);
		assert_true(strlen(err) > 5);
		assert_null(strchr(err, '\n'));
	}
	char *argv[] = {"memtop", "extra", NULL};
	assert_int_equal(options_parse(&o, 2, argv, err, sizeof(err)), -1);

	/* the message names what was wrong */
	static const char *const said[][2] = {
		{"--tree=1", "option '--tree' takes no value"},
		{"--bogus=3", "unknown option '--bogus' (see memtop --help)"},
		{"--bogus", "unknown option '--bogus' (see memtop --help)"},
		{"-x", "unknown option '-x' (see memtop --help)"},
	};
	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++) {
		char *args[] = {"memtop", (char *)said[i][0], NULL};
		assert_int_equal(options_parse(&o, 2, args, err, sizeof(err)), -1);
		assert_string_equal(err, said[i][1]);
	}
}

static void column_sets(void **state)
{
	(void)state;
	char err[200];
	unsigned set = 0;

	assert_int_equal(columns_parse("pid,PSS,uss", &set, err, sizeof(err)), 0);
	assert_int_equal(set, COL_BIT(COL_PID) | COL_BIT(COL_PSS) | COL_BIT(COL_USS));
	assert_int_equal(columns_parse("+pss,-txt,-vsz", &set, err, sizeof(err)), 0);
	assert_int_equal(set, (columns_default() | COL_BIT(COL_PSS)) & ~COL_BIT(COL_TXT) &
				      ~COL_BIT(COL_VSZ));
	assert_true(set & COL_BIT(COL_CMD));
	/* what each set needs read: smaps_rollup only with PSS or USS */
	assert_false(columns_needs(columns_default()) & NEED_SMAPS);
	assert_true(columns_needs(set) & NEED_SMAPS);
	assert_true(columns_needs(COL_BIT(COL_SWAP)) & NEED_STATUS);
	assert_false(columns_needs(COL_BIT(COL_RSS) | COL_BIT(COL_CMD)) & NEED_STATUS);
}

/* Saved settings: what W writes reads back the same; a bad line is named by number;
 * keys a file lacks keep their values; the flags the command line gave are marked. */
static void settings_text(void **state)
{
	(void)state;
	char text[1024], err[256];
	struct prefs a, b;
	prefs_init(&a);
	a.cols = COL_BIT(COL_PID) | COL_BIT(COL_OOM) | COL_BIT(COL_CMD);
	a.sort = COL_OOM;
	a.invert = a.tree = a.graphs = true;
	a.delay = 2.5;
	prefs_init(&b);
	b.filter.hide_kthreads = true;

	settings_format(&a, text, sizeof(text));
	assert_int_equal(settings_parse(text, &b, err, sizeof(err)), 0);
	assert_int_equal(b.cols, a.cols);
	assert_int_equal(b.sort, a.sort);
	assert_true(b.invert && b.tree && b.graphs && !b.filter.hide_kthreads);
	assert_float_equal(b.delay, a.delay, 0);

	/* the file W writes, byte for byte */
	assert_string_equal(text, "# memtop settings, written by the W key; flags given on the "
				  "command line win\ncolumns=pid,oom,cmd\nsort=oom\ninvert=1\n"
				  "tree=1\nhide_kthreads=0\ndelay=2.5\nmouse=1\ngraphs=1\n");
	snprintf(a.theme, sizeof(a.theme), "light");
	settings_format(&a, text, sizeof(text));
	assert_non_null(strstr(text, "\ngraphs=1\ntheme=light\n"));

	b.delay = 7;
	assert_int_equal(settings_parse("# only this\r\n\n  tree=0\r\n", &b, err, sizeof(err)), 0);
	assert_false(b.tree);
	assert_float_equal(b.delay, 7, 0);

	static const char *const bad[][2] = {
		{"tree=1\ncolumns=pid,nosuch\n", "line 2: columns: unknown column 'nosuch'"},
		{"delay=0\n", "line 1: delay: seconds between 0.1 and 86400, not '0'"},
		{"sort=\n", "line 1: sort: no column ''"},
		{"tree=maybe", "line 1: tree: 1 or 0, not 'maybe'"},
		{"colour=red", "line 1: unknown setting 'colour'"},
		{"\n\njunk", "line 3: expected key=value, not 'junk'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(settings_parse(bad[i][0], &b, err, sizeof(err)), -1);
		assert_string_equal(err, bad[i][1]);
	}

	struct options o;
	assert_int_equal(parse(&o, "-t", "-d", "3"), 0);
	assert_int_equal(o.given, PREF_BIT(PREF_TREE) | PREF_BIT(PREF_DELAY));
	assert_int_equal(parse(&o, "-o", "pid", "-K"), 0);
	assert_int_equal(o.given, PREF_BIT(PREF_SORT) | PREF_BIT(PREF_KTHREADS));
}

static int parse_argv(struct options *o, char *err, size_t errlen, char **argv)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	err[0] = '\0';
	return options_parse(o, argc, argv, err, errlen);
}

/* --leaks PID[:SECS]: SECS, else LEAKS_DEFAULT_SECS (not -d); the same PID errors */
static void leaks_secs(void **state)
{
	(void)state;
	struct options o;
	char err[256];

	assert_int_equal(parse(&o, "--leaks", "42", "-d3"), 0);
	assert_int_equal(o.leaks_pid, 42);
	assert_float_equal(o.leaks_secs, LEAKS_DEFAULT_SECS, 0);
	assert_int_equal(o.stacks_pid, 0);
	assert_int_equal(parse(&o, "--leaks=7:2.5", "--json", NULL), 0);
	assert_int_equal(o.leaks_pid, 7);
	assert_float_equal(o.leaks_secs, 2.5, 0);
	assert_int_equal(o.mode, OUT_JSON);
	char *bad[] = {"memtop", "--leaks", "42:0", NULL};
	assert_int_not_equal(parse_argv(&o, err, sizeof(err), bad), 0);
	assert_string_equal(err, "--leaks PID:SECS needs seconds between 0.1 and 86400, not '0'");
	char *nopid[] = {"memtop", "--leaks", "x:2", NULL};
	assert_int_not_equal(parse_argv(&o, err, sizeof(err), nopid), 0);
	assert_string_equal(err, "--leaks needs a PID, not 'x'");
}

/* --stacks PID[:SECS] takes its own sampling time; -d still gives it without :SECS */
static void stacks_secs(void **state)
{
	(void)state;
	struct options o;
	char err[256];

	assert_int_equal(parse(&o, NULL, NULL, NULL), 0);
	assert_int_equal(o.stacks_pid, 0);
	assert_float_equal(o.stacks_secs, 0, 0);
	assert_int_equal(parse(&o, "--stacks", "42", NULL), 0);
	assert_int_equal(o.stacks_pid, 42);
	assert_float_equal(o.stacks_secs, 1, 0);
	assert_int_equal(parse(&o, "--stacks", "42:2.5", NULL), 0);
	assert_int_equal(o.stacks_pid, 42);
	assert_float_equal(o.stacks_secs, 2.5, 0);
	assert_float_equal(o.prefs.delay, 1, 0);
	assert_int_equal(parse(&o, "--stacks=42:0.5", "--json", NULL), 0);
	assert_float_equal(o.stacks_secs, 0.5, 0);
	assert_int_equal(o.mode, OUT_JSON);
	/* -d, before or after, when SECS is not given */
	assert_int_equal(parse(&o, "--stacks", "42", "-d3"), 0);
	assert_float_equal(o.stacks_secs, 3, 0);
	assert_int_equal(parse(&o, "-d3", "--stacks", "42"), 0);
	assert_float_equal(o.stacks_secs, 3, 0);
	/* SECS wins over -d */
	assert_int_equal(parse(&o, "--stacks", "42:0.5", "-d3"), 0);
	assert_float_equal(o.stacks_secs, 0.5, 0);
	assert_int_equal(parse(&o, "-d3", "--stacks", "42:0.5"), 0);
	assert_float_equal(o.stacks_secs, 0.5, 0);
	/* a later --stacks without SECS drops the earlier one's */
	char *again[] = {"memtop", "--stacks", "1:5", "--stacks", "2", NULL};
	assert_int_equal(parse_argv(&o, err, sizeof(err), again), 0);
	assert_int_equal(o.stacks_pid, 2);
	assert_float_equal(o.stacks_secs, 1, 0);

	static const char *const said[][2] = {
		{"abc", "--stacks needs a PID, not 'abc'"},
		{"0", "--stacks needs a PID, not '0'"},
		{"-5", "--stacks needs a PID, not '-5'"},
		{"99999999999", "--stacks needs a PID, not '99999999999'"},
		{"abc:2", "--stacks needs a PID, not 'abc'"},
		{":2", "--stacks needs a PID, not ''"},
		{"42:", "--stacks PID:SECS needs seconds between 0.1 and 86400, not ''"},
		{"42:0", "--stacks PID:SECS needs seconds between 0.1 and 86400, not '0'"},
		{"42:1e9", "--stacks PID:SECS needs seconds between 0.1 and 86400, not '1e9'"},
		{"42:nan", "--stacks PID:SECS needs seconds between 0.1 and 86400, not 'nan'"},
		{"42:1:2", "--stacks PID:SECS needs seconds between 0.1 and 86400, not '1:2'"},
	};
	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++) {
		char *argv[] = {"memtop", "--stacks", (char *)said[i][0], NULL};
		assert_int_equal(parse_argv(&o, err, sizeof(err), argv), -1);
		assert_string_equal(err, said[i][1]);
	}
}

/* Each flag's value goes through its parser in src/prefs/parse.c, which says what was wrong;
 * the flag adds its name; what the user typed comes back escaped */
static void flag_reasons(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	static const char *const said[][3] = {
		{"-d", "0", "-d needs seconds between 0.1 and 86400, not '0'"},
		{"-p", "1,,2", "-p needs PID[,PID...], not '1,,2'"},
		{"-u", "4294967296", "-u: no such user '4294967296'"},
		{"--columns", "pid,nosuch", "--columns: unknown column 'nosuch'"},
		{"-n", "\033[2J", "-n needs a positive number of refreshes, not '\\e[2J'"},
		{"-d", "\033]52;c;aGk=\a",
		 "-d needs seconds between 0.1 and 86400, not '\\e]52;c;aGk=\\x07'"},
		{"-u", "\033[2J", "-u: no such user '\\e[2J'"},
		{"-p", "1,\033[2J", "-p needs PID[,PID...], not '1,\\e[2J'"},
		{"--columns", "pid,\033[2J", "--columns: unknown column '\\e[2J'"},
		{"--stacks", "\033[2J", "--stacks needs a PID, not '\\e[2J'"},
		{"--\033[2J", NULL, "unknown option '--\\e[2J' (see memtop --help)"},
		{"--\033[2J=1", NULL, "unknown option '--\\e[2J' (see memtop --help)"},
		{"-\033", NULL, "unknown option '-\\e' (see memtop --help)"},
		{"\033[2J", NULL, "unexpected argument '\\e[2J' (see memtop --help)"},
	};
	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++) {
		char *argv[] = {"memtop", (char *)said[i][0], (char *)said[i][1], NULL};
		assert_int_equal(parse_argv(&o, err, sizeof(err), argv), -1);
		assert_string_equal(err, said[i][2]);
	}

	/* -o: the reason, then the columns there are */
	char *sort[] = {"memtop", "-o", "\033]52;c;aGk=\a", NULL};
	assert_int_equal(parse_argv(&o, err, sizeof(err), sort), -1);
	assert_non_null(strstr(err, "-o: no column '\\e]52;c;aGk=\\x07' (try pid, ppid,"));
	assert_null(strchr(err, '\033'));
	assert_null(strchr(err, '\a'));

	/* -p lists add up, to MAX_PIDS in all */
	char *twice[] = {"memtop", "-p", "1,2", "-p", "3", NULL};
	assert_int_equal(parse_argv(&o, err, sizeof(err), twice), 0);
	assert_int_equal(o.prefs.filter.npids, 3);
	assert_int_equal(o.prefs.filter.pids[2], 3);
	char list[MAX_PIDS * 3 + 1];
	size_t len = 0;
	for (int i = 1; i <= MAX_PIDS; i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d", i > 1 ? "," : "",
					i);
	char *full[] = {"memtop", "-p", list, NULL};
	assert_int_equal(parse_argv(&o, err, sizeof(err), full), 0);
	assert_int_equal(o.prefs.filter.npids, MAX_PIDS);
	char *over[] = {"memtop", "-p", list, "-p", "99", NULL};
	assert_int_equal(parse_argv(&o, err, sizeof(err), over), -1);
	assert_string_equal(err, "-p needs at most 64 PIDs in all");
}

/* The settings file's values go through the same parsers as the flags; a line quoted
 * back comes escaped */
static void settings_reasons(void **state)
{
	(void)state;
	struct prefs s;
	prefs_init(&s);
	char err[256];
	static const char *const said[][2] = {
		{"delay=\033[2J", "line 1: delay: seconds between 0.1 and 86400, not '\\e[2J'"},
		{"sort=\033[2J", "line 1: sort: no column '\\e[2J'"},
		{"columns=pid,\033[2J", "line 1: columns: unknown column '\\e[2J'"},
		{"tree=\033[2J", "line 1: tree: 1 or 0, not '\\e[2J'"},
		{"\033[2J=1", "line 1: unknown setting '\\e[2J'"},
		{"#\n\033[2J", "line 2: expected key=value, not '\\e[2J'"},
	};
	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++) {
		assert_int_equal(settings_parse(said[i][0], &s, err, sizeof(err)), -1);
		assert_string_equal(err, said[i][1]);
	}
	assert_int_equal(settings_parse("delay=0.5\nsort=MINF/s\n", &s, err, sizeof(err)), 0);
	assert_float_equal(s.delay, 0.5, 0);
	assert_int_equal(s.sort, COL_MINFLT);
}

/* --no-mouse and --theme, mouse= and theme=: the one preferences struct; W writes them */
static void mouse_and_theme(void **state)
{
	(void)state;
	struct options o;
	char err[256], text[1024];
	assert_int_equal(parse(&o, NULL, NULL, NULL), 0);
	assert_true(o.prefs.mouse);
	assert_string_equal(o.prefs.theme, "");
	assert_int_equal(parse(&o, "--no-mouse", "--theme", "light"), 0);
	assert_false(o.prefs.mouse);
	assert_string_equal(o.prefs.theme, "light");
	assert_true(o.given & PREF_BIT(PREF_MOUSE));
	assert_true(o.given & PREF_BIT(PREF_THEME));
	assert_int_equal(parse(&o, "--theme=", NULL, NULL), -1);
	assert_int_equal(parse(&o, "--no-mouse=1", NULL, NULL), -1);

	struct prefs p;
	prefs_init(&p);
	assert_int_equal(settings_parse("mouse=0\ntheme=256\n", &p, err, sizeof(err)), 0);
	assert_false(p.mouse);
	assert_string_equal(p.theme, "256");
	settings_format(&p, text, sizeof(text));
	assert_non_null(strstr(text, "\nmouse=0\n"));
	assert_non_null(strstr(text, "\ntheme=256\n"));
	prefs_init(&p);
	settings_format(&p, text, sizeof(text));
	assert_non_null(strstr(text, "\nmouse=1\n"));
	assert_null(strstr(text, "theme="));
	assert_int_equal(settings_parse("mouse=maybe\n", &p, err, sizeof(err)), -1);
	assert_string_equal(err, "line 1: mouse: 1 or 0, not 'maybe'");
}

/* Each row of prefs_table: its flag in --help, its key in the file W writes, and what W
 * writes reads back the same */
static void prefs_rows(void **state)
{
	(void)state;
	char *help = NULL, text[1024], err[256], flag[64];
	size_t len = 0;
	FILE *f = open_memstream(&help, &len);
	assert_non_null(f);
	options_usage(f);
	fclose(f);
	struct prefs p, back;
	prefs_init(&p);
	snprintf(p.theme, sizeof(p.theme), "mono");
	for (int c = 0; c < COL_COUNT; c++) /* an order other than the table's: TXT, RSS swapped */
		p.order[c] = (int8_t)c;
	p.order[COL_RSS] = COL_TXT;
	p.order[COL_TXT] = COL_RSS;
	settings_format(&p, text, sizeof(text));
	prefs_init(&back);
	assert_int_equal(settings_parse(text, &back, err, sizeof(err)), 0);
	for (int i = 0; i < PREF_COUNT; i++) {
		const struct pref *r = &prefs_table[i];
		assert_true(r->key || r->flag);
		if (r->flag) {
			snprintf(flag, sizeof(flag), " --%s", r->flag);
			assert_non_null(strstr(help, flag));
		}
		if (!r->key)
			continue;
		snprintf(flag, sizeof(flag), "\n%s=", r->key);
		assert_non_null(strstr(text, flag));
		assert_memory_equal((char *)&p + r->at, (char *)&back + r->at, r->size);
	}
	free(help);
}

UNIT_GROUP(options)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),	    cmocka_unit_test(good_values),
		cmocka_unit_test(bad_values),	    cmocka_unit_test(column_sets),
		cmocka_unit_test(settings_text),    cmocka_unit_test(stacks_secs),
		cmocka_unit_test(leaks_secs),	    cmocka_unit_test(flag_reasons),
		cmocka_unit_test(settings_reasons), cmocka_unit_test(mouse_and_theme),
		cmocka_unit_test(prefs_rows),
	};
	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
