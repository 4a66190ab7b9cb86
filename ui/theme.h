/* Colors by semantic role. Drawing code asks for a role; themes/ map roles to colors. */
#ifndef MEMTOP_THEME_H
#define MEMTOP_THEME_H

#include <stddef.h>

enum role {
	ROLE_HEADER,
	ROLE_LABEL,
	ROLE_VALUE,
	ROLE_METER_USED,
	ROLE_METER_BUFFERS,
	ROLE_METER_CACHE,
	ROLE_METER_SWAP,
	ROLE_METER_FRAME,
	ROLE_TABLE_HEADER,
	ROLE_SORT_COLUMN,
	ROLE_SELECTED,
	ROLE_ROW,
	ROLE_ROW_DIM,
	ROLE_ALERT,
	ROLE_WARNING,
	ROLE_STATUS,
	ROLE_KEY,
	ROLE_HELP_TITLE,
	ROLE_GRAPH1, /* the series of a graph, first to fourth */
	ROLE_GRAPH2,
	ROLE_GRAPH3,
	ROLE_GRAPH4,
	ROLE_GRAPH_AXIS, /* a graph's axis lines and labels */
	ROLE_COUNT
};

struct theme;

/* The themes of themes/, compiled in (made by the Makefile): the default first, then the
 * others in the order V goes through them; ends with a NULL name */
struct theme_builtin {
	const char *name, *text;
};
extern const struct theme_builtin theme_builtins[];

/* name: "default", another theme's name (its file in the themes directories, beside the
 * binary then the installed one, else the one compiled in), or a path to a file. Colors
 * are the eight names or numbers of the 256-color palette (the nearest of the eight on a
 * terminal with fewer). A role
 * the theme has no line for, or a bad line for, keeps the default theme's colors. Returns
 * NULL with err only when the file cannot be read. warn (may be NULL) gets what is wrong
 * with the theme, one line a problem, each ending in '\n' ("theme FILE:LINE: ...", and at
 * most one "theme FILE: N roles missing, default colors used: ..."), or "" when nothing is;
 * the caller shows it. The file's name and the words quoted are escaped (parse_quote), in
 * warnings as in err. */
struct theme *theme_load(const char *name, char *err, size_t errlen, char *warn, size_t warnlen);
/* theme_load for theme text; exposed for tests. Warnings say "theme line N: ...". */
struct theme *theme_parse(const char *text, char *err, size_t errlen, char *warn, size_t warnlen);
void theme_free(struct theme *t);
/* The theme to load for the one chosen (--theme, theme= in the settings; NULL or "" for
 * none): that one, else mono where NO_COLOR is set to anything (no-color.org), else the
 * default */
const char *theme_chosen(const char *pref);
/* The compiled-in theme after name (default, 256, light, mono, then default again); the
 * first for a name that is none of them */
const char *theme_next(const char *name);
/* Loads name (as theme_load, its warnings dropped) into t, for theme_apply; returns 0, or
 * -1 with err and t unchanged */
int theme_replace(struct theme *t, const char *name, char *err, size_t errlen);
/* After initscr: sets up color pairs, or attributes only where the terminal has no color. */
void theme_apply(struct theme *t);
/* The curses attributes for a role. */
int theme_attr(const struct theme *t, enum role r);
/* For tests: the foreground color number of a role (-1 = default). */
int theme_fg(const struct theme *t, enum role r);

#endif
