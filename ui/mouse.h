/* The mouse, as in htop: a click on a column title sorts by it (again: inverts the order), a
 * click on a row selects it, a double click opens it (as Enter), the wheel scrolls, a
 * click on the key bar runs that key. Events come as keys (KEY_MOUSE) and turn into enum
 * react bits like them; where things are comes from the screen's struct mouse_map. */
#ifndef MEMTOP_MOUSE_H
#define MEMTOP_MOUSE_H

#include <stdbool.h>

#include "screen.h"

/* After the terminal is set up: asks for clicks, double clicks and the wheel, or for no
 * mouse at all (the terminal keeps its own selection) */
void mouse_start(bool on);
/* KEY_MOUSE came: reads the event and acts on it; enum react bits */
unsigned mouse_event(struct ui *u);

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

/* The mouse on the process table and on the cgroup table (struct screen's hooks) */
unsigned main_sort_by(struct ui *u, int col);
unsigned main_pick(struct ui *u, size_t i);
unsigned main_scroll(struct ui *u, int lines);
unsigned cg_sort_by(struct ui *u, int col);
unsigned cg_pick(struct ui *u, size_t i);
unsigned cg_scroll(struct ui *u, int lines);

#endif
