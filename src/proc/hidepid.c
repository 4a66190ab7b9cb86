#include "hidepid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "util.h"

/* The super options of a mountinfo line (after " - TYPE SOURCE ") when it mounts /proc */
static const char *proc_options(const char *line, size_t len)
{
	char point[16];
	const char *dash = NULL;

	/* ID PARENT MAJ:MIN ROOT POINT ...: the fifth field */
	if (sscanf(line, "%*s %*s %*s %*s %15s", point) != 1 || strcmp(point, "/proc"))
		return NULL;
	for (const char *p = line; p + 3 <= line + len; p++)
		if (!strncmp(p, " - ", 3)) {
			dash = p + 3;
			break;
		}
	if (!dash || strncmp(dash, "proc ", 5))
		return NULL;
	const char *src = dash + 5, *opts = memchr(src, ' ', (size_t)(line + len - src));
	return opts ? opts + 1 : NULL;
}

bool parse_hidepid(const char *mountinfo, char *val, size_t size, long *gid)
{
	const char *last = NULL;
	size_t last_len = 0;

	for (const char *l = mountinfo; *l;) {
		size_t len = strcspn(l, "\n");
		const char *o = proc_options(l, len);
		if (o) {
			last = o;
			last_len = len - (size_t)(o - l);
		}
		l += len + (l[len] == '\n');
	}
	*gid = -1;
	val[0] = '\0';
	if (!last)
		return false;
	char opts[512];
	snprintf(opts, sizeof(opts), "%.*s", (int)last_len, last);
	for (char *save, *o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if (!strncmp(o, "hidepid=", 8))
			snprintf(val, size, "%s", o + 8);
		else if (!strncmp(o, "gid=", 4))
			*gid = strtol(o + 4, NULL, 10);
	}
	return val[0] && strcmp(val, "0") && strcmp(val, "off");
}

bool procfs_hidden(char *why, size_t size)
{
	char text[65536], val[32];
	long gid;

	if (!geteuid() || read_file("/proc/self/mountinfo", text, sizeof(text)) <= 0 ||
	    !parse_hidepid(text, val, sizeof(val), &gid))
		return false;
	if (gid >= 0) { /* the group exempted sees every process */
		gid_t groups[256];
		int n = getgroups(256, groups);
		if ((gid_t)gid == getegid())
			return false;
		for (int i = 0; i < n; i++)
			if (groups[i] == (gid_t)gid)
				return false;
	}
	snprintf(why, size, "/proc hides other users' processes (hidepid=%s)", val);
	return true;
}
