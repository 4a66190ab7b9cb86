#include "fds.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <sys/resource.h>

static atomic_long owed;

long fds_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur > (rlim_t)LONG_MAX)
		return -1;
	return (long)rl.rlim_cur;
}

long fds_open(void)
{
	long open = 0, limit = fds_limit();
	DIR *d = opendir("/proc/self/fd");

	if (!d) /* none left to count them with: every one is open */
		return (errno == EMFILE || errno == ENFILE) && limit >= 0 ? limit : 0;
	for (struct dirent *e; (e = readdir(d));)
		open += e->d_name[0] != '.';
	closedir(d);
	return open - 1; /* the directory's own */
}

long fds_free(void)
{
	long limit = fds_limit();

	if (limit < 0)
		return -1;
	long room = limit - fds_open() - atomic_load(&owed);
	return room > 0 ? room : 0;
}

void fds_owe(long n)
{
	atomic_store(&owed, n > 0 ? n : 0);
}
