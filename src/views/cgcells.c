#include "cgcells.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "cells.h"
#include "text.h"

size_t cg_cell_text(const struct cg_row *r, enum cgcol_id c, char *buf, size_t size, bool utf8)
{
	struct table_row v = cg_row_view(r);

	if (c == CGCOL_NAME) { /* the name, else the path cut to the column */
		char text[CG_NAME_MAX + 64];
		cg_display_name(r->c->name, r->c->path, text, sizeof(text),
				(size_t)cg_columns[c].width);
		return escape_display(text, buf, size, utf8);
	}
	if (cg_columns[c].kind == KIND_TEXT && !table_text(&cg_columns[c], &v))
		return fmt_cut("-", 1, buf, size);

	return table_cell(cg_columns, c, &v, buf, size, utf8);
}

/* The bytes of the character at s, and its columns in *cols */
static size_t char_at(const char *s, bool utf8, int *cols)
{
	wchar_t wc;
	mbstate_t st;

	*cols = 1;
	if (!utf8)
		return 1;
	memset(&st, 0, sizeof(st));
	size_t n = mbrtowc(&wc, s, strlen(s), &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
		return 1;
	int w = wcwidth(wc);
	*cols = w < 0 ? 1 : w;
	return n;
}

int cg_text_cols(const char *s, bool utf8)
{
	int cols = 0, w;

	while (*s) {
		s += char_at(s, utf8, &w);
		cols += w;
	}
	return cols;
}

/* s (escaped) into buf, in width columns at most: where it is wider, its end after a
 * mark of what was cut ("…" or "<") */
static size_t cut_left(const char *s, char *buf, size_t size, bool utf8, int width)
{
	int cols = cg_text_cols(s, utf8), w;

	if (width < 0 || cols <= width)
		return fmt_cut(s, strlen(s), buf, size);
	if (width < 1)
		return fmt_cut("", 0, buf, size);
	while (*s && cols > width - 1) {
		s += char_at(s, utf8, &w);
		cols -= w;
	}
	const char *mark = utf8 ? "…" : "<";
	int n = snprintf(buf, size, "%s%s", mark, s);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t cg_path_cell(const struct cg_row *r, bool tree, size_t folded, char *buf, size_t size,
		    bool utf8, int width)
{
	const char *path = r->c->path, *name = path;
	char esc[1024], text[1100];
	size_t n = 0;
	int used = 0;

	buf[0] = '\0';
	if (tree) {
		/* the tree's lines as the process tree draws them, leaving the name 8 columns */
		struct row lines = {.depth = r->depth, .last = r->last, .more = r->more};
		used = tree_prefix(&lines, buf, size, utf8, width < 0 ? -1 : width - 8);
		n = strlen(buf);
		const char *slash = strrchr(path, '/');
		if (r->depth && slash && slash[1])
			name = slash + 1;
	}
	escape_display(name, esc, sizeof(esc), utf8);
	if (folded)
		snprintf(text, sizeof(text), "%s (+%zu)", esc, folded);
	else
		snprintf(text, sizeof(text), "%s", esc);
	return n + cut_left(text, buf + n, size - n, utf8, width < 0 ? -1 : width - used);
}
