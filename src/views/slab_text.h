/* The slab caches in the non-interactive views (--slab): batch text's table, and the
 * order both it and JSON's slabs[] print them in. */
#ifndef MEMTOP_SLAB_TEXT_H
#define MEMTOP_SLAB_TEXT_H

#include <stdbool.h>

#include "slabmodel.h"
#include "util.h"

/* The rows' indices largest first (SIZE, then name), in a buffer kept from one call to
 * the next; *n gets how many */
const size_t *slabs_by_size(const struct slab_model *sm, size_t *n);

/* The table of every cache, a column each of slab_columns, then an empty line; or the one
 * line saying why there is none */
void slab_text(struct tbuf *b, const struct slab_model *sm, bool utf8);

#endif
