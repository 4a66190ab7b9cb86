#include "sources.h"

#include <stdlib.h>
#include <unistd.h>

#include "bpf_source.h"
#include "procfs.h"
#include "util.h"

struct sources {
	struct pids_collector *pids;
	struct bpf_source *bpf;
};

struct sources *sources_open(bool no_bpf, bool verbose, char *err, size_t errlen)
{
	struct sources *src = xcalloc(1, sizeof(*src));
	src->pids = pids_new(err, errlen);
	if (!src->pids) {
		free(src);
		return NULL;
	}
	src->bpf = bpf_source_open(no_bpf, verbose);
	return src;
}

int sources_collect(struct sources *src, struct snapshot *s, const struct pids_request *req,
		    char *err, size_t errlen)
{
	s->mono = clock_mono();
	s->wall = clock_wall();
	s->hertz = sysconf(_SC_CLK_TCK);
	s->page_kb = sysconf(_SC_PAGESIZE) / 1024;
	if (procfs_collect(s, err, errlen))
		return -1;
	if (pids_collect(src->pids, s, req, err, errlen))
		return -1;
	bpf_source_collect(src->bpf, s);
	return 0;
}

void sources_fill(struct sources *src, struct snapshot *s, const struct pids_request *req)
{
	pids_fill(src->pids, s, req);
}

void sources_close(struct sources *src)
{
	if (!src)
		return;
	pids_free(src->pids);
	bpf_source_close(src->bpf);
	free(src);
}
