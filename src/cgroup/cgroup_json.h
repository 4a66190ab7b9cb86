/* Just enough JSON for the container engines' own files (cgroup_names.c): a bounded scan
 * of untrusted text that finds a string value and skips the rest. Every function reads
 * only [*p, end), never recurses, and answers false on anything it does not understand;
 * a damaged or hostile file costs time linear in its size and no memory. */
#ifndef MEMTOP_CGROUP_JSON_H
#define MEMTOP_CGROUP_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* Skips white space; whether a character is left */
bool json_ws(const char **p, const char *end);

/* The string at *p, decoded (\uXXXX to UTF-8, a NUL or a lone surrogate to '?') into out
 * (NULL: skipped), cut at size - 1 bytes on a character boundary; *p moves past it. */
bool json_str(const char **p, const char *end, char *out, size_t size);

/* Skips the value at *p (a string, a number, a literal, an object or an array nested up to
 * 512 deep) */
bool json_skip(const char **p, const char *end);

/* At '{' (the opening brace consumed), moves *p to the value of its next key and writes the
 * key into key; false at the closing brace (consumed) or on damage. Call again after the
 * value is read or skipped. */
bool json_key(const char **p, const char *end, char *key, size_t size, bool first);

/* The string value of key in the object at the start of text (not in objects nested in
 * it), into out; false where there is none. */
bool json_top_string(const char *text, size_t n, const char *key, char *out, size_t size);

#endif
