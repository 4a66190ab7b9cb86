/* dd_grow's protocol from a program built without frame pointers (-O2
 * -fomit-frame-pointer, see the Makefile) that, like many such programs, keeps data
 * in the frame-pointer register: when it faults and when it calls mmap, %rbp points at
 * words on its stack that are not addresses. A frame-pointer walk from there reads
 * them as return addresses: JUNK_TEXT ^ n (text, "W9xsaIv6", different for every call,
 * n < 256), then JUNK_SMALL, then stops (JUNK_TEXT is no user address).
 *
 *   junk_grow [PAGES [MMAPS]]
 *	prints "ready PID" and waits for a line on stdin; then junk_map() calls mmap
 *	MMAPS times (default 100): once for PAGES pages (default 25600), then for one
 *	page each time; junk_touch() writes one byte to each of the PAGES pages, in 100
 *	runs with different junk. Prints "done ADDR" (the big mapping's address, hex),
 *	keeps everything mapped and waits for another line or end of input, then exits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define JUNK_TEXT  0x3676496173783957ULL
#define JUNK_SMALL 0x3dULL
#define RUNS	   100

static long page_size;

/* A leaf: no frame of its own, %rbp left as its caller set it. */
__attribute__((noinline)) static void junk_touch(char *p, size_t pages)
{
	for (size_t i = 0; i < pages; i++)
		((volatile char *)p)[i * page_size] = 1;
}

__attribute__((noinline)) static char *junk_map(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("junk_grow: mmap");
		exit(1);
	}
	return p;
}

#if defined(__x86_64__)
/* Plants two frames of junk, linked as a walk reads them ({next, return address}
 * pairs), and points %rbp at them while call runs. */
#define WITH_JUNK(n, call)                                                                         \
	do {                                                                                       \
		volatile uint64_t junk[6];                                                         \
		junk[0] = (uint64_t)(uintptr_t)&junk[2];                                           \
		junk[1] = JUNK_TEXT ^ (uint64_t)(n);                                               \
		junk[2] = (uint64_t)(uintptr_t)&junk[4];                                           \
		junk[3] = JUNK_SMALL;                                                              \
		junk[4] = JUNK_TEXT;                                                               \
		junk[5] = JUNK_TEXT;                                                               \
		register volatile uint64_t *fp asm("rbp") = junk;                                  \
		asm volatile("" : "+r"(fp)::"memory");                                             \
		call;                                                                              \
		asm volatile("" ::"r"(fp) : "memory");                                             \
	} while (0)
#else
#define WITH_JUNK(n, call) call
#endif

__attribute__((noinline)) static char *junk_reserve(size_t len, unsigned n)
{
	char *p;

	WITH_JUNK(n, p = junk_map(len));
	return p;
}

__attribute__((noinline)) static void junk_fault(char *p, size_t pages, unsigned n)
{
	WITH_JUNK(n, junk_touch(p, pages));
}

int main(int argc, char **argv)
{
	char line[64];

	page_size = sysconf(_SC_PAGESIZE);
	size_t pages = argc > 1 ? strtoul(argv[1], NULL, 10) : 25600;
	long mmaps = argc > 2 ? strtol(argv[2], NULL, 10) : 100;

	if (pages < RUNS || mmaps < 1) {
		fprintf(stderr, "usage: junk_grow [PAGES [MMAPS]] (PAGES >= %d)\n", RUNS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready %d\n", (int)getpid());
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	char *big = junk_reserve(pages * page_size, 0);

	madvise(big, pages * page_size, MADV_NOHUGEPAGE);
	for (long i = 1; i < mmaps; i++)
		junk_reserve(page_size, (unsigned)(i & 0xff));
	for (size_t run = 0, done = 0; run < RUNS; run++) {
		size_t n = (pages - done) / (RUNS - run);

		junk_fault(big + done * page_size, n, (unsigned)run);
		done += n;
	}
	printf("done %lx\n", (unsigned long)big);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	return 0;
}
