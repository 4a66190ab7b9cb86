/* The mouse, as in htop: a click on a column title sorts by it (again: inverts the order), a
 * click on a row selects it, a double click opens it (as Enter), the wheel scrolls, a
 * click on the key bar runs that key. The screens record where they drew what a click can
 * hit (struct mouse_map) as they draw; a KEY_MOUSE event is read here into a plain
 * struct mouse_hit by that map, and tui.c hands it to the screen shown (struct screen's
 * mouse) or runs the key it names. */
#ifndef MEMTOP_MOUSE_H
#define MEMTOP_MOUSE_H

#include <stdbool.h>
#include <stddef.h>

#include "screen.h"

/* After the terminal is set up: asks for clicks, double clicks and the wheel, or for no
 * mouse at all (the terminal keeps its own selection) */
void mouse_start(bool on);
/* KEY_MOUSE came: reads the event into h by the map m of the last draw. on: the mouse is
 * wanted; else the rest of a report the terminal sent anyway is dropped, and h hits
 * nothing */
void mouse_read(bool on, const struct mouse_map *m, struct mouse_hit *h);

/* For the screens as they draw: the map empty, a column title at x of width w, the rows
 * (the lines from y, n of them, the row top on the first, count in all), a key */
void map_clear(struct mouse_map *m);
void map_title(struct ui *u, int y, int x, int w, int col);
void map_rows(struct ui *u, int y, int n, size_t top, size_t count);

/* A key bar: "F1Help F2Columns..." at line y, each key clickable; returns the x after it */
struct keybar_item {
	const char *key, *label;
	int code; /* the key a click runs */
};
int draw_keybar(struct ui *u, int y, const struct keybar_item *items, int n);

/* The row a hit on a table selects, the table's view at top, selection sel, of n rows: the
 * row clicked, or after the wheel scrolled the view (by the map's rows: a page), the
 * selection kept on screen; false where it selects none */
bool mouse_row(const struct mouse_hit *h, const struct mouse_map *m, size_t *top, size_t *sel,
	       size_t n, size_t *row);

#endif
