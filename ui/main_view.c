/* The process table's state, and its rows and columns for the table screen. */
#include "main_view.h"

#include "draw_header.h"
#include "draw_table.h"
#include "graphs.h"

struct main_state main_state = {.kill = {.fd = -1}}; /* no process held */

int main_table_rows(const struct ui *u)
{
	/* column titles, bottom line */
	int n = u->cv.rows - header_rows(u) - graph_pane_rows(u) - 2;
	return n > 0 ? n : 0;
}

size_t main_onscreen(const struct ui *u, int32_t *pids, size_t max)
{
	size_t n = 0, rows = (size_t)main_table_rows(u), top = main_state.tab.top;

	for (size_t i = top; i < u->m->nrows && i - top < rows && n < max; i++)
		pids[n++] = u->m->rows[i]->p->pid;
	return n;
}

int32_t main_selected_pid(const struct ui *u)
{
	size_t sel = main_state.tab.sel;

	return sel < u->m->nrows ? u->m->rows[sel]->p->pid : 0;
}

void main_show_cgroup(struct ui *u)
{
	main_state.from_cgroups = true;
	u->screen = SCREEN_MAIN;
}

static size_t count(const struct ui *u)
{
	return u->m->nrows;
}

static uint64_t id_of(const struct ui *u, size_t i)
{
	return (uint64_t)u->m->rows[i]->p->pid;
}

/* The columns shown: what < and > step through and the picker lists */
static int shown(const struct ui *u, int out[TABLE_COLS])
{
	struct table_fit f;
	int n = table_layout(u, u->cv.cols, &f);

	for (int i = 0; i < n; i++)
		out[i] = f.col[i];
	return n;
}

/* What the sort picker lists: every column, shown or not (BPF's while it is on) */
static int sortable(const struct ui *u, int out[TABLE_COLS])
{
	const struct snapshot *s = model_current(u->m);
	bool bpf = s && s->bpf.enabled;
	int n = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if (bpf || !(columns[c].needs & NEED_BPF))
			out[n++] = c;
	return n;
}

const struct table_kind proc_table = {
	.tab = TAB_PROCS,
	.screen = SCREEN_MAIN,
	.view = &main_state.tab,
	.count = count,
	.id_of = id_of,
	.page = main_table_rows,
	.steps = shown,
	.pickable = sortable,
	.columns = columns,
	.default_sort = COL_RSS,
	.picker_title = "Sort by (Enter picks, Esc returns)",
};
