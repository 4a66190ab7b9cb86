/* The lines of a small configuration file in a subset of YAML (node_exporter's web
 * configuration, process-exporter's process groups): the whole file read at once, its
 * lines one by one without blank lines, comments and "---" (a document's start), and a
 * scalar as YAML writes it, plain or quoted. */
#ifndef MEMTOP_YAMLINES_H
#define MEMTOP_YAMLINES_H

#include <stddef.h>

/* The largest file read: a configuration, not data */
#define YAML_FILE_MAX (1 << 20)

/* The whole of a file, NUL-terminated, to free(); NULL with errno (EFBIG: longer than
 * YAML_FILE_MAX) */
char *yaml_slurp(const char *path);

/* The next line of the text at *at that holds something (not blank, not a comment, not
 * "---"), NUL-terminated in place, its indentation kept; *lineno counts the lines read
 * (start it at 0). NULL at the end. */
char *yaml_line(char **at, int *lineno);

/* A value as YAML writes a plain scalar ("a # comment" is "a"), a single-quoted one (''
 * is ') or a double-quoted one (\\ and \" are \ and "; other backslashes stay), in place;
 * *rest (where not NULL) is set after a quoted scalar's closing quote. NULL where a quote
 * is not closed. */
char *yaml_scalar(char *v, char **rest);

#endif
