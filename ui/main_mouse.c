#include "main_mouse.h"

#include "main_view.h"
#include "mouse.h"

static unsigned sort_by(struct ui *u, enum col_id col)
{
	if (u->prefs->sort == col) {
		u->prefs->invert = !u->prefs->invert;
	} else {
		u->prefs->sort = col;
		u->prefs->invert = false;
	}
	u->message[0] = '\0';
	return REACT_RESORT;
}

unsigned main_mouse(struct ui *u, const struct mouse_hit *h)
{
	size_t i;

	if (h->kind == MOUSE_TITLE)
		return sort_by(u, (enum col_id)h->col);
	if (!mouse_row(h, &u->map, &u->tab.top, &u->tab.sel, u->m->nrows, &i))
		return REACT_NONE;
	u->message[0] = '\0';
	main_select(u, i);
	return REACT_NONE;
}
