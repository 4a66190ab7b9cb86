/* Turning numbers and untrusted strings into text: sizes in human units, rates, and
 * escaping for terminals and JSON. */
#ifndef MEMTOP_TEXT_H
#define MEMTOP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The formatters below write as snprintf(buf, size, ...) would, cut to size - 1 bytes and
 * NUL-terminated, and return the length written (strlen(buf)). */

/* KiB -> "512K", "9.8M", "300M", "1.2G", "14T" (at most 5 characters). */
size_t fmt_kb(uint64_t kb, char *buf, size_t size);
/* v as a uint64_t, held to its range: 0 below it (and NaN), UINT64_MAX above (a cast of
 * a double out of range is undefined) */
static inline uint64_t u64_held(double v)
{
	return !(v > 0) ? 0 : v >= 0x1p64 ? UINT64_MAX : (uint64_t)v;
}
/* A wall-clock time (seconds since 1970) held to the years 1970 to 9999, as a clock or a
 * date is shown: a recording's times may be anything */
static inline int64_t wall_held(double v)
{
	return !(v > 0) ? 0 : v > 253402300799.0 ? 253402300799 : (int64_t)v;
}
/* A signed size in KiB (a growth): "0", "+12K", "-1.2M" */
size_t fmt_skb(double kb, char *buf, size_t size);
/* A duration: "35s", "12m", "3h", "2d" */
size_t fmt_secs(double secs, char *buf, size_t size);
/* A per-second rate: "0", "12", "3.4", "12K", "1.2M". */
size_t fmt_rate(double v, char *buf, size_t size);
/* v with decimals places, the text of printf's "%.*f" (the exact value rounded half to
 * even), without printf where 0 <= v < 2^52 and decimals is 0 to 3. */
size_t fmt_fixed(double v, int decimals, char *buf, size_t size);
/* The n bytes at t (which may lie in buf) into buf, as snprintf(buf, size, "%.*s", n, t). */
size_t fmt_cut(const char *t, size_t n, char *buf, size_t size);
/* v in decimal into out (20 bytes at most, no NUL); returns the length. */
size_t fmt_u64(uint64_t v, char *out);

/* Copies s into out with control characters (C0, DEL, and with utf8 the C1 range and
 * invalid sequences; without utf8 every byte >= 0x80) shown as \e, \n, \t or \xNN, and
 * with utf8 the characters that draw nothing yet change how the text around them reads
 * (Unicode's format characters, category Cf: bidi overrides and isolates, zero-width
 * spaces, the byte order mark, tag characters; and the line and paragraph separators)
 * shown as \u202e, or \U000e0001 beyond U+FFFF (lowercase hex). A backslash is doubled.
 * Always NUL-terminates; truncates at a character boundary. Returns strlen(out). */
size_t escape_display(const char *s, char *out, size_t size, bool utf8);
/* The length of the valid UTF-8 sequence at s (1 to 4), its code point in *cp; 0 when it
 * is not one (overlong, a surrogate, beyond U+10FFFF, cut short) or is a C1 control */
size_t utf8_decode(const unsigned char *s, uint32_t *cp);
/* Whether cp is one of the characters escape_display shows as \u202e: they draw nothing
 * yet change how the text around them reads */
bool char_invisible(uint32_t cp);
/* cp as escape_display shows such a character: \u202e, or \U000e0001 beyond U+FFFF;
 * writes at most 11 bytes and a NUL, returns the length */
size_t escape_codepoint(uint32_t cp, char *out);

/* The command line with the directory of its program dropped ("/usr/bin/foo -x" ->
 * "foo -x"), for a column too narrow to show it whole, as htop's "program path" off. A
 * kernel thread's "[kworker/0:1]" stays whole. */
const char *cmd_short(const char *cmd);

/* Writes s as a JSON string with quotes; control characters become \uXXXX and bytes
 * that are not valid UTF-8 become \u00XX, so the output is always valid JSON. The
 * characters escape_display shows as \u escapes are written as \u escapes too (beyond
 * U+FFFF as a surrogate pair, \udb40\udc01), so they stay visible in the raw JSON;
 * a JSON parser decodes them back to the same characters. */
void json_string(FILE *f, const char *s);
/* The same into out, which must hold json_quote_max(s) bytes (no NUL); returns the
 * length. */
size_t json_quote(const char *s, char *out);
static inline size_t json_quote_max(const char *s)
{
	return 6 * strlen(s ? s : "") + 2; /* a byte at most as \u00XX, and the quotes */
}

#endif
