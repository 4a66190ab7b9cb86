#include <stdio.h>
#include <string.h>

#include "tui_int.h"

void draw_help(struct tui *t)
{
	int y = 0;
	char line[256];
	put_text(t, y++, 0, t->cols, ROLE_HELP_TITLE, "memtop " MEMTOP_VERSION " - keys", false);
	y++;
	for (const struct binding *b = bindings; b->names && y < t->rows - 1; b++) {
		put_text(t, y, 0, 10, ROLE_KEY, b->names, false);
		put_text(t, y++, 10, t->cols - 10, ROLE_ROW, b->help, false);
	}
	if (y < t->rows - 2) {
		y++;
		put_text(t, y++, 0, t->cols, ROLE_HELP_TITLE, "Columns", false);
	}
	for (int c = 0; c < COL_COUNT && y < t->rows - 1; c++) {
		snprintf(line, sizeof(line), "%-8s %s", columns[c].title, columns[c].desc);
		put_text(t, y++, 0, t->cols, ROLE_ROW, line, false);
	}
	put_text(t, t->rows - 1, 0, t->cols, ROLE_STATUS, "Press any key to return", true);
}

void draw_sort_menu(struct tui *t)
{
	put_text(t, 0, 0, t->cols, ROLE_HELP_TITLE, "Sort by (Enter picks, Esc returns)", false);
	for (int i = 0; i < t->nshown && i + 2 < t->rows; i++) {
		enum col_id c = t->shown[i];
		char line[160];
		snprintf(line, sizeof(line), "%-8s %s", columns[c].title, columns[c].desc);
		put_text(t, i + 2, 0, t->cols, i == t->sort_menu_sel ? ROLE_SELECTED : ROLE_ROW,
			 line, true);
	}
}

void sort_menu_key(struct tui *t, int key)
{
	switch (key) {
	case KEY_UP:
		if (t->sort_menu_sel > 0)
			t->sort_menu_sel--;
		break;
	case KEY_DOWN:
		if (t->sort_menu_sel + 1 < t->nshown)
			t->sort_menu_sel++;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		t->m->sort = t->shown[t->sort_menu_sel];
		tui_reorder(t);
		t->screen = SCREEN_MAIN;
		break;
	case 27:
	case 'q':
	case KEY_F(6):
	case KEY_F(10):
		t->screen = SCREEN_MAIN;
		break;
	}
}
