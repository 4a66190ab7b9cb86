/* The slab caches in the model: each cache of the newest snapshot's /proc/slabinfo with
 * its size as slabtop counts it and its growth per minute, from the model's own samples
 * of it over the last minute (a cache known by its name), and over ten minutes from the
 * history's, which keeps the largest caches' sizes for the hour; and their order for a
 * view. Filled by model_step while slabinfo is read (the slab screen open, --slab). */
#ifndef MEMTOP_SLABMODEL_H
#define MEMTOP_SLABMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kbtrend.h"
#include "slabcolumns.h"
#include "snapshot.h"

struct slab_row {
	const struct slab_cache *c; /* in the model's newest snapshot */
	uint64_t v[SLABCOL_COUNT];  /* the sampled columns' exact figures (SIZE: KiB) */
	double num[SLABCOL_COUNT];  /* each numeric column's value in shown units */
	unsigned valid;		    /* the columns with a value (TABLE_BIT) */
};

struct slab_track;   /* a cache's samples over the last minute */
struct history_slab; /* what the history is given */
struct history;

struct slab_model {
	bool read;	       /* the newest snapshot read slabinfo */
	int err;	       /* and its errno, 0: read */
	struct slab_row *rows; /* every cache, in the file's order */
	size_t n, cap;
	struct slab_track *tracks; /* by name */
	size_t ntracks, tracks_cap;
	struct history_slab *sizes; /* the rows' names and sizes, for the history */
};

/* Seconds the growth looks back */
#define SLAB_GROWTH_SPAN KB_TREND_SPAN

void slabmodel_free(struct slab_model *sm);
/* The rows of snapshot s, their growth from the samples kept; the samples of caches gone
 * (and all, when s did not read slabinfo) are forgotten. The sizes read are recorded in h
 * (s recorded there first); a cache's minute starts from h's samples of it where it has
 * none of its own (the slab view opened again). */
void slabmodel_update(struct slab_model *sm, const struct snapshot *s, struct history *h);

/* How a view orders the rows: by column sort (its natural direction, invert: the other),
 * only the caches whose name holds filter (any case; "" or NULL: all) */
struct slab_order {
	int sort;
	bool invert;
	const char *filter;
};
/* The indices of the rows shown, in order, into out (room for sm->n); returns how many */
size_t slabmodel_order(const struct slab_model *sm, const struct slab_order *o, size_t *out);

/* The row as the table layer reads it */
static inline struct table_row slab_row_view(const struct slab_row *r)
{
	return (struct table_row){.sample = r->c, .v = r->v, .num = r->num, .valid = r->valid};
}

/* Why there are no rows, in one line ("slab: /proc/slabinfo: Permission denied (needs
 * root)"); NULL where they were read */
const char *slabmodel_why(const struct slab_model *sm, char *buf, size_t size);

#endif
