#include "guard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "util.h"

static int adj_now;  /* what it set; 0, the default, where it could not */
static bool adj_set; /* it was set */

int guard_oom_adj(int adj, char *err, size_t errlen)
{
	char buf[16];
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	int n = snprintf(buf, sizeof(buf), "%d\n", adj);

	if (fd < 0 || write(fd, buf, (size_t)n) != n) {
		snprintf(err, errlen, "cannot set its oom_score_adj to %d: %s", adj,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	adj_now = adj;
	adj_set = true;
	return 0;
}

void guard_collect(struct self_state *st)
{
	char buf[4096];

	memset(st, 0, sizeof(*st));
	st->oom_score_adj = adj_now;
	st->adj_lowered = adj_set;
	/* the locked size moves only with the mappings it locked: read only after locking */
	if (guard_locked_kb() && read_file("/proc/self/status", buf, sizeof(buf)) > 0) {
		const char *p = strstr(buf, "\nVmLck:");
		if (p)
			st->locked_kb = strtoull(p + 8, NULL, 10);
	}
}
