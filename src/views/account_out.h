/* The memory account (src/model/account.h) as text and JSON: its lines, which the batch
 * text (after the slab caches) and the account screen (ui/account.c) both show, and
 * account{} of the JSON. */
#ifndef MEMTOP_ACCOUNT_OUT_H
#define MEMTOP_ACCOUNT_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "account.h"
#include "util.h"

/* The table's column titles, and part p's line: its key, label, size, share, change */
void account_titles(char *buf, size_t size);
void account_part_line(const struct account *a, int p, char *buf, size_t size);
/* "parts sum to X of MemTotal Y (Z %)" */
void account_sum_line(const struct account *a, char *buf, size_t size);
/* The page cache's dirty and mapped pages, in one line */
void account_cache_line(const struct account *a, char *buf, size_t size);
/* The details' lines, after the table: the largest tmpfs mounts, the shm segments (the
 * mount paths escaped for display); calls line for each, with its heading flag */
void account_detail_lines(const struct account *a, bool utf8,
			  void (*line)(void *arg, bool heading, const char *text), void *arg);

/* The whole account as batch text, "Account:" first */
void account_text(struct tbuf *b, const struct account *a, bool utf8);
/* ,"account":{...} */
void account_json(struct tbuf *b, const struct account *a);

#endif
