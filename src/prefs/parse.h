/* One parser for each kind of value a person types: a number of seconds, a user, a
 * process id or a list of them, a column or a list of columns. The flags (options.c),
 * the settings file (settings.c) and the screen's prompts (ui/prompt.c) all take their
 * values through these.
 *
 * Each returns 0, or -1 with a one-line reason in err that names no flag, key or
 * prompt: the caller adds its own ("-d needs " / "line 3: delay: " / nothing on the
 * screen). Input quoted in a reason is escaped (escape_display) and cut short, so a
 * value holding control characters cannot reach the terminal raw. */
#ifndef MEMTOP_PARSE_H
#define MEMTOP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"

#define DELAY_MIN 0.1 /* seconds between refreshes, and of stack sampling */
#define DELAY_MAX 86400.0

/* Room for parse_quote's result: 40 bytes of input, escaped, and "..." */
#define PARSE_QUOTE_SIZE 64

/* s as a message may quote it: escaped for the terminal (UTF-8 kept where the locale's
 * charset is UTF-8), cut at a character boundary to fit PARSE_QUOTE_SIZE with "..."
 * marking the cut. Returns buf. */
const char *parse_quote(const char *s, char *buf, size_t size);

/* s escaped as parse_quote does, but whole, as far as buf holds it: for a file's path or a
 * terminal type that a message names. Returns buf. */
const char *parse_escape(const char *s, char *buf, size_t size);

/* Seconds, DELAY_MIN to DELAY_MAX and finite: "2", "0.5", "1e1".
 * Reason: "seconds between 0.1 and 86400, not 'x'". */
int parse_delay(const char *s, double *secs, char *err, size_t errlen);

/* A user name, else a uid (decimal digits, 0 to UINT32_MAX).
 * Reason: "no such user 'x'". */
int parse_user(const char *s, uint32_t *uid, char *err, size_t errlen);

/* One process id, 1 to INT32_MAX. Reason: "a PID, not 'x'". */
int parse_pid(const char *s, int32_t *pid, char *err, size_t errlen);

/* An oom_score_adj, -1000 to 1000. Reason: "-1000 to 1000, not 'x'". */
int parse_oom_adj(const char *s, int *adj, char *err, size_t errlen);
/* An amount of memory a person types for a cgroup: bytes, or a whole or decimal number with
 * K, M, G or T (KiB...; "k" too), or "max" (allow_max: UINT64_MAX, no limit); at least one
 * page (4096) and at most 2^60. Reason: "a size like 250M, 1.5G or max, not 'x'". */
int parse_amount(const char *s, bool allow_max, uint64_t *bytes, char *err, size_t errlen);
/* A comma-separated list of at most max process ids into pids; *n is their number, at
 * least 1. Reason: "PID[,PID...], not 'x'", or "at most N PIDs". */
int parse_pids(const char *s, int32_t *pids, int max, int *n, char *err, size_t errlen);

/* One column by name ("rss") or title ("RSS"). Reason: "no column 'x'". */
int parse_column(const char *s, enum col_id *col, char *err, size_t errlen);

/* A list of columns, by columns_parse (the one parser of them), whose reason comes
 * back without the flag it names and escaped. */
int parse_columns(const char *s, unsigned *set, char *err, size_t errlen);
/* A list of columns, comma-separated, as the order the screen shows them in: each listed
 * column's rank its place, the others after them. Returns 0, or -1 with the reason. */
int parse_order(const char *s, int8_t order[COL_COUNT], char *err, size_t errlen);

#endif
