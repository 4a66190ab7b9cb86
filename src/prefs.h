/* What the user chose to see: the flags, the settings file and the keys all set this one
 * struct. The model sorts and filters by it and the views draw by it; neither changes it. */
#ifndef MEMTOP_PREFS_H
#define MEMTOP_PREFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"

#define MAX_PIDS 64

struct model_filter {
	char text[128]; /* substring of name or command line, case-insensitive; "" = all */
	bool by_user;
	uint32_t uid;
	int32_t pids[MAX_PIDS]; /* -p */
	size_t npids;
	bool hide_kthreads;
};

struct prefs {
	unsigned cols; /* columns shown, a set of COL_BIT()s */
	enum col_id sort;
	bool invert;
	bool tree;    /* rows under their parents, siblings in sort order */
	double delay; /* seconds between refreshes */
	struct model_filter filter;
};

/* The defaults: the default columns, by RSS, one second */
void prefs_init(struct prefs *p);

#endif
