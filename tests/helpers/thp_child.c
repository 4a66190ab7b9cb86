/* thp_child MIB [MARKER...]
 * Maps MIB MiB of anonymous memory aligned to 2 MiB, asks for transparent huge pages on
 * it (madvise MADV_HUGEPAGE), touches every page, prints "ready PID" and sleeps until
 * killed. Further arguments are markers to find the process. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE (2ul << 20)

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: thp_child MIB [MARKER...]\n");
		return 2;
	}
	size_t bytes = (size_t)strtoul(argv[1], NULL, 10) << 20;
	/* one huge page more, to start the area at a 2 MiB boundary */
	char *p = mmap(NULL, bytes + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	if (p == MAP_FAILED) {
		perror("thp_child: mmap");
		return 1;
	}
	char *at = (char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	if (madvise(at, bytes, MADV_HUGEPAGE)) {
		perror("thp_child: madvise");
		return 1;
	}
	for (size_t i = 0; i < bytes; i += 4096)
		at[i] = 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
