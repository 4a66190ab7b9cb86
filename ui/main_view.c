/* The process table's place on the main screen: the rows there is room for, and the
 * selection kept on its process. */
#include "main_view.h"

#include "draw_header.h"
#include "graphs.h"

int main_table_rows(const struct ui *u)
{
	/* column titles, bottom line */
	int n = u->cv.rows - header_rows(u) - graph_pane_rows(u) - 2;
	return n > 0 ? n : 0;
}

size_t main_onscreen(const struct ui *u, int32_t *pids, size_t max)
{
	size_t n = 0, rows = (size_t)main_table_rows(u);

	for (size_t i = u->tab.top; i < u->m->nrows && i - u->tab.top < rows && n < max; i++)
		pids[n++] = u->m->rows[i]->p->pid;
	return n;
}

int32_t main_selected_pid(const struct ui *u)
{
	return u->tab.sel < u->m->nrows ? u->m->rows[u->tab.sel]->p->pid : 0;
}

void main_reselect(struct ui *u)
{
	const struct model *m = u->m;
	struct table_view *v = &u->tab;
	for (size_t i = 0; v->follow && i < m->nrows; i++) {
		if (m->rows[i]->p->pid == v->sel_pid) {
			v->sel = i;
			break;
		}
	}
	if (v->sel >= m->nrows)
		v->sel = m->nrows ? m->nrows - 1 : 0;
	size_t page = (size_t)main_table_rows(u);
	if (v->sel < v->top)
		v->top = v->sel;
	else if (page && v->sel >= v->top + page)
		v->top = v->sel - page + 1;
	if (m->nrows)
		v->sel_pid = m->rows[v->sel]->p->pid;
}

void main_select(struct ui *u, size_t i)
{
	u->tab.follow = true;
	u->tab.sel = i;
	u->tab.sel_pid = u->m->rows[i]->p->pid;
	main_reselect(u);
}
