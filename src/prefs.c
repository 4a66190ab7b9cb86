#include "prefs.h"

#include <string.h>

void prefs_init(struct prefs *p)
{
	memset(p, 0, sizeof(*p));
	p->cols = columns_default();
	p->sort = COL_RSS;
	p->delay = 1.0;
	p->cg.cols = cg_columns_default();
	p->cg.sort = CGCOL_USAGE;
	p->cg.tree = true;
}
