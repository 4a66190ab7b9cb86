/* The preferences as one table: a row per preference names its line in the settings file,
 * its flag, the parser of its value and its field in struct prefs. The flags
 * (options.c), the settings file (settings.c: read, written by W) and the step that lays
 * the saved settings under the flags given (settings_apply) all iterate it, so that a new
 * preference is its field in struct prefs and its row here. */
#ifndef MEMTOP_PREFS_TABLE_H
#define MEMTOP_PREFS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "prefs.h"

/* A row's place in prefs_table[]; its place is its line's place in the settings file */
enum pref_id {
	PREF_COLUMNS,
	PREF_ORDER,
	PREF_SORT,
	PREF_INVERT,
	PREF_TREE,
	PREF_KTHREADS,
	PREF_DELAY,
	PREF_MOUSE,
	PREF_GRAPHS,
	PREF_THEME,
	PREF_PIDS,
	PREF_USER,
	PREF_CGROUP,
	PREF_COUNT
};

/* A set of preferences, as the flags given (struct options.given) */
#define PREF_BIT(id) (1u << (id))

/* The value's type and parser (src/prefs/parse.c). A bad value's reason names what is
 * wanted ("seconds between...": "-d needs seconds...") or, for a column or a user, what is
 * wrong ("no column 'x'": "-o: no column 'x'"). */
enum pref_kind {
	PK_SWITCH,  /* bool: the flag takes no value and sets .on; the file "1"/"yes", "0"/"no" */
	PK_COLUMNS, /* unsigned, a set of COL_BIT()s: parse_columns */
	PK_ORDER,   /* int8_t[COL_COUNT], the columns' ranks: a list of columns, the first first */
	PK_COLUMN,  /* enum col_id: parse_column; a flag's reason lists the columns */
	PK_DELAY,   /* double, seconds: parse_delay */
	PK_THEME,   /* char[]: a name or a path; the file may clear it, a flag may not */
	PK_PIDS,    /* struct model_filter: parse_pids, added to those given before */
	PK_USER,    /* struct model_filter: parse_user, which sets by_user too */
	PK_CGROUP,  /* struct model_filter: prefs_set_cgroup */
};

struct pref {
	const char *key;  /* its line "key=value" in the settings file; NULL: not saved */
	const char *flag; /* its long flag without "--"; NULL: none */
	char letter;	  /* its short flag; 0: none */
	enum pref_kind kind;
	/* its value before a flag or the file sets one, as the file writes it; NULL: zero
	 * (the columns: those columns[] shows by default) */
	const char *preset;
	bool on;	     /* PK_SWITCH: what its flag sets */
	size_t at, size;     /* its field in struct prefs: PREF_FIELD() */
	unsigned kept_by;    /* the flags given that keep the saved value out; 0: its own */
	bool written_if_set; /* W writes it only when it is not empty */
};

#define PREF_FIELD(f) .at = offsetof(struct prefs, f), .size = sizeof(((struct prefs *)0)->f)

extern const struct pref prefs_table[PREF_COUNT];

/* Parses s into the row's field of p. from_flag: the value a flag gave, else a settings
 * file's. Returns 0, or -1 with the parser's reason in why (no flag, key or line). */
int pref_parse(const struct pref *r, struct prefs *p, const char *s, bool from_flag, char *why,
	       size_t whylen);

/* The row's flag as messages name it ("-d", "--columns") and what comes between it and a
 * reason (" needs ", ": "), for "-d needs seconds between 0.1 and 86400, not '0'" */
const char *pref_flag_name(const struct pref *r, char *buf, size_t size);
const char *pref_flag_joint(const struct pref *r);

/* The row's value in p as the settings file writes it (after "key="). */
void pref_format(const struct pref *r, const struct prefs *p, char *buf, size_t size);

#endif
