/* two_paths [BIG [SMALL]]
 * Two call paths to one function: main -> path_big -> map_one calls mmap BIG times
 * (default 30), then main -> path_small -> map_one SMALL times (default 10), each for a
 * fresh anonymous page that map_one then touches. Prints "ready PID", waits for a line on
 * stdin, makes the calls, prints "done BIG SMALL" and exits at the end of stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* maps a page of its own and writes to it */
__attribute__((noinline)) static void map_one(void)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		abort();
	*(volatile char *)p = 1;
	__asm__ volatile("" ::: "memory"); /* no tail call: the caller stays on the stack */
}

__attribute__((noinline)) static void path_big(long n)
{
	for (long i = 0; i < n; i++)
		map_one();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void path_small(long n)
{
	for (long i = 0; i < n; i++)
		map_one();
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long big = argc > 1 ? strtol(argv[1], NULL, 10) : 30;
	long small = argc > 2 ? strtol(argv[2], NULL, 10) : 10;
	char line[64];

	if (big < 0 || small < 0) {
		fprintf(stderr, "usage: two_paths [BIG [SMALL]]\n");
		return 2;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	path_big(big);
	path_small(small);
	printf("done %ld %ld\n", big, small);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
