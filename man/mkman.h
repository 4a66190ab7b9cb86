/* What the manual (man/mkman.c) and the doc/ pages (man/mkdoc.c) take from memtop's
 * tables the same way (man/mktables.c), so that the two list the same keys and metrics;
 * and the doc/ pages' generator, which mkman --doc runs. */
#ifndef MEMTOP_MKMAN_H
#define MEMTOP_MKMAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "screen.h"
#include "sysfig.h"

/* Every key table, in the help's order: the common keys, each screen's, the prompts',
 * a replay's; put(out, title, table) for each */
void mkman_key_tables(FILE *out,
		      void (*put)(FILE *out, const char *title, const struct binding *b));
/* A system figure's metric name into name; false where it exports none */
bool mkman_figure_metric(const struct sys_figure *f, char *name, size_t size);
/* Copies the doc page at path to stdout with its generated blocks made anew (mkdoc.c) */
int mkman_doc(const char *path);

#endif
