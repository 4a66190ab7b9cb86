/* What the user chose to see: the flags, the settings file and the keys all set this one
 * struct (prefs_table.h: which flag and which line of the file set which field). The model
 * sorts and filters by it and the views draw by it; neither changes it. */
#ifndef MEMTOP_PREFS_H
#define MEMTOP_PREFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgcolumns.h"
#include "columns.h"
#include "slabcolumns.h"
#include "usercolumns.h"

#define MAX_PIDS	64
#define MAX_CGROUP_PATH 1024
#define MAX_FOLDS	256

struct model_filter {
	/* substring of name, command line or cgroup (while read), case-insensitive; "" = all */
	char text[128];
	bool by_user;
	uint32_t uid;
	int32_t pids[MAX_PIDS]; /* -p */
	size_t npids;
	bool hide_kthreads;
	/* a memory cgroup as /proc/PID/cgroup names it ("/a/b", no trailing slash): only the
	 * processes in it or below it (--cgroup, Enter on a cgroup); "" = all */
	char cgroup[MAX_CGROUP_PATH];
};

/* The cgroup view's choices (the C screen, and --cgroups in batch and JSON) */
struct cg_prefs {
	unsigned cols; /* cgroup columns shown, a set of CGCOL_BIT()s */
	enum cgcol_id sort;
	bool invert;
	bool tree;	  /* each cgroup under its parent, siblings in sort order */
	char filter[128]; /* substring of the path, case-insensitive; "" = all */
};

/* The slab screen's order and filter (B; not saved) */
struct slab_prefs {
	enum slabcol_id sort;
	bool invert;
	char filter[128]; /* substring of the cache's name; "" = all */
};

/* The users screen's order and filter (U; not saved) */
struct user_prefs {
	enum usercol_id sort;
	bool invert;
	char filter[128]; /* substring of the user's name; "" = all */
};

/* A process whose children the tree view hides (the - key), by its pid and start time */
struct proc_fold {
	int32_t pid;
	uint64_t start_ticks;
};

struct prefs {
	unsigned cols; /* columns shown, a set of COL_BIT()s */
	/* the screen's order of the columns: each column's rank, the lowest first (equal
	 * ranks in the table's order: all 0, the table's order); COMMAND stays last */
	int8_t order[COL_COUNT];
	enum col_id sort;
	bool invert;
	bool tree; /* rows under their parents, siblings in sort order */
	/* in the tree, the processes folded (their children hidden; not saved) */
	struct proc_fold folds[MAX_FOLDS];
	size_t nfolds;
	double delay; /* seconds between refreshes */
	struct model_filter filter;
	struct cg_prefs cg;
	struct slab_prefs slab;
	struct user_prefs users;
	bool mouse;  /* clicks and the wheel (--no-mouse, mouse=0: the terminal's own) */
	bool graphs; /* the graph pane above the process table (g, graphs=1) */
	/* the theme (--theme, theme=, the V key): a name under themes/ or a path; "": none
	 * chosen, the default one (mono where NO_COLOR is set) */
	char theme[256];
};

/* The defaults: the default columns, then each preset of prefs_table (by RSS, one second,
 * the mouse on); cgroups as a tree by usage */
void prefs_init(struct prefs *p);

/* Sets the cgroup filter of f to path, as /proc/PID/cgroup names a cgroup: with a leading
 * slash, without repeated or trailing ones ("docker//x/" is "/docker/x"). Returns 0, or -1
 * with a reason in err (nothing left, too long) and f unchanged. */
int prefs_set_cgroup(struct model_filter *f, const char *path, char *err, size_t errlen);

#endif
