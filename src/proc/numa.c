#include "numa.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A number at s, "123" up to a delimiter in end (any other byte: none); -1 without one */
static int number_at(const char *s, const char *ends, uint64_t *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || !strchr(ends, *end))
		return -1;
	*out = v;
	return 0;
}

int parse_node_meminfo(const char *text, struct node_mem *n)
{
	bool total = false;

	memset(n->kb, 0, sizeof(n->kb));
	for (const char *line = text; line && *line;) {
		/* "Node 0 Key:   123 kB": past "Node", the number, and the spaces around it */
		const char *p = line;
		if (!strncmp(p, "Node ", 5)) {
			p += 5;
			while (isdigit((unsigned char)*p))
				p++;
			while (*p == ' ')
				p++;
			for (size_t f = 0; f < NF_COUNT; f++) {
				size_t len = strlen(node_figures[f].key);
				const char *v = p + len + 1;
				if (strncmp(p, node_figures[f].key, len) || p[len] != ':')
					continue;
				while (*v == ' ' || *v == '\t')
					v++;
				if (!number_at(v, " \n", &n->kb[f]))
					total |= f == NF_MEM_TOTAL;
				break;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return total ? 0 : -1;
}

static int by_node(const void *a, const void *b)
{
	const struct node_mem *x = a, *y = b;
	return (x->node > y->node) - (x->node < y->node);
}

size_t numa_nodes_read(struct node_mem *nodes, size_t max)
{
	DIR *dir = opendir("/sys/devices/system/node");
	struct dirent *e;
	size_t n = 0, found = 0;
	struct node_mem all[256];

	if (!dir)
		return 0;
	while ((e = readdir(dir)) && found < ARRAY_SIZE(all)) {
		uint64_t id;
		if (!strncmp(e->d_name, "node", 4) && !number_at(e->d_name + 4, "", &id) &&
		    id <= INT32_MAX)
			all[found++].node = (int32_t)id;
	}
	closedir(dir);
	qsort(all, found, sizeof(all[0]), by_node);
	for (size_t i = 0; i < found && n < max; i++) {
		char path[80], buf[4096];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo",
			 all[i].node);
		if (read_file(path, buf, sizeof(buf)) <= 0 || parse_node_meminfo(buf, &all[i]))
			continue;
		nodes[n++] = all[i];
	}
	return n;
}

const struct numa_kind_row numa_kinds[NK_COUNT] = {
	[NK_HUGE] = {"Huge", "huge"},
	[NK_HEAP] = {"Heap", "heap"},
	[NK_STACK] = {"Stack", "stack"},
	[NK_PRIVATE] = {"Private", "private"},
};

/* The kind a token of a numa_maps line names, NK_PRIVATE where none: numastat's words (the
 * kinds' JSON names), matched at the start of any token */
static enum numa_kind kind_of(const char *tok, size_t len)
{
	for (int k = 0; k < NK_PRIVATE; k++)
		if (len >= strlen(numa_kinds[k].json) &&
		    !strncmp(tok, numa_kinds[k].json, strlen(numa_kinds[k].json)))
			return (enum numa_kind)k;
	return NK_PRIVATE;
}

/* The entry of node in u, added in node order where there is room; NULL where not */
static struct numa_node_use *node_use(struct numa_use *u, int32_t node)
{
	size_t i = 0;

	while (i < u->nnodes && u->nodes[i].node < node)
		i++;
	if (i < u->nnodes && u->nodes[i].node == node)
		return &u->nodes[i];
	if (u->nnodes == MT_MAX_NODES)
		return NULL;
	memmove(&u->nodes[i + 1], &u->nodes[i], (u->nnodes - i) * sizeof(u->nodes[0]));
	u->nnodes++;
	memset(&u->nodes[i], 0, sizeof(u->nodes[0]));
	u->nodes[i].node = node;
	return &u->nodes[i];
}

/* One line: its kind, its pages per node, its page size; added to u */
static void add_line(struct numa_use *u, const char *line, const char *end, long page_kb)
{
	struct {
		int32_t node;
		uint64_t pages;
	} on[MT_MAX_NODES];
	size_t n = 0;
	enum numa_kind kind = NK_PRIVATE;
	uint64_t psize = page_kb > 0 ? (uint64_t)page_kb : 4, v;

	for (const char *t = line; t < end;) {
		while (t < end && (*t == ' ' || *t == '\t'))
			t++;
		const char *te = t;
		while (te < end && *te != ' ' && *te != '\t')
			te++;
		size_t len = (size_t)(te - t);
		if (kind == NK_PRIVATE)
			kind = kind_of(t, len);
		if (len > 1 && t[0] == 'N' && isdigit((unsigned char)t[1])) {
			char *eq;
			unsigned long node = strtoul(t + 1, &eq, 10);
			if (eq < te && *eq == '=' && node <= INT32_MAX &&
			    !number_at(eq + 1, " \t\n", &v) && n < MT_MAX_NODES) {
				on[n].node = (int32_t)node;
				on[n++].pages = v;
			}
		} else if (len > 18 && !strncmp(t, "kernelpagesize_kB=", 18) &&
			   !number_at(t + 18, " \t\n", &v) && v > 0) {
			psize = v;
		}
		t = te;
	}
	for (size_t i = 0; i < n; i++) {
		struct numa_node_use *nu = node_use(u, on[i].node);
		if (nu)
			nu->kb[kind] += on[i].pages * psize;
	}
}

int parse_numa_maps(const char *text, long page_kb, struct numa_use *u)
{
	bool any = false;

	memset(u, 0, sizeof(*u));
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (isxdigit((unsigned char)*line)) {
			any = true;
			add_line(u, line, end, page_kb);
		}
		line = *end ? end + 1 : NULL;
	}
	return any ? 0 : -1;
}

uint64_t numa_kind_total(const struct numa_use *u, enum numa_kind k)
{
	uint64_t t = 0;
	for (size_t i = 0; i < u->nnodes; i++)
		t += u->nodes[i].kb[k];
	return t;
}

uint64_t numa_node_total(const struct numa_node_use *n)
{
	uint64_t t = 0;
	for (int k = 0; k < NK_COUNT; k++)
		t += n->kb[k];
	return t;
}
