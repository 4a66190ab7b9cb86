/* The memory cgroup source, on top of the reader's parts (cgroup_reader.h): the files read
 * (cgroup_files.c), the figures from BPF where they agree with them (cgroup_from_bpf.c), and the
 * OOM kills counted (cgroup_kills.c). */
#include "cgroup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_from_bpf.h"
#include "cgroup_names.h"
#include "cgroup_reader.h"
#include "procfs.h"
#include "util.h"

void cg_close(struct cg_reader *r)
{
	if (!r)
		return;
	cg_kills_free(r);
	cg_names_free(r->names);
	cg_bpf_free(r->bpf);
	cg_files_close(r);
}

void cg_use_bpf(struct cg_reader *r, struct cg_iter *it)
{
	if (r->version && !r->bpf && !r->test_root)
		r->bpf = cg_bpf_new(it);
}

void cg_read(struct cg_reader *r, struct snapshot *s, unsigned cols)
{
	if (!r->version)
		return;
	cols = cg_files_cols(r, cols);
	/* what BPF gives is not read from files: each cgroup reads those it lacks */
	cg_bpf_count_procs(s, r->version, cols);
	cg_bpf_fill(r->bpf, r, s, cols);
	cg_files_read_all(r, s, cols);
}

void cg_read_self(struct cg_reader *r, const char *proc_cgroup, uint64_t mem_total_kb,
		  struct cg_self *out)
{
	char path[PATH_MAX], best[PATH_MAX] = "";
	uint64_t best_limit = UINT64_MAX, best_usage = 0, own_usage = 0;
	unsigned cols = CGCOL_BIT(CGCOL_USAGE) | CGCOL_BIT(CGCOL_LIMIT);
	bool own = true;

	free(out->path);
	memset(out, 0, sizeof(*out));
	if (!r->version || parse_proc_cgroup(proc_cgroup, r->version, path, sizeof(path)))
		return;
	/* memtop's cgroup, then each ancestor up to the one mounted */
	for (;;) {
		struct cg_sample cg = {.path = path};
		if (cg_read_files(r, &cg, cols) || !(cg.valid & CGCOL_BIT(CGCOL_USAGE))) {
			if (own)
				return;
		} else {
			if (own) {
				out->present = true;
				own_usage = cg.v[CGCOL_USAGE];
				out->path = xstrdup(path);
			}
			if ((cg.valid & ~cg.unlimited & CGCOL_BIT(CGCOL_LIMIT)) &&
			    cg.v[CGCOL_LIMIT] < best_limit) {
				best_limit = cg.v[CGCOL_LIMIT];
				best_usage = cg.v[CGCOL_USAGE];
				snprintf(best, sizeof(best), "%s", path);
			}
		}
		own = false;
		char *slash = strrchr(path, '/');
		if (!strcmp(path, r->root) || !slash || !strcmp(path, "/"))
			break;
		slash[slash == path] = '\0'; /* "/a" goes to "/" */
	}
	out->usage_kb = own_usage;
	if (best[0] && best_limit < mem_total_kb) {
		free(out->path);
		out->path = xstrdup(best);
		out->usage_kb = best_usage;
		out->limit_kb = best_limit;
		out->limited = true;
	}
}

/* /proc/self/cgroup's text; in a test's tree (MEMTOP_CGROUP_ROOT), MEMTOP_CGROUP_SELF=PATH
 * names memtop's own cgroup in it, in the text of that version */
static bool self_cgroup_text(const struct cg_reader *r, char *text, size_t size)
{
	const char *self = r->test_root ? getenv("MEMTOP_CGROUP_SELF") : NULL;
	if (self) {
		snprintf(text, size, r->version == 1 ? "4:memory:%s\n" : "0::%s\n", self);
		return true;
	}
	return read_file("/proc/self/cgroup", text, size) > 0;
}

void cg_collect(struct cg_reader *r, struct snapshot *s, unsigned cols, bool self)
{
	double start = clock_mono();

	s->cg_version = r->version;
	s->cg_cols = r->version ? cols : 0;
	if (cols) {
		if (!cg_bpf_list(r->bpf, r, s, cg_files_cols(r, cols)))
			cg_list(r, s);
		cg_read(r, s, cols);
		if (cols & CGCOL_BIT(CGCOL_LIMIT))
			cg_read_tasks(r, s);
		/* for tests alone: MEMTOP_NAMES_ROOT=DIR reads the engines' files under DIR */
		if (!r->names)
			r->names = cg_names_new(getenv("MEMTOP_NAMES_ROOT"));
		cg_names_fill(r->names, s);
	} else {
		cg_bpf_idle(r->bpf); /* the view closed: the iterator's link goes */
		cg_files_idle(r);    /* and the kernel's buffers */
	}
	if (self) {
		char text[4096];
		if (self_cgroup_text(r, text, sizeof(text)))
			cg_read_self(r, text, s->mem[MI_MEM_TOTAL], &s->cg_self);
	}
	s->mono_cgroups = (start + clock_mono()) / 2;
}
