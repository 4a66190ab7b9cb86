/* What the manual (mkman.c) and the doc/ pages (mkdoc.c) take from memtop's tables the
 * same way: the key tables in the help's order, a system figure's metric name. */
#include "mkman.h"

#include "metric.h"
#include "prompt.h"
#include "tui.h"

void mkman_key_tables(FILE *out, void (*put)(FILE *out, const char *title, const struct binding *b))
{
	put(out, common_title, common_bindings);
	for (int s = 0; s < NSCREENS; s++)
		if (ui_screens[s].title && ui_screens[s].keys)
			put(out, ui_screens[s].title, ui_screens[s].keys);
	put(out, "Prompts (search, filter, user, interval, signal)", prompt_bindings);
	put(out, "A replay (--replay), on the table and its panes", replay_bindings);
}

bool mkman_figure_metric(const struct sys_figure *f, char *name, size_t size)
{
	struct metric mt = metric_of_figure(f);

	if (mt.type == METRIC_NONE)
		return false;
	metric_name(name, size, METRIC_PREFIX, f->metric, &mt, false);
	return true;
}
