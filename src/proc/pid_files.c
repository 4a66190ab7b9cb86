#include "pid_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* "Key:   123 kB" lines: the value of key, or -1 */
static int kb_field(const char *line, const char *key, uint64_t *out)
{
	size_t n = strlen(key);
	char *end;

	if (strncmp(line, key, n) || line[n] != ':')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(line + n + 1, &end, 10);
	if (errno || end == line + n + 1)
		return -1;
	*out = v;
	return 0;
}

struct kb_key {
	const char *name;
	size_t off;
};

#define BK(name, field)                                                                            \
	{                                                                                          \
		name, offsetof(struct dd_breakdown, field)                                         \
	}

static const struct kb_key rollup_keys[] = {
	BK("Rss", rss),
	BK("Pss", pss),
	BK("Pss_Anon", pss_anon),
	BK("Pss_File", pss_file),
	BK("Pss_Shmem", pss_shmem),
	BK("Shared_Clean", shared_clean),
	BK("Shared_Dirty", shared_dirty),
	BK("Private_Clean", private_clean),
	BK("Private_Dirty", private_dirty),
	BK("Anonymous", anonymous),
	BK("AnonHugePages", anon_huge),
	BK("ShmemPmdMapped", shmem_pmd),
	BK("FilePmdMapped", file_pmd),
	BK("Shared_Hugetlb", shared_hugetlb),
	BK("Private_Hugetlb", private_hugetlb),
	BK("Swap", swap),
	BK("SwapPss", swap_pss),
	BK("Locked", locked),
};

static const struct kb_key status_keys[] = {
	BK("RssAnon", rss_anon), BK("RssFile", rss_file), BK("RssShmem", rss_shmem),
	BK("VmPTE", pgtables),	 BK("VmSwap", vm_swap),	  BK("HugetlbPages", hugetlb),
	BK("VmSize", vm_size),
};

