/* dl_host MODE SECS PAGES
 * Loads libdl_plug.so (next to this program) with dlopen and calls its plug_touch(PAGES)
 * through host_call in a loop for SECS seconds. MODE stay: one dlopen, then the loop; MODE cycle:
 * dlopen, call, dlclose each time round. Prints "ready PID", waits for a line on stdin before it
 * starts, prints "done CALLS" and exits at the end of stdin. */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char lib[PATH_MAX + 32];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *load(int (**touch)(long))
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

	if (!h || !(*touch = (int (*)(long))dlsym(h, "plug_touch"))) {
		fprintf(stderr, "dl_host: %s\n", dlerror());
		exit(1);
	}
	return h;
}

__attribute__((noinline)) static int host_call(int (*touch)(long), long pages)
{
	int rc = touch(pages);

	__asm__ volatile("" ::: "memory");
	return rc;
}

int main(int argc, char **argv)
{
	char self[PATH_MAX], line[64];
	int (*touch)(long) = NULL;
	void *h = NULL;
	long calls = 0, pages;
	ssize_t n;

	if (argc < 4 || (strcmp(argv[1], "stay") && strcmp(argv[1], "cycle")) ||
	    (pages = strtol(argv[3], NULL, 10)) < 1) {
		fprintf(stderr, "usage: dl_host stay|cycle SECS PAGES\n");
		return 2;
	}
	int cycle = !strcmp(argv[1], "cycle");
	double secs = strtod(argv[2], NULL);

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
		return 1;
	self[n] = '\0';
	snprintf(lib, sizeof(lib), "%s/libdl_plug.so", dirname(self));
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	if (!cycle)
		h = load(&touch);
	for (double end = now() + secs; now() < end; calls++) {
		if (cycle)
			h = load(&touch);
		if (host_call(touch, pages))
			return 1;
		if (cycle)
			dlclose(h);
	}
	printf("done %ld\n", calls);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
