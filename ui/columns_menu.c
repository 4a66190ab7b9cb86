/* The column picker ('f', as in top): every column of the table, with a mark for those
 * shown. Space or Enter shows or hides one; costly columns are read from the next
 * refresh, which comes at once. */
#include <stdio.h>

#include "tui_int.h"

static const char *why_hidden(const struct tui *t, enum col_id c)
{
	const struct snapshot *s = model_current(t->m);
	unsigned bpf_needs = NEED_BPF_SWAPIN | NEED_BPF_RECLAIM;

	if ((columns[c].needs & bpf_needs) && !(s && s->bpf.enabled))
		return "  (BPF off)";
	return "";
}

void draw_columns_menu(struct tui *t)
{
	int first = 2, rows = t->rows - first - 1;
	int top = t->col_menu_sel >= rows ? t->col_menu_sel - rows + 1 : 0;

	put_text(t, 0, 0, t->cols, ROLE_HELP_TITLE,
		 "Columns (Space or Enter shows or hides, Esc returns)", false);
	for (int i = top; i < COL_COUNT && i - top < rows; i++) {
		char line[200];
		bool on = t->m->cols & COL_BIT(i);

		snprintf(line, sizeof(line), "[%c] %-8s %s%s", on ? 'x' : ' ', columns[i].title,
			 columns[i].desc, why_hidden(t, (enum col_id)i));
		put_text(t, first + i - top, 0, t->cols,
			 i == t->col_menu_sel ? ROLE_SELECTED : ROLE_ROW, line, true);
	}
	put_text(t, t->rows - 1, 0, t->cols, ROLE_STATUS,
		 "Narrow screens hide the least needed columns first", true);
}

void columns_menu_key(struct tui *t, int key)
{
	switch (key) {
	case KEY_UP:
		if (t->col_menu_sel > 0)
			t->col_menu_sel--;
		break;
	case KEY_DOWN:
		if (t->col_menu_sel + 1 < COL_COUNT)
			t->col_menu_sel++;
		break;
	case KEY_HOME:
		t->col_menu_sel = 0;
		break;
	case KEY_END:
		t->col_menu_sel = COL_COUNT - 1;
		break;
	case ' ':
	case '\n':
	case '\r':
	case KEY_ENTER: {
		unsigned cols = t->m->cols ^ COL_BIT(t->col_menu_sel);

		if (!cols)
			break; /* the last one stays */
		if (columns_needs(cols) & NEED_COSTLY & ~columns_needs(t->m->cols))
			t->next_refresh = 0; /* read the new column's values now */
		t->m->cols = cols;
		break;
	}
	case 27:
	case 'q':
	case 'f':
	case KEY_F(10):
		t->screen = SCREEN_MAIN;
		break;
	}
}
