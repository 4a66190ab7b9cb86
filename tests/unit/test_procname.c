#include <string.h>

#include "procname.h"
#include "unit.h"

/* An interpreter's short name is its script's, or its main class's */
static void short_names(void **state)
{
	(void)state;
	static const struct {
		const char *comm, *cmd, *want;
	} cases[] = {
		{"python3", "python3 /tmp/d/long-script-name-1.py", "long-script-name-1.py"},
		{"python3",
		 "/root/.pyenv/versions/3.11.7/bin/python3.11 -u -W ignore /srv/app.py -v",
		 "app.py"},
		{"python3", "python3 -m http.server 8000", "http.server"},
		{"python3", "python3 -mhttp.server", "http.server"},
		{"python3", "python3 -c import time", "python3"},
		{"python3", "python3 -uc import time", "python3"},
		{"python3", "python3", "python3"},
		{"python3", "python3 -", "python3"},
		{"perl", "/usr/bin/perl -w -I/opt/lib /usr/sbin/tool.pl --x", "tool.pl"},
		{"perl", "perl -e print", "perl"},
		{"ruby", "ruby -I lib bin/server.rb", "server.rb"},
		{"node", "node --max-old-space-size=512 -r dotenv/config ./dist/main.js",
		 "main.js"},
		{"node", "node --eval 1", "node"},
		{"java", "java -Xmx4g -cp /a.jar:/b.jar org.example.app.Main --port 1", "Main"},
		{"java", "/usr/lib/jvm/bin/java -Dx=y -jar /opt/svc/service-1.2.jar",
		 "service-1.2.jar"},
		{"bash", "/bin/bash /usr/local/bin/backup.sh nightly", "backup.sh"},
		{"bash", "bash -c sleep 1", "bash"},
		{"sh", "sh -e -- ./run.sh", "run.sh"},
		{"dash", "dash -xc true", "dash"},
		{"php", "php -d memory_limit=1G -f /var/www/cron.php", "cron.php"},
		{"myprog", "/usr/bin/myprog /tmp/file.py", "myprog"},
		{"pythonic", "pythonic x.py", "pythonic"},
		{"kworker/0:1", "[kworker/0:1]", "kworker/0:1"},
		{"x", NULL, "x"},
		{NULL, NULL, ""},
	};
	char out[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t n = proc_short_name(cases[i].comm, cases[i].cmd, out, sizeof(out));
		if (strcmp(out, cases[i].want) || n != strlen(out))
			fail_msg("'%s': '%s' (%zu), want '%s'", cases[i].cmd ? cases[i].cmd : "",
				 out, n, cases[i].want);
	}
	/* cut to the room given */
	assert_int_equal(proc_short_name("p", "python3 /x/abcdefgh.py", out, 5), 4);
	assert_string_equal(out, "abcd");
}

/* A command line for a narrow column: directories dropped from the program and the
 * script, the interpreter's options dropped, the script's own arguments kept */
static void brief_commands(void **state)
{
	(void)state;
	static const struct {
		const char *cmd, *want;
	} cases[] = {
		{"python3 /tmp/d/long-script-name-1.py", "python3 long-script-name-1.py"},
		{"/usr/bin/python3 -u /tmp/d/x.py -v /a/b", "python3 x.py -v /a/b"},
		{"python3 -m http.server 8000", "python3 -m http.server 8000"},
		{"java -Xmx1g -cp /a.jar org.x.Main 1", "java org.x.Main 1"},
		{"/usr/bin/foo -x /a/b", "foo -x /a/b"},
		{"[kworker/R-rcu_gp]", "[kworker/R-rcu_gp]"},
		{"", ""},
	};
	char out[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		cmd_brief(cases[i].cmd, out, sizeof(out));
		assert_string_equal(out, cases[i].want);
	}
}

UNIT_GROUP(procname)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(short_names),
		cmocka_unit_test(brief_commands),
	};
	return cmocka_run_group_tests_name("procname", tests, NULL, NULL);
}
