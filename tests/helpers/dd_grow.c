/* A process whose growth is known, for the drill-down's tests and benchmark. Built
 * with frame pointers.
 *
 *   dd_grow [PAGES [MMAPS [FILE]]]
 *	prints "ready PID" and waits for a line on stdin; then dd_reserve() calls mmap
 *	MMAPS times (default 100): once for PAGES pages (default 25600, 100 MiB) of
 *	anonymous memory, then for one page each time; dd_touch() writes one byte to each
 *	of the PAGES pages, so exactly PAGES page faults happen in it. With FILE, main()
 *	also maps FILE's first page and reads it. Prints "done ADDR" (the big mapping's
 *	address, hex), keeps everything mapped and waits for another line or end of
 *	input, then exits.
 *   dd_grow loop MIB [SECS]
 *	maps MIB MiB, touches every page, unmaps, over and over, printing the mean CPU
 *	time per page fault of each pass in ns (the thread's CPU clock, so that being
 *	preempted does not count); stops after SECS seconds (default: never).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static long page_size;

__attribute__((noinline)) static char *dd_reserve(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("dd_grow: mmap");
		exit(1);
	}
	return p;
}

__attribute__((noinline)) static void dd_touch(char *p, size_t pages)
{
	for (size_t i = 0; i < pages; i++)
		((volatile char *)p)[i * page_size] = 1;
}

static double now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int loop(size_t mib, double secs)
{
	size_t len = mib << 20, pages = len / page_size;
	double end = secs > 0 ? now_ns(CLOCK_MONOTONIC) + secs * 1e9 : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (!end || now_ns(CLOCK_MONOTONIC) < end) {
		char *p = dd_reserve(len);

		madvise(p, len, MADV_NOHUGEPAGE);
		double t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

		dd_touch(p, pages);
		printf("%.1f\n", (now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / pages);
		munmap(p, len);
	}
	return 0;
}

int main(int argc, char **argv)
{
	char line[64];

	page_size = sysconf(_SC_PAGESIZE);
	if (argc > 1 && !strcmp(argv[1], "loop"))
		return loop(argc > 2 ? strtoul(argv[2], NULL, 10) : 256,
			    argc > 3 ? strtod(argv[3], NULL) : 0);

	size_t pages = argc > 1 ? strtoul(argv[1], NULL, 10) : 25600;
	long mmaps = argc > 2 ? strtol(argv[2], NULL, 10) : 100;

	if (!pages || mmaps < 1) {
		fprintf(stderr, "usage: dd_grow [PAGES [MMAPS]] | dd_grow loop MIB [SECS]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready %d\n", (int)getpid());
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	char *big = dd_reserve(pages * page_size);

	madvise(big, pages * page_size, MADV_NOHUGEPAGE);
	for (long i = 1; i < mmaps; i++)
		dd_reserve(page_size);
	dd_touch(big, pages);
	if (argc > 3) {
		int fd = open(argv[3], O_RDONLY);
		char *f =
			fd < 0 ? MAP_FAILED : mmap(NULL, page_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (f == MAP_FAILED) {
			perror("dd_grow: mapping FILE");
			return 1;
		}
		(void)*(volatile char *)f;
	}
	printf("done %lx\n", (unsigned long)big);
	fgets(line, sizeof(line), stdin);
	return 0;
}
