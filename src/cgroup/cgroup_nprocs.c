/* The processes of each memory cgroup from the task iterator's cgroup ids (cgroup_from_bpf.h):
 * counted in one pass over the processes instead of a cgroup.procs file a cgroup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_from_bpf.h"
#include "cgroup_ids.h"
#include "pid_files.h"
#include "util.h"

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
	struct cg_ids by_id;

	cg_ids_make(&by_id, s);
	for (size_t i = 0; i < s->ncgroups; i++) {
		s->cgroups[i].v[CGCOL_NPROCS] = 0;
		s->cgroups[i].valid |= CGCOL_BIT(CGCOL_NPROCS);
	}
	for (size_t p = 0; p < s->nprocs; p++) {
		uint64_t id = version == 1 ? s->procs[p].memcg_id : s->procs[p].cgroup2_id;
		if (!id) { /* not read by the iterator */
			long i = cgroup_of_pid(s, version, s->procs[p].pid);
			if (i >= 0)
				s->cgroups[i].v[CGCOL_NPROCS]++;
			continue;
		}
		long i = cg_ids_find(&by_id, id);
		if (i >= 0) /* else exited (MTB_CG_ID_NONE), or not listed */
			s->cgroups[i].v[CGCOL_NPROCS]++;
	}
	cg_ids_free(&by_id);
	return true;
}
