/* The cgroup model: two snapshots' cgroups make rates; filtering by path, sorting by any
 * cgroup column and the tree order live here. The cgroup views read only this. */
#ifndef MEMTOP_CGMODEL_H
#define MEMTOP_CGMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgcolumns.h"
#include "prefs.h"
#include "snapshot.h"

/* A cgroup is drawn as an alert at this share of its limit, or when it will reach its
 * limit within CG_ALERT_LIMIT_IN_S seconds at its growth, or with an OOM kill in it or
 * below it in the last CG_OOM_RECENT_S seconds */
#define CG_ALERT_PCT	    90.0
#define CG_ALERT_LIMIT_IN_S 300.0
#define CG_OOM_RECENT_S	    60.0

struct cg_row {
	const struct cg_sample *c;
	double num[CGCOL_COUNT]; /* each numeric column's value: samples in shown units,
				    shares, rates; a limit of "max" is +inf */
	unsigned valid;		 /* the columns with a value: read, or a rate over two reads */
	/* tree order: depth below the rows' root; whether it is its parent's last child
	 * shown; bit d of more: its ancestor at depth d + 1 has later siblings */
	uint16_t depth;
	bool last;
	uint64_t more;
	bool oom_recent; /* an OOM kill in it or below in the last CG_OOM_RECENT_S seconds */
};

/* How the rows are ordered: what the cgroup view's preferences hold */
struct cg_order {
	enum cgcol_id sort;
	bool invert;
	bool tree;	    /* each cgroup under its parent, siblings in sort order */
	const char *filter; /* substring of the path or the name, case-insensitive; NULL or
			       "": all */
};

/* When a cgroup's OOM kill count (memtop's or the kernel's) last rose */
struct cg_oom_mark {
	uint64_t id;
	double mono;
};

struct cg_model {
	struct cg_row *all; /* every cgroup, in the snapshot's order, with rates */
	size_t nall;
	struct cg_row *rows; /* filtered, sorted */
	size_t nrows;
	double dt; /* seconds the rates span; 0 before there are two reads */
	size_t cap;
	size_t *scratch; /* the previous cgroups by id */
	size_t scratch_cap;
	struct cg_oom_mark *marks; /* those of the last CG_OOM_RECENT_S seconds */
	size_t nmarks, marks_cap;
};

void cgmodel_init(struct cg_model *m);
void cgmodel_free(struct cg_model *m);
/* The rows of cur's cgroups, with rates against prev's (NULL: none yet), matched by id;
 * then ordered as o says. The snapshots must outlive the rows. */
void cgmodel_update(struct cg_model *m, const struct snapshot *cur, const struct snapshot *prev,
		    const struct cg_order *o);
/* The rows again, after a change of sort or filter, without new data */
void cgmodel_order(struct cg_model *m, const struct cg_order *o);

/* The order the cgroup view's preferences ask for (o->filter points into p) */
void cg_order_of(const struct cg_prefs *p, struct cg_order *o);

/* Marks the rows with an OOM kill among events ev (n of them, the model's history) in the
 * last CG_OOM_RECENT_S seconds before wall, in the cgroup or below it (by the victim's
 * memcg path); rows whose kill count rose in that time are marked by cgmodel_update */
void cgmodel_recent_ooms(struct cg_model *m, const struct mt_event *ev, size_t n, double wall);
/* At CG_ALERT_PCT of its limit or more, at it within CG_ALERT_LIMIT_IN_S, or an OOM kill
 * lately */
bool cg_row_alert(const struct cg_row *r);
/* path is the cgroup root or one below it ("/a/b" and "/a" are within "/a", "/ab" is not) */
bool cg_path_within(const char *path, const char *root);

bool cg_row_valid(const struct cg_row *r, enum cgcol_id c);
/* A limit of "max" (no limit); then the row has no value of it for JSON */
bool cg_row_unlimited(const struct cg_row *r, enum cgcol_id c);
double cg_row_number(const struct cg_row *r, enum cgcol_id c);
/* The text of a text column (raw, untrusted), "" where the row has none; NULL for
 * numeric columns */
const char *cg_row_text(const struct cg_row *r, enum cgcol_id c);

/* The row as the table layer (table.h) reads it */
static inline struct table_row cg_row_view(const struct cg_row *r)
{
	return (struct table_row){.sample = r->c,
				  .v = r->c->v,
				  .num = r->num,
				  .valid = r->valid,
				  .read = r->c->valid,
				  .unlimited = r->c->unlimited};
}

#endif
