/* leak_child [BYTES_PER_S [MMAP_BYTES_PER_S [SECS [KIN_BYTES_PER_S]]]]: leaks BYTES_PER_S
 * (default 1 MiB) a second from one call site, leak_site (malloc, 4 KiB at a time, never
 * freed), and allocates and frees as much from another, free_site (1 KiB at a time,
 * freed at once); with MMAP_BYTES_PER_S, also maps that much a second from mmap_site
 * (64 KiB mappings, never unmapped) and maps and unmaps as much from munmap_site; with
 * KIN_BYTES_PER_S, leaks that much a second from each of calloc_site, memalign_site
 * (posix_memalign), aligned_site (aligned_alloc) and realloc_site (1 KiB from
 * realloc(NULL), grown to 4 KiB by realloc), 4 KiB at a time. The amounts follow the
 * clock (what a late step missed, the next makes up), so the rates hold under load.
 * Prints "ready" once it has started; exits after SECS (default 300). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LEAK_CHUNK 4096
#define FREE_CHUNK 1024
#define MAP_CHUNK  65536

static void *volatile sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void leak_site(void)
{
	char *p = malloc(LEAK_CHUNK);

	memset(p, 1, LEAK_CHUNK);
	sink = p;
}

__attribute__((noinline)) static void free_site(void)
{
	char *p = malloc(FREE_CHUNK);

	memset(p, 2, FREE_CHUNK);
	sink = p;
	free(p);
}

__attribute__((noinline)) static void mmap_site(void)
{
	char *p = mmap(NULL, MAP_CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(1);
	p[0] = 1;
	sink = p;
}

__attribute__((noinline)) static void munmap_site(void)
{
	char *p = mmap(NULL, MAP_CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(1);
	p[0] = 2;
	munmap(p, MAP_CHUNK);
}

__attribute__((noinline)) static void calloc_site(void)
{
	sink = calloc(1, LEAK_CHUNK);
}

__attribute__((noinline)) static void memalign_site(void)
{
	void *p;

	if (posix_memalign(&p, 64, LEAK_CHUNK))
		exit(1);
	sink = p;
}

__attribute__((noinline)) static void aligned_site(void)
{
	sink = aligned_alloc(64, LEAK_CHUNK);
}

__attribute__((noinline)) static void realloc_site(void)
{
	/* glibc's realloc(NULL) calls malloc: a call inside a call */
	char *p = realloc(NULL, FREE_CHUNK);

	memset(p, 3, FREE_CHUNK);
	sink = realloc(p, LEAK_CHUNK);
}

int main(int argc, char **argv)
{
	double rate = argc > 1 ? atof(argv[1]) : 1048576, map_rate = argc > 2 ? atof(argv[2]) : 0;
	double secs = argc > 3 ? atof(argv[3]) : 300, start = now();
	double kin_rate = argc > 4 ? atof(argv[4]) : 0, kin = 0;
	double leaked = 0, freed = 0, mapped = 0, unmapped = 0;
	struct timespec step = {0, 5000000};

	printf("ready\n");
	fflush(stdout);
	for (double t = 0; t < secs; t = now() - start) {
		for (; leaked < t * rate; leaked += LEAK_CHUNK)
			leak_site();
		for (; freed < t * rate; freed += FREE_CHUNK)
			free_site();
		for (; mapped < t * map_rate; mapped += MAP_CHUNK)
			mmap_site();
		for (; unmapped < t * map_rate; unmapped += MAP_CHUNK)
			munmap_site();
		for (; kin < t * kin_rate; kin += LEAK_CHUNK) {
			calloc_site();
			memalign_site();
			aligned_site();
			realloc_site();
		}
		nanosleep(&step, NULL);
	}
	return 0;
}
