/* grow_child [-s START_MIB] MIB_PER_SEC SECS [MARKER...]
 * Touches START_MIB MiB of anonymous memory at once (-s; none by default), prints "ready
 * PID", then grows its resident memory by MIB_PER_SEC MiB a second for SECS seconds
 * (anonymous memory touched in steps of a tenth of a second, kept to the clock), prints
 * "stopped" and holds what it has until killed. SECS 0: grows until killed (or until the
 * kernel's OOM killer kills it). Further arguments are ignored: tests use them as markers
 * to find the process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double first = 0;

	if (argc >= 3 && !strcmp(argv[1], "-s")) {
		first = atof(argv[2]) * 1048576.0;
		argc -= 2;
		argv += 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: grow_child [-s START_MIB] MIB_PER_SEC SECS [MARKER...]\n");
		return 2;
	}
	double rate = atof(argv[1]) * 1048576.0, secs = atof(argv[2]);
	if (rate <= 0 || secs < 0 || first < 0) {
		fprintf(stderr, "grow_child: bad rate, seconds or start\n");
		return 2;
	}
	size_t base = (size_t)first & ~(size_t)4095;
	if (base) {
		char *p = mmap(NULL, base, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
		if (p == MAP_FAILED) {
			perror("grow_child: mmap");
			return 1;
		}
		for (size_t o = 0; o < base; o += 4096)
			p[o] = 1;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	double start = now();
	size_t done = 0;
	for (;;) {
		double t = now() - start;
		if (secs > 0 && t >= secs)
			break;
		size_t want = (size_t)(rate * t) & ~(size_t)4095;
		if (want > done) {
			char *p = mmap(NULL, want - done, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED) {
				perror("grow_child: mmap");
				return 1;
			}
			for (size_t o = 0; o < want - done; o += 4096)
				p[o] = 1;
			done = want;
		}
		usleep(100000);
	}
	printf("stopped\n");
	fflush(stdout);
	for (;;)
		pause();
}
