#include "prefs.h"
#include "prefs_table.h"

#include <stdio.h>
#include <string.h>

void prefs_init(struct prefs *p)
{
	char why[200];

	memset(p, 0, sizeof(*p));
	p->cols = columns_default();
	p->cg.cols = cg_columns_default();
	p->cg.sort = CGCOL_USAGE;
	p->cg.tree = true;
	for (const struct pref *r = prefs_table; r < prefs_table + PREF_COUNT; r++)
		if (r->preset)
			pref_parse(r, p, r->preset, false, why, sizeof(why));
}

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
