/* /proc/slabinfo: the kernel's slab caches (the slab screen, --slab), and whether each is
 * reclaimable (/sys/kernel/slab/NAME/reclaim_account). The parser takes text so that it
 * can be tested on real and corrupt input; the reader reads the files. */
#ifndef MEMTOP_SLABINFO_H
#define MEMTOP_SLABINFO_H

#include "snapshot.h"

/* The caches of slabinfo text (versions 2.0 and 2.1: "name active_objs num_objs objsize
 * objperslab pagesperslab : tunables ... : slabdata active_slabs num_slabs ...") appended
 * to si, their reclaim -1; lines that do not read so are passed over. Returns 0, or -1
 * when the text does not start as slabinfo does ("slabinfo - version: 2."). */
int parse_slabinfo(const char *text, struct slab_info *si);

struct slab_reader;
struct slab_reader *slab_reader_new(void);
void slab_reader_free(struct slab_reader *r);
/* /proc/slabinfo into s->slab (read set; err the errno where it cannot be read: it is
 * root's alone), each cache's reclaim from sysfs the first time its name is seen */
void slab_collect(struct slab_reader *r, struct snapshot *s);

#endif
