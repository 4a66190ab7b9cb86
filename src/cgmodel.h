/* The cgroup model: two snapshots' cgroups make rates; filtering by path, sorting by any
 * cgroup column and the tree order live here. The cgroup views read only this. */
#ifndef MEMTOP_CGMODEL_H
#define MEMTOP_CGMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgcolumns.h"
#include "snapshot.h"

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
};

/* How the rows are ordered: what the cgroup view's preferences hold */
struct cg_order {
	enum cgcol_id sort;
	bool invert;
	bool tree;	    /* each cgroup under its parent, siblings in sort order */
	const char *filter; /* substring of the path, case-insensitive; NULL or "": all */
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
};

void cgmodel_init(struct cg_model *m);
void cgmodel_free(struct cg_model *m);
/* The rows of cur's cgroups, with rates against prev's (NULL: none yet), matched by id;
 * then ordered as o says. The snapshots must outlive the rows. */
void cgmodel_update(struct cg_model *m, const struct snapshot *cur, const struct snapshot *prev,
		    const struct cg_order *o);
/* The rows again, after a change of sort or filter, without new data */
void cgmodel_order(struct cg_model *m, const struct cg_order *o);

bool cg_row_valid(const struct cg_row *r, enum cgcol_id c);
/* A limit of "max" (no limit); then the row has no value of it for JSON */
bool cg_row_unlimited(const struct cg_row *r, enum cgcol_id c);
double cg_row_number(const struct cg_row *r, enum cgcol_id c);
/* The text of a text column (raw, untrusted); NULL for numeric columns */
const char *cg_row_text(const struct cg_row *r, enum cgcol_id c);

#endif
