#include "slabcolumns.h"

#include "snapshot.h"

static const char *get_name(const void *s)
{
	return ((const struct slab_cache *)s)->name;
}

const char *slab_reclaim_text(int reclaim)
{
	return reclaim > 0 ? "yes" : reclaim == 0 ? "no" : "?";
}

static const char *get_reclaim(const void *s)
{
	return slab_reclaim_text(((const struct slab_cache *)s)->reclaim);
}

/* Sizes as slabtop counts them (slabinfo.h, slab_bytes); JSON keys as the process
 * columns': the name, then the unit */
const struct column slab_columns[SLABCOL_COUNT] = {
	[SLABCOL_NAME] = {COLUMN("name", "NAME", "name"), .width = 24, .unit = UNIT_TEXT,
			  .kind = KIND_TEXT, .ascending = true, .on = true, .text = get_name,
			  .desc = "the cache's name in /proc/slabinfo"},
	[SLABCOL_ACTIVE] = {COLUMN("active", "ACTIVE", "active_objs"), .width = 8, .unit = UNIT_ID,
			    .kind = KIND_SAMPLE, .on = true,
			    .desc = "objects in use (active_objs)"},
	[SLABCOL_OBJS] = {COLUMN("objs", "OBJS", "num_objs"), .width = 8, .unit = UNIT_ID,
			  .kind = KIND_SAMPLE, .on = true,
			  .desc = "objects allocated, in use or free (num_objs)"},
	[SLABCOL_OBJSIZE] = {COLUMN("objsize", "OBJSIZE", "objsize_bytes"), .width = 7,
			     .unit = UNIT_ID, .kind = KIND_SAMPLE, .on = true,
			     .desc = "bytes of one object (objsize)"},
	[SLABCOL_SIZE] = {COLUMN("size", "SIZE", "size_kb"), .width = 6, .unit = UNIT_KB,
			  .kind = KIND_SAMPLE, .on = true,
			  .desc = "the cache's pages: num_slabs x pagesperslab x the page size, as "
				  "slabtop's CACHE SIZE"},
	[SLABCOL_GROWTH] = {COLUMN("growth", "GROW/min", "growth_kb_per_min"), .width = 8,
			    .unit = UNIT_KB_MIN, .kind = KIND_GROWTH, .on = true, .span = 60,
			    .desc = "SIZE's growth per minute over the last minute (since the "
				    "slab view opened if later)"},
	[SLABCOL_GROWTH10] = {COLUMN("grow10", "GROW10", "grow10_kb_per_min"), .width = 6,
			      .unit = UNIT_KB_MIN, .kind = KIND_GROWTH, .on = true, .span = 600,
			      .desc = "SIZE's growth per minute over the last ten minutes: the "
				      "least-squares slope of the sizes kept for the 16 largest "
				      "caches (- for others, or under 5 samples over 30 s)"},
	[SLABCOL_RECLAIM] = {COLUMN("reclaim", "RECLAIM", "reclaimable"), .width = 7,
			     .unit = UNIT_TEXT, .kind = KIND_TEXT, .ascending = true, .on = true,
			     .text = get_reclaim,
			     .desc = "reclaimable: SLAB_RECLAIM_ACCOUNT, counted in SReclaimable "
				     "(/sys/kernel/slab/NAME/reclaim_account); ? where unknown"},
};