/* Each line of text against keys; returns how many lines matched a key. */
static int parse_kb_lines(const char *text, const struct kb_key *keys, size_t nkeys, void *base)
{
	int found = 0;

	for (const char *line = text; line && *line;) {
		for (size_t i = 0; i < nkeys; i++) {
			if (!kb_field(line, keys[i].name,
				      (uint64_t *)((char *)base + keys[i].off))) {
				found++;
				break;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return found;
}

int parse_smaps_rollup(const char *text, struct dd_breakdown *b)
{
	int found = parse_kb_lines(text, rollup_keys, ARRAY_SIZE(rollup_keys), b);

	b->uss = b->private_clean + b->private_dirty;
	b->have_rollup = found > 0;
	return found > 0 ? 0 : -1;
}

int parse_status_detail(const char *text, struct dd_breakdown *b)
{
	int found = parse_kb_lines(text, status_keys, ARRAY_SIZE(status_keys), b);
	const char *name = strncmp(text, "Name:", 5) ? strstr(text, "\nName:") : text;

	if (name) {
		name += *name == '\n' ? 6 : 5;
		name += strspn(name, " \t");
		/* the kernel writes a backslash in the name as \\ and a newline as \n */
		size_t o = 0;
		for (const char *p = name; *p && *p != '\n' && o < DD_COMM_LEN; p++) {
			char c = *p;
			if (c == '\\' && (p[1] == '\\' || p[1] == 'n'))
				c = *++p == 'n' ? '\n' : '\\';
			b->comm[o++] = c;
		}
		b->comm[o] = '\0';
		found++;
	}
	b->have_status = found > 0;
	return found > 0 ? 0 : -1;
}

/* "start-end perms offset dev inode   path" */
static int parse_map_header(const char *line, struct dd_mapping *m)
{
	unsigned long long start, end, off, ino;
	unsigned maj, mnr;
	char perms[8];
	int pos = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu%n", &start, &end, perms, &off, &maj, &mnr,
		   &ino, &pos) != 7 ||
	    end < start || strlen(perms) != 4)
		return -1;
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->end = end;
	m->offset = off;
	m->inode = ino;
	memcpy(m->perms, perms, 5);
	const char *path = line + pos;

	path += strspn(path, " \t");
	size_t n = strcspn(path, "\n");

	m->path = xmalloc(n + 1);
	memcpy(m->path, path, n);
	m->path[n] = '\0';
	if (!n || !strncmp(m->path, "[anon:", 6) || !strncmp(m->path, "[anon_shmem:", 12))
		m->kind = DD_MAP_ANON;
	else if (!strcmp(m->path, "[heap]"))
		m->kind = DD_MAP_HEAP;
	else if (!strncmp(m->path, "[stack", 6))
		m->kind = DD_MAP_STACK;
	else if (m->path[0] == '[')
		m->kind = DD_MAP_SPECIAL;
	else
		m->kind = DD_MAP_FILE;
	m->size = (end - start) / 1024;
	return 0;
}

int parse_smaps(const char *text, struct dd_mapping **maps, size_t *n)
{
	static const struct kb_key map_keys[] = {
		{"Rss", offsetof(struct dd_mapping, rss)},
		{"Pss", offsetof(struct dd_mapping, pss)},
		{"Swap", offsetof(struct dd_mapping, swap)},
		{"Anonymous", offsetof(struct dd_mapping, anon)},
		{"Locked", offsetof(struct dd_mapping, locked)},
	};
	size_t cap = *n;
	struct dd_mapping *cur = NULL;
	int found = 0;

	for (const char *line = text; line && *line;) {
		struct dd_mapping m;
		uint64_t v;

		if (!parse_map_header(line, &m)) {
			*maps = xgrow(*maps, *n, &cap, sizeof(**maps), 64);
			cur = &(*maps)[(*n)++];
			*cur = m;
			found++;
		} else if (cur) {
			for (size_t i = 0; i < ARRAY_SIZE(map_keys); i++)
				if (!kb_field(line, map_keys[i].name, &v))
					*(uint64_t *)((char *)cur + map_keys[i].off) = v;
			if (!kb_field(line, "Shared_Dirty", &v) ||
			    !kb_field(line, "Private_Dirty", &v))
				cur->dirty += v;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return found ? 0 : -1;
}

int parse_proc_memcg(const char *text, char *out, size_t size)
{
	char path[4096];

	out[0] = '\0';
	if (parse_proc_cgroup(text, 1, path, sizeof(path)) &&
	    parse_proc_cgroup(text, 2, path, sizeof(path)))
		return -1;
	snprintf(out, size, "%s", path);
	return 0;
}

int read_proc_memcg(int32_t pid, char *out, size_t size)
{
	char file[64], text[8192];

	snprintf(file, sizeof(file), "/proc/%d/cgroup", (int)pid);
	if (read_file(file, text, sizeof(text)) <= 0)
		return -1;
	return parse_proc_memcg(text, out, size);
}

int read_proc_cgroup(int32_t pid, int version, char *out, size_t size)
{
	char file[64], text[8192];

	snprintf(file, sizeof(file), "/proc/%d/cgroup", (int)pid);
	if (read_file(file, text, sizeof(text)) <= 0)
		return -1;
	return parse_proc_cgroup(text, version, out, size);
}

int read_proc_tgid(int32_t pid, int32_t *tgid)
{
	char path[64], buf[4096];
	uint64_t v;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	for (const char *line = buf; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (!kb_field(line, "Tgid", &v) && v > 0 && v <= INT32_MAX) {
			*tgid = (int32_t)v;
			return 0;
		}
	errno = EINVAL;
	return -1;
}

int read_proc_stat(int32_t pid, struct pid_stat *st)
{
	char path[64], buf[1024];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return parse_stat(buf, st);
}

int read_statm(const char *path, struct pid_statm *sm)
{
	char buf[256];

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return parse_statm(buf, sm);
}

char *read_whole_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 65536, len = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		if (len + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t n = read(fd, buf + len, cap - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}
