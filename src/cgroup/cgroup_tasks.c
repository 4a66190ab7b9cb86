/* The processes of each memory cgroup with a limit, for the forecast's OOM victim in it
 * (forecast.h): its cgroup.procs and those of the cgroups below it, each process's
 * oom_score_adj, and on v2 memory.oom.group. Only limited cgroups are read: a few files a
 * refresh where a limit is set, none where none is. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "cgroup_reader.h"
#include "util.h"

/* A limit (memory.max or memory.high; v1 limit_in_bytes) below RAM */
static bool limited(const struct cg_sample *c, uint64_t mem_total_kb)
{
	unsigned lim = c->valid & ~c->unlimited;

	return ((lim & CGCOL_BIT(CGCOL_LIMIT)) && c->v[CGCOL_LIMIT] < mem_total_kb) ||
	       ((lim & CGCOL_BIT(CGCOL_HIGH)) && c->v[CGCOL_HIGH] < mem_total_kb);
}

static bool below(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return true;
	return !strncmp(path, root, n) && (path[n] == '\0' || path[n] == '/');
}

static struct cg_task *add_task(struct snapshot *s)
{
	s->cg_tasks = xgrow(s->cg_tasks, s->ncg_tasks, &s->cg_tasks_cap, sizeof(*s->cg_tasks), 64);
	return &s->cg_tasks[s->ncg_tasks++];
}

static int16_t oom_score_adj(int32_t pid)
{
	char path[64], text[32];

	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", pid);
	return read_file(path, text, sizeof(text)) > 0 ? (int16_t)atoi(text) : 0;
}

/* The processes cgroup.procs of the cgroup at path lists, appended */
static void read_procs(struct cg_reader *r, struct snapshot *s, const char *path)
{
	char dir[PATH_MAX], file[PATH_MAX + 32];

	if (cg_dir_of(r, path, dir, sizeof(dir)))
		return;
	snprintf(file, sizeof(file), "%s/cgroup.procs", dir);
	if (read_file(file, r->buf, sizeof(r->buf)) <= 0)
		return;
	for (char *p = r->buf, *end; *p; p = end) {
		long pid = strtol(p, &end, 10);
		if (end == p)
			break;
		if (pid > 0 && pid <= INT32_MAX)
			add_task(s)->pid = (int32_t)pid;
	}
}

static bool oom_group(struct cg_reader *r, const char *path)
{
	char dir[PATH_MAX], file[PATH_MAX + 32], text[16];

	if (r->version != 2 || cg_dir_of(r, path, dir, sizeof(dir)))
		return false;
	snprintf(file, sizeof(file), "%s/memory.oom.group", dir);
	return read_file(file, text, sizeof(text)) > 0 && text[0] == '1';
}

void cg_read_tasks(struct cg_reader *r, struct snapshot *s)
{
	s->ncg_tasks = 0;
	for (size_t i = 0; i < s->ncgroups; i++) {
		struct cg_sample *c = &s->cgroups[i];
		c->task0 = (uint32_t)s->ncg_tasks;
		c->ntasks = 0;
		if (c->removed || !limited(c, s->mem[MI_MEM_TOTAL]))
			continue;
		/* its own, then those below it, in the hierarchy's order */
		for (size_t j = i; j < s->ncgroups; j++)
			if (!s->cgroups[j].removed && below(s->cgroups[j].path, c->path))
				read_procs(r, s, s->cgroups[j].path);
		c->ntasks = (uint32_t)(s->ncg_tasks - c->task0);
		for (size_t k = c->task0; k < s->ncg_tasks; k++)
			s->cg_tasks[k].oom_score_adj = oom_score_adj(s->cg_tasks[k].pid);
		c->oom_group = oom_group(r, c->path);
	}
}
