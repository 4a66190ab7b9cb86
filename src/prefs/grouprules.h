/* --groups FILE: the rules that put processes in named groups, in the subset of
 * process-exporter's configuration that memtop reads:
 *
 *   process_names:
 *     - name: "{{.Comm}}"          # a template; without one, "{{.ExeBase}}"
 *       comm: [postgres, nginx]    # any of these names (exactly)
 *     - cmdline: ['^/usr/bin/make\b']  # every regular expression matches
 *
 * Matchers of a rule: comm (names), exe (argv[0]: a path with a '/', else its base
 * name), user (names or uids), cmdline (POSIX extended regular expressions on the
 * command line, its arguments joined by spaces), cgroup (the same on the memory cgroup's
 * path). A rule matches a process when each of its matchers does; lists are block
 * ("- item" lines) or flow ([a, 'b']). The template's fields are {{.Comm}}, {{.ExeBase}},
 * {{.ExeFull}}, {{.Username}} and {{.Matches}} (what the first cmdline expression
 * matched). */
#ifndef MEMTOP_GROUPRULES_H
#define MEMTOP_GROUPRULES_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

enum group_match { GM_COMM, GM_EXE, GM_USER, GM_CMDLINE, GM_CGROUP, GM_COUNT };

/* The fields a name template takes, as {{.Name}} */
enum group_field { GF_COMM, GF_EXE_BASE, GF_EXE_FULL, GF_USERNAME, GF_MATCHES, GF_COUNT };

/* The longest name template read (the name it makes is cut to 255 bytes, groups.c) */
#define GROUP_TEMPLATE_MAX	1024
#define GROUP_TEMPLATE_MAX_TEXT "1024"

/* A name template: literal text and fields, in turn. Part i is text[i], then (where
 * i < nfields) field[i]. */
struct group_template {
	char **text;
	enum group_field *field;
	size_t nfields; /* text holds nfields + 1 */
};

struct group_list {
	char **s;      /* the names (GM_COMM, GM_EXE, GM_USER) or the expressions' text */
	regex_t *re;   /* GM_CMDLINE, GM_CGROUP: compiled */
	size_t n, cap; /* n > 0: the matcher is set */
};

struct group_rule {
	struct group_template name;
	struct group_list m[GM_COUNT];
	int line; /* where it starts in the file */
};

struct group_rules {
	struct group_rule *r;
	size_t n, cap;
};

/* Reads path into g: a regular file (read_config: a FIFO, a device or a directory is
 * refused, never waited on) of 1 MiB at most (YAML_FILE_MAX). Returns 0, or -1 with one
 * line in err, "--groups FILE:LINE: why" (a file that cannot be read, a line of another
 * form, a key not supported, a regular expression that does not compile, a template
 * field not known, a rule with no matcher), the file's name and the text it quotes
 * escaped for the terminal (parse_quote). */
int group_rules_read(struct group_rules *g, const char *path, char *err, size_t errlen);
/* The same from text (NUL-terminated, changed in place), name the file's for err */
int group_rules_parse(struct group_rules *g, char *text, const char *name, char *err,
		      size_t errlen);
/* Whether any rule matches on the memory cgroup (the cgroups must then be read) */
bool group_rules_need_cgroups(const struct group_rules *g);
void group_rules_free(struct group_rules *g);

#endif
