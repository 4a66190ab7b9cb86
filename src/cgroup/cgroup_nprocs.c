/* The processes of each memory cgroup from the task iterator's cgroup ids (cgroup_from_bpf.h):
 * counted in one pass over the processes instead of a cgroup.procs file a cgroup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_from_bpf.h"
#include "pid_files.h"
#include "util.h"

struct id_index {
	uint64_t id;
	size_t i;
};

static int cmp_id_index(const void *a, const void *b)
{
	uint64_t x = ((const struct id_index *)a)->id, y = ((const struct id_index *)b)->id;
	return (x > y) - (x < y);
}

/* The listed cgroup of process pid from /proc/PID/cgroup: for a process the task
 * iterator did not see (pid 1 where it starts after it), -1 if none */
static long cgroup_of_pid(const struct snapshot *s, int version, int32_t pid)
{
	char path[4096];

	if (read_proc_cgroup(pid, version, path, sizeof(path)))
		return -1;
	for (size_t i = 0; i < s->ncgroups; i++)
		if (!strcmp(s->cgroups[i].path, path))
			return (long)i;
	return -1;
}

bool cg_bpf_count_procs(struct snapshot *s, int version, unsigned cols)
{
	if (!(cols & CGCOL_BIT(CGCOL_NPROCS)) || !s->procs_cg_ids || s->nprocs != s->ntasks ||
	    !s->ncgroups || (version != 1 && version != 2))
		return false;
	struct id_index *by_id = xmalloc(s->ncgroups * sizeof(*by_id));
	for (size_t i = 0; i < s->ncgroups; i++) {
		by_id[i] = (struct id_index){.id = s->cgroups[i].id, .i = i};
		s->cgroups[i].v[CGCOL_NPROCS] = 0;
		s->cgroups[i].valid |= CGCOL_BIT(CGCOL_NPROCS);
	}
	qsort(by_id, s->ncgroups, sizeof(*by_id), cmp_id_index);
	for (size_t p = 0; p < s->nprocs; p++) {
		struct id_index key = {.id = version == 1 ? s->procs[p].memcg_id
							  : s->procs[p].cgroup2_id};
		if (!key.id) { /* not read by the iterator */
			long i = cgroup_of_pid(s, version, s->procs[p].pid);
			if (i >= 0)
				s->cgroups[i].v[CGCOL_NPROCS]++;
			continue;
		}
		const struct id_index *at =
			bsearch(&key, by_id, s->ncgroups, sizeof(key), cmp_id_index);
		if (at) /* else exited (MTB_CG_ID_NONE), or not listed */
			s->cgroups[at->i].v[CGCOL_NPROCS]++;
	}
	free(by_id);
	return true;
}
