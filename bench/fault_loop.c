/* fault_loop [read] [MIB] [PASSES]: maps MIB MiB (default 1024) of fresh anonymous memory
 * PASSES times (default 5), writes one byte per page (with read: read()s /dev/zero into
 * it, so that the kernel takes the faults, in kernel mode), unmaps. Prints the median over passes
 * of the CPU time per page fault in ns, touching only: CPU time, so that time other tasks hold the
 * CPU is not counted. Huge pages are off so every page faults. fault_loop park MIB: writes MIB MiB,
 * pages them out to swap (MADV_PAGEOUT), prints "parked" and sleeps until killed, so that swap
 * holds pages while it lives. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static int park(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("fault_loop: mmap");
		return 1;
	}
	memset(p, 1, len);
	if (madvise(p, len, MADV_PAGEOUT)) {
		perror("fault_loop: madvise(MADV_PAGEOUT)");
		return 1;
	}
	printf("parked\n");
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "park"))
		return park(strtoull(argv[2], NULL, 10) << 20);

	bool by_read = argc > 1 && !strcmp(argv[1], "read");
	int zero = by_read ? open("/dev/zero", O_RDONLY) : -1;

	if (by_read) {
		argc--;
		argv++;
		if (zero < 0) {
			perror("fault_loop: /dev/zero");
			return 1;
		}
	}
	size_t len = (argc > 1 ? strtoull(argv[1], NULL, 10) : 1024) << 20;
	int passes = argc > 2 ? atoi(argv[2]) : 5;
	long page = sysconf(_SC_PAGESIZE);
	double per_fault[64];

	if (passes < 1 || passes > 64) {
		fprintf(stderr, "fault_loop: 1 to 64 passes\n");
		return 2;
	}

	for (int i = 0; i < passes; i++) {
		char *p =
			mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("fault_loop: mmap");
			return 1;
		}
		madvise(p, len, MADV_NOHUGEPAGE);
		double t0 = now_ns();
		for (size_t off = 0; off < len && by_read; off += 1 << 20)
			if (read(zero, p + off, len - off < (1 << 20) ? len - off : 1 << 20) < 0) {
				perror("fault_loop: read");
				return 1;
			}
		for (size_t off = 0; off < len && !by_read; off += page)
			((volatile char *)p)[off] = 1;
		per_fault[i] = (now_ns() - t0) / (len / page);
		munmap(p, len);
	}
	qsort(per_fault, passes, sizeof(double), cmp_double);
	printf("%.1f\n", passes % 2 ? per_fault[passes / 2]
				    : (per_fault[passes / 2 - 1] + per_fault[passes / 2]) / 2);
	return 0;
}
