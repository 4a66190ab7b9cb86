#include "fds.h"

#include <dirent.h>
#include <sys/resource.h>

long fds_free(void)
{
	struct rlimit rl;
	long open = 0;
	DIR *d;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return -1;
	if ((d = opendir("/proc/self/fd"))) {
		for (struct dirent *e; (e = readdir(d));)
			open += e->d_name[0] != '.';
		closedir(d);
		open--; /* the directory's own */
	}
	return (long)rl.rlim_cur - open;
}
