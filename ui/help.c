#include <stdio.h>
#include <string.h>

#include "tui_int.h"

/* The key table, then the columns; scrolled like the panes where the screen is short */
void draw_help(struct tui *t)
{
	static struct pane p;
	p.n = 0;
	pane_add(&p, ROLE_ROW, " ");
	for (const struct binding *b = bindings; b->names; b++)
		pane_add(&p, ROLE_ROW, "%-9s %s", b->names, b->help);
	pane_add(&p, ROLE_ROW, " ");
	pane_add(&p, ROLE_HELP_TITLE, "Columns");
	for (int c = 0; c < COL_COUNT; c++)
		pane_add(&p, ROLE_ROW, "%-8s %s", columns[c].title, columns[c].desc);
	pane_show(t, "memtop " MEMTOP_VERSION " - keys", &p,
		  p.n > t->rows - 2 ? "Up/Down/PgUp/PgDn scroll, any other key returns"
				    : "Press any key to return");
}

void help_key(struct tui *t, int key)
{
	if (!pane_scroll_key(t, key))
		t->screen = SCREEN_MAIN;
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
