/* Saved settings of the full-screen view, as top's W and htop's setup keep them:
 * $XDG_CONFIG_HOME/memtop/memtoprc, else ~/.config/memtop/memtoprc, one "key=value" a
 * line. The W key writes it; the full-screen view reads it at start, and flags given on
 * the command line win over it. Batch and JSON output take flags only. */
#ifndef MEMTOP_SETTINGS_H
#define MEMTOP_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"

struct settings {
	unsigned columns; /* a set of COL_BIT()s */
	enum col_id sort;
	bool invert;
	bool tree;
	bool hide_kthreads;
	double delay; /* seconds */
};

/* The file's path; -1 when neither XDG_CONFIG_HOME nor HOME is set. */
int settings_path(char *buf, size_t size);

/* Parses the file's text over s (keys it lacks keep their value in s). Returns 0, or -1
 * with "line N: reason" in err. */
int settings_parse(const char *text, struct settings *s, char *err, size_t errlen);

/* The file's text for s, NUL-terminated in buf. */
void settings_format(const struct settings *s, char *buf, size_t size);

/* Reads the file over s. Returns 1 if there is none, 0 when read, -1 with a one-line
 * reason (naming the file) in err. */
int settings_load(struct settings *s, char *err, size_t errlen);

/* Writes the file (its directory too), replacing it whole. Returns 0 with the path in
 * msg, or -1 with a one-line reason in msg. */
int settings_save(const struct settings *s, char *msg, size_t msglen);

#endif
