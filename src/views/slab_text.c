#include "slab_text.h"

#include "cells.h"
#include "cgcells.h"

const size_t *slabs_by_size(const struct slab_model *sm, size_t *n)
{
	static size_t *order;
	static size_t cap;

	if (cap < sm->n) {
		cap = sm->n;
		order = xrealloc(order, cap * sizeof(*order));
	}
	*n = slabmodel_order(sm, &(struct slab_order){.sort = SLABCOL_SIZE}, order);
	return order;
}

/* A cell of w columns: text to the left, numbers to the right, a longer one cut (numbers
 * keep their last characters, as on the screen) */
static void put_cell(struct tbuf *b, const char *t, size_t len, int w, bool left, bool utf8)
{
	int cols = cg_text_cols(t, utf8);

	if (!left)
		for (int k = cols; k < w; k++)
			tbuf_putc(b, ' ');
	tbuf_put(b, t, len);
	if (left)
		for (int k = cols; k < w; k++)
			tbuf_putc(b, ' ');
}

void slab_text(struct tbuf *b, const struct slab_model *sm, bool utf8)
{
	char text[300], why[160];
	size_t n;
	const size_t *order = slabs_by_size(sm, &n);
	int w[SLABCOL_COUNT];

	if (slabmodel_why(sm, why, sizeof(why))) {
		tbuf_printf(b, "%s\n\n", why);
		return;
	}
	for (int c = 0; c < SLABCOL_COUNT; c++)
		w[c] = slab_columns[c].width;
	for (size_t i = 0; i < n; i++) { /* the names as wide as the widest */
		struct table_row v = slab_row_view(&sm->rows[order[i]]);
		table_cell(slab_columns, SLABCOL_NAME, &v, text, sizeof(text), utf8);
		int cols = cg_text_cols(text, utf8);
		w[SLABCOL_NAME] = cols > w[SLABCOL_NAME] ? cols : w[SLABCOL_NAME];
	}
	for (int c = 0; c < SLABCOL_COUNT; c++) {
		const struct column *col = &slab_columns[c];
		if (c)
			tbuf_putc(b, ' ');
		put_cell(b, col->title, strlen(col->title), c == SLABCOL_COUNT - 1 ? 0 : w[c],
			 col->unit == UNIT_TEXT, utf8);
	}
	tbuf_putc(b, '\n');
	for (size_t i = 0; i < n; i++) {
		struct table_row v = slab_row_view(&sm->rows[order[i]]);
		for (int c = 0; c < SLABCOL_COUNT; c++) {
			size_t len = table_cell(slab_columns, c, &v, text, sizeof(text), utf8);
			if (c)
				tbuf_putc(b, ' ');
			put_cell(b, text, len, c == SLABCOL_COUNT - 1 ? 0 : w[c],
				 slab_columns[c].unit == UNIT_TEXT, utf8);
		}
		tbuf_putc(b, '\n');
	}
	tbuf_putc(b, '\n');
}
