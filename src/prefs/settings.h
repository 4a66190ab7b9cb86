/* Saved settings of the full-screen view, as top's W and htop's setup keep them:
 * $XDG_CONFIG_HOME/memtop/memtoprc, else ~/.config/memtop/memtoprc, one "key=value" a
 * line. The W key writes it; the full-screen view reads it at start, and flags given on
 * the command line win over it. Batch and JSON output take flags only. */
#ifndef MEMTOP_SETTINGS_H
#define MEMTOP_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "prefs.h"

/* The file's path; -1 when neither XDG_CONFIG_HOME nor HOME is set. */
int settings_path(char *buf, size_t size);

/* Parses the file's text over p's saved fields (the rows of prefs_table with a key; keys
 * it lacks keep their value in p). Returns 0, or -1 with "line N: reason" in err. */
int settings_parse(const char *text, struct prefs *p, char *err, size_t errlen);

/* The file's text for p, NUL-terminated in buf. */
void settings_format(const struct prefs *p, char *buf, size_t size);

/* Reads the file over p. Returns 1 if there is none, 0 when read, -1 with a one-line
 * reason (naming the file) in err. */
int settings_load(struct prefs *p, char *err, size_t errlen);

/* Writes p's saved fields to the file (its directory too), replacing it whole. Returns 0 with the
 * path in msg, or -1 with a one-line reason in msg. */
int settings_save(const struct prefs *p, char *msg, size_t msglen);

/* The full-screen view starts from the saved settings, under the flags given: reads the
 * file and sets each saved preference of p that no flag in given (PREF_BIT()s) set.
 * Returns 0 (none saved, or set), or -1 having said why on stderr. */
int settings_apply(struct prefs *p, unsigned given);

#endif
