/* Non-interactive views: text like top -b, and JSON lines. They read only the model. */
#ifndef MEMTOP_VIEWS_H
#define MEMTOP_VIEWS_H

#include <stdbool.h>
#include <stdio.h>

#include "cgmodel.h"
#include "model.h"

struct view_info {
	double delay;
	const char *version;
	bool utf8; /* the terminal or file takes UTF-8 */
	/* --cgroups: the memory cgroups, after the processes (batch) or as cgroups[] (JSON);
	 * NULL: none */
	const struct cg_model *cgroups;
};

void view_batch(FILE *f, const struct model *m, const struct view_info *vi);
void view_json(FILE *f, const struct model *m, const struct view_info *vi);

#endif
