#include "kallsyms.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_kallsyms_line(const char *line, uint64_t *addr, char *type, char *name, size_t nlen,
			char *module, size_t mlen)
{
	char *end;
	const char *p = line, *q;

	errno = 0;
	*addr = strtoull(p, &end, 16);
	if (errno || end == p || *end != ' ')
		return -1;
	p = end + 1;
	if (!*p || p[1] != ' ')
		return -1;
	*type = *p;
	p += 2;
	q = p + strcspn(p, " \t\n");
	if (q == p)
		return -1;
	snprintf(name, nlen, "%.*s", (int)(q - p), p);
	module[0] = '\0';
	p = q + strspn(q, " \t");
	if (*p == '[') {
		q = strchr(p, ']');
		if (!q)
			return -1;
		snprintf(module, mlen, "%.*s", (int)(q - p - 1), p + 1);
	}
	return 0;
}

int kallsyms_scan(kallsyms_fn fn, void *arg)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], type, name[256], module[64];
	uint64_t addr;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!parse_kallsyms_line(line, &addr, &type, name, sizeof(name), module,
					 sizeof(module)) &&
		    fn(arg, addr, type, name, module))
			break;
	fclose(f);
	return 0;
}
