/* The listing of the memory cgroup hierarchy's directories: each cgroup's path, id and
 * depth, depth first and each one's children by name, the order the tree is drawn in. */
#include "cgroup_list.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroup_reader.h"
#include "util.h"

/* A subdirectory found in a listing: its name, and what stat gave */
struct subdir {
	char *name;
	struct stat st;
};

static int cmp_subdirs(const void *a, const void *b)
{
	return strcmp(((const struct subdir *)a)->name, ((const struct subdir *)b)->name);
}

/* Appends the cgroup at hierarchy path and, depth first, those below it. st: its stat,
 * taken in its parent's listing (NULL for the root): a directory with two links has no
 * subdirectory (each one's ".." is a link to it), and most cgroups are leaves, whose
 * directories of thirty files are then not read. */
static void list_at(struct cg_reader *r, struct snapshot *s, char *path, size_t cap, uint32_t depth,
		    const struct stat *st)
{
	char dir[PATH_MAX];
	struct stat own;
	if (st && st->st_nlink == 2) {
		struct cg_sample *cg = snapshot_add_cgroup(s, path);
		cg->id = (uint64_t)st->st_ino;
		cg->depth = depth;
		return;
	}
	if (cg_dir_of(r, path, dir, sizeof(dir)))
		return;
	DIR *d = opendir(dir);
	if (!d) /* removed since its parent was read */
		return;
	if (fstat(dirfd(d), &own)) {
		closedir(d);
		return;
	}
	struct cg_sample *cg = snapshot_add_cgroup(s, path);
	cg->id = (uint64_t)own.st_ino;
	cg->depth = depth;

	struct subdir *sub = NULL;
	size_t n = 0, ncap = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN)
			continue;
		sub = xgrow(sub, n, &ncap, sizeof(*sub), 16);
		if (fstatat(dirfd(d), e->d_name, &sub[n].st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(sub[n].st.st_mode))
			continue; /* removed since, or not a directory */
		sub[n++].name = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(sub, n, sizeof(*sub), cmp_subdirs);
	size_t len = strlen(path);
	for (size_t i = 0; i < n; i++) {
		const char *sep = len && path[len - 1] == '/' ? "" : "/";
		if ((size_t)snprintf(path + len, cap - len, "%s%s", sep, sub[i].name) < cap - len)
			list_at(r, s, path, cap, depth + 1, &sub[i].st);
		path[len] = '\0';
		free(sub[i].name);
	}
	free(sub);
}

void cg_list(struct cg_reader *r, struct snapshot *s)
{
	char path[PATH_MAX];

	if (!r->version)
		return;
	snprintf(path, sizeof(path), "%s", r->root);
	list_at(r, s, path, sizeof(path), 0, NULL);
}
