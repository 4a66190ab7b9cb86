/* memtop's locked working set (guard.h): what it needs to run on a machine short of
 * memory, and no more. The regions are picked from /proc/self/maps: the main thread's
 * stack and the program's own mappings first, then its libraries' (and the locale's
 * files), each with the anonymous mapping that follows a file's (its bss); within each,
 * only the pages it has mapped now, which two refreshes have touched: the code paths and data
 * a refresh uses. The heap and the allocator's other mappings, which grow with the
 * processes listed, the loader thread's stack and the BPF maps (kernel memory, shared
 * mappings) are never locked. The whole stays within the cap, counted as the kernel counts
 * VmLck: the length of every range locked. Before, after the first refresh, the code pages
 * start-up alone ran are dropped (guard_drop_code). */
#include "guard.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif

#define MAPS_MAX  (1u << 20) /* bytes of /proc/self/maps read */
#define SMAPS_MAX (4u << 20) /* of /proc/self/smaps */
#define GAP_PAGES 8	     /* resident runs this close are locked as one */

static uint64_t locked_bytes;

uint64_t guard_locked_kb(void)
{
	return locked_bytes / 1024;
}

struct region {
	uintptr_t start, end;
	char perms[8];
	char path[256];
};

/* One line of /proc/self/maps; false if it is not one */
static bool parse_region(const char *line, struct region *r)
{
	unsigned long a, b, off, ino;
	char dev[16];
	int n = 0;

	r->path[0] = '\0';
	if (sscanf(line, "%lx-%lx %7s %lx %15s %lu %n", &a, &b, r->perms, &off, dev, &ino, &n) < 6)
		return false;
	sscanf(line + n, "%255[^\n]", r->path);
	r->start = a;
	r->end = b;
	return true;
}

/* Whether r is of the working set: pass 0, the stack and the program's own mappings;
 * pass 1, every other file's private mapping and a file's bss (after_file: the mapping
 * before it is a file's and ends where r starts) */
static bool wanted(const struct region *r, int pass, const char *exe, bool after_file)
{
	bool file = r->path[0] == '/' && strncmp(r->path, "/dev/", 5);

	if (r->perms[3] != 'p' || !strcmp(r->perms, "---p"))
		return false;
	if (pass == 0)
		return !strcmp(r->path, "[stack]") || (file && !strcmp(r->path, exe));
	return (file && strcmp(r->path, exe)) || (!r->path[0] && after_file);
}

#define PRESENT(e) ((e) >> 63) /* /proc/self/pagemap: the page is mapped in RAM */

/* Locks the pages of r that memtop's own page tables map now (pagemap: not those that are
 * only in the page cache, for other processes), in runs, while the total stays within
 * max */
static void lock_resident(int pagemap, const struct region *r, uint64_t max)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (r->end - r->start) / page;
	uint64_t *vec = malloc((n ? n : 1) * sizeof(*vec));
	off_t at = (off_t)(r->start / page * sizeof(*vec));

	if (!vec || pread(pagemap, vec, n * sizeof(*vec), at) != (ssize_t)(n * sizeof(*vec))) {
		free(vec);
		return;
	}
	for (size_t i = 0; i < n;) {
		if (!PRESENT(vec[i])) {
			i++;
			continue;
		}
		size_t j = i + 1, gap = 0;
		for (size_t k = j; k < n && gap <= GAP_PAGES; k++) {
			if (PRESENT(vec[k])) {
				j = k + 1;
				gap = 0;
			} else {
				gap++;
			}
		}
		size_t bytes = (j - i) * page;
		if (locked_bytes + bytes <= max &&
		    mlock2((void *)(r->start + i * page), bytes, MLOCK_ONFAULT) == 0)
			locked_bytes += bytes;
		i = j;
	}
	free(vec);
}

void guard_lock(uint64_t max)
{
	static bool done;
	char exe[256] = "";

	if (done || geteuid() || !max)
		return;
	done = true;
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[k > 0 ? k : 0] = '\0';
	/* read whole first: locking splits the mappings the file lists */
	char *maps = malloc(MAPS_MAX);
	int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (!maps || pagemap < 0 || read_file("/proc/self/maps", maps, MAPS_MAX) <= 0) {
		free(maps);
		if (pagemap >= 0)
			close(pagemap);
		return;
	}
	/* best effort: it is protection, not function */
	for (int pass = 0; pass < 2; pass++) {
		uintptr_t file_end = 0; /* where the last file mapping ended */
		for (char *line = maps; *line;) {
			char *nl = strchr(line, '\n');
			struct region r;
			if (parse_region(line, &r)) {
				if (wanted(&r, pass, exe, r.start == file_end))
					lock_resident(pagemap, &r, max);
				file_end = r.path[0] == '/' ? r.end : 0;
			}
			if (!nl)
				break;
			line = nl + 1;
		}
	}
	free(maps);
	close(pagemap);
}

/* The value of field name ("Anonymous:") in the smaps entry that starts at entry; -1 if
 * none before the next entry */
static long smaps_field(const char *entry, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = strchr(entry, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		struct region r;
		if (parse_region(l + 1, &r))
			break;
		if (!strncmp(l + 1, name, n))
			return strtol(l + 1 + n, NULL, 10);
	}
	return -1;
}

void guard_drop_code(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	char *smaps = malloc(SMAPS_MAX);
	if (!smaps || read_file("/proc/self/smaps", smaps, SMAPS_MAX) <= 0) {
		free(smaps);
		return;
	}
	for (char *line = smaps; *line;) {
		struct region r;
		if (parse_region(line, &r) && !strcmp(r.perms, "r-xp") && r.path[0] == '/' &&
		    strncmp(r.path, "/dev/", 5) && smaps_field(line, "Anonymous:") == 0)
			madvise((void *)r.start, r.end - r.start, MADV_DONTNEED);
		char *nl = strchr(line, '\n');
		if (!nl)
			break;
		line = nl + 1;
	}
	free(smaps);
}
