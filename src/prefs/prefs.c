#include "prefs.h"

#include <stdio.h>
#include <string.h>

int prefs_set_cgroup(struct model_filter *f, const char *path, char *err, size_t errlen)
{
	char buf[MAX_CGROUP_PATH];
	size_t n = 0;

	if (!path[0]) {
		snprintf(err, errlen, "a cgroup path (\"/\" for all)");
		return -1;
	}
	for (const char *p = path; *p; p++) {
		if (*p == '/' && n && buf[n - 1] == '/')
			continue;
		if (n + 2 >= sizeof(buf)) {
			snprintf(err, errlen, "a cgroup path of at most %d bytes",
				 MAX_CGROUP_PATH - 2);
			return -1;
		}
		if (!n && *p != '/')
			buf[n++] = '/';
		buf[n++] = *p;
	}
	while (n > 1 && buf[n - 1] == '/')
		n--;
	buf[n] = '\0';
	memcpy(f->cgroup, buf, n + 1);
	return 0;
}
