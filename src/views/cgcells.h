/* Text of one cgroup table cell, shared by the cgroup screen and the batch view. */
#ifndef MEMTOP_CGCELLS_H
#define MEMTOP_CGCELLS_H

#include <stdbool.h>
#include <stddef.h>

#include "cgmodel.h"

/* Formats column c of row r into buf: sizes in human units, "max" for no limit, rates,
 * the escaped path; the escaped name, or where none the path shortened from its middle
 * (cg_display_name); "-" where the cgroup has no value of it. Returns strlen(buf). */
size_t cg_cell_text(const struct cg_row *r, enum cgcol_id c, char *buf, size_t size, bool utf8);

/* The path cell: in the tree, the tree's lines and the cgroup's own name (a root's whole
 * path), with " (+N)" where N cgroups below it are folded away; else the whole path. In
 * width columns (< 0: no limit) a path that does not fit loses its start ("…/b/c"). Returns
 * strlen(buf). */
size_t cg_path_cell(const struct cg_row *r, bool tree, size_t folded, char *buf, size_t size,
		    bool utf8, int width);

/* Columns the escaped text s takes on a terminal */
int cg_text_cols(const char *s, bool utf8);

#endif
