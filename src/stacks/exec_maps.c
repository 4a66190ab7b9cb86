#include "exec_maps.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pid_files.h"
#include "util.h"

bool exec_maps_read(struct exec_maps *m, int32_t pid)
{
	char path[64], *text;
	struct dd_mapping *maps = NULL;
	size_t nmaps = 0;
	uint64_t sig = 1469598103934665603ULL;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(text = read_whole_file(path)))
		return false; /* gone: the last list stands */
	parse_smaps(text, &maps, &nmaps);
	free(text);
	m->n = 0;
	for (size_t i = 0; i < nmaps; i++) {
		if (maps[i].perms[2] == 'x') {
			m->r = xgrow(m->r, m->n, &m->cap, sizeof(*m->r), 32);
			m->r[m->n].start = maps[i].start;
			m->r[m->n++].end = maps[i].end;
			sig = (sig ^ maps[i].start ^ maps[i].end << 7 ^ maps[i].inode) *
			      1099511628211ULL;
		}
		free(maps[i].path);
	}
	free(maps);
	bool changed = sig != m->sig;

	m->sig = sig;
	return changed;
}

bool exec_maps_has(const struct exec_maps *m, uint64_t pc)
{
	for (size_t i = 0; i < m->n; i++)
		if (pc >= m->r[i].start && pc < m->r[i].end)
			return true;
	return false;
}

void exec_maps_free(struct exec_maps *m)
{
	free(m->r);
	m->r = NULL;
	m->n = m->cap = 0;
}

void exec_maps_program(int32_t pid, char *out, size_t size)
{
	char path[64], target[PATH_MAX];
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	if (stat(path, &st))
		st.st_ino = 0;
	snprintf(out, size, "%llu:%s", (unsigned long long)st.st_ino, target);
}
