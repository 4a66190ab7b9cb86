/* many_stacks ROUNDS
 * 256 distinct call paths, outer_I -> inner_J -> map_touch (I, J in 0..15), each mapping
 * a fresh anonymous page, touching it and unmapping it: ROUNDS x 256 mmap and as many
 * munmap calls, a round taking every path once. Prints "ready PID", waits for a line on
 * stdin, then "done CALLS" (mmap calls made) and exits at the end of stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static long page;

__attribute__((noinline)) static void map_touch(void)
{
	volatile char *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("many_stacks: mmap");
		exit(1);
	}
	p[0] = 1;
	munmap((void *)p, (size_t)page);
	__asm__ volatile("" ::: "memory"); /* no tail call: the caller stays on the stack */
}

#define INNER(j)                                                                                   \
	__attribute__((noinline)) static void inner_##j(void)                                      \
	{                                                                                          \
		map_touch();                                                                       \
		__asm__ volatile("" ::: "memory");                                                 \
	}
#define OUTER(i)                                                                                   \
	__attribute__((noinline)) static void outer_##i(void (*in)(void))                          \
	{                                                                                          \
		in();                                                                              \
		__asm__ volatile("" ::: "memory");                                                 \
	}
#define SIXTEEN(M)                                                                                 \
	M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
SIXTEEN(INNER)
SIXTEEN(OUTER)
#define REF_INNER(j) inner_##j,
#define REF_OUTER(i) outer_##i,
static void (*const inners[16])(void) = {SIXTEEN(REF_INNER)};
static void (*const outers[16])(void (*)(void)) = {SIXTEEN(REF_OUTER)};

int main(int argc, char **argv)
{
	char line[64];
	long rounds;

	if (argc < 2 || (rounds = strtol(argv[1], NULL, 10)) < 1) {
		fprintf(stderr, "usage: many_stacks ROUNDS\n");
		return 2;
	}
	page = sysconf(_SC_PAGESIZE);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	for (long r = 0; r < rounds; r++)
		for (int i = 0; i < 16; i++)
			for (int j = 0; j < 16; j++)
				outers[i](inners[j]);
	printf("done %ld\n", rounds * 256);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
