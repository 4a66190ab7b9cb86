/* alloc_child MIB [FAULTS_PER_SEC] [MARKER...]
 * Maps and touches MIB MiB of anonymous memory, prints "ready PID" and sleeps until
 * killed. With FAULTS_PER_SEC > 0 it also takes about that many fresh minor page faults
 * per second (touching a scratch page, then dropping it with MADV_DONTNEED). Any further
 * arguments are ignored: tests use them as markers to find the process. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: alloc_child MIB [FAULTS_PER_SEC] [MARKER...]\n");
		return 2;
	}
	size_t bytes = (size_t)strtoul(argv[1], NULL, 10) << 20;
	long rate = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	long page = sysconf(_SC_PAGESIZE);
	if (bytes) {
		char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
		if (p == MAP_FAILED)
			die("mmap");
		for (size_t off = 0; off < bytes; off += (size_t)page)
			p[off] = 1;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (rate <= 0) {
		for (;;)
			pause();
	}
	/* 100 rounds a second, each faulting rate/100 pages (at least one) */
	long per_round = rate / 100 > 0 ? rate / 100 : 1;
	size_t len = (size_t)per_round * (size_t)page;
	char *s = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		die("mmap");
	double next = now();
	for (;;) {
		for (size_t off = 0; off < len; off += (size_t)page)
			s[off] = 1;
		if (madvise(s, len, MADV_DONTNEED))
			die("madvise");
		next += 0.01;
		double left = next - now();
		if (left > 0) {
			struct timespec ts = {0, (long)(left * 1e9)};
			nanosleep(&ts, NULL);
		}
	}
}
