/* alloc_loop OPS WORK [wait]: a busy allocator for bench/leaks.sh. OPS times: malloc a
 * block of 16 to 1024 bytes (a fixed pseudo-random sequence), fill it, then WORK rounds
 * of arithmetic over it (the program's own work between allocations; 0: none, the worst
 * case for a tracer of malloc), and free a block allocated earlier (a pool of 4096 live
 * blocks, so that what is freed was not just allocated). Prints the CPU time per
 * operation in ns. With "wait": prints "ready" and starts on SIGUSR1 (once a tracer has
 * attached). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POOL 4096

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long ops = argc > 1 ? atol(argv[1]) : 1000000, work = argc > 2 ? atol(argv[2]) : 0;
	static unsigned char *pool[POOL];
	uint32_t x = 12345, sum = 0;

	if (argc > 3 && !strcmp(argv[3], "wait")) {
		sigset_t set;
		int sig;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		printf("ready\n");
		fflush(stdout);
		sigwait(&set, &sig);
	}
	double t0 = cpu_ns();

	for (long i = 0; i < ops; i++) {
		size_t n;
		unsigned char *p;

		x = x * 1103515245u + 12345u;
		n = 16 + (x >> 8) % 1009;
		if (!(p = malloc(n)))
			return 1;
		memset(p, (int)i, n);
		for (long w = 0; w < work; w++)
			sum = sum * 31 + p[(size_t)w % n];
		free(pool[i % POOL]);
		pool[i % POOL] = p;
	}
	double t1 = cpu_ns();

	printf("%.1f\n", (t1 - t0) / (double)ops);
	return sum == 42; /* keeps the work */
}
