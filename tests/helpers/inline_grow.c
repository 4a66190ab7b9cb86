/* inline_grow PAGES [IGNORED]
 * Built with -g: faults PAGES fresh anonymous pages in fill(), a function inlined
 * (always_inline) into touch_pages(), called from main. Prints "ready PID", waits for
 * "go" on stdin, then "done", and exits at the end of stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static inline __attribute__((always_inline)) void fill(volatile char *p, long pages, long page)
{
	for (long i = 0; i < pages; i++)
		p[i * page] = 1; /* the fault */
}

__attribute__((noinline)) static void touch_pages(long pages)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("inline_grow: mmap");
		exit(1);
	}
	fill(p, pages, page);
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	char line[64];
	long pages = argc > 1 ? strtol(argv[1], NULL, 10) : 0;

	if (pages < 1) {
		fprintf(stderr, "usage: inline_grow PAGES\n");
		return 2;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	touch_pages(pages);
	printf("done 0\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
