/* A program built without frame pointers, with asynchronous unwind tables (-O2
 * -fomit-frame-pointer -fasynchronous-unwind-tables, see the Makefile), whose growth
 * goes through six nested functions: its stacks can be unwound only with its CFI.
 *
 *   cfi_grow [PAGES [MMAPS]]
 *	prints "ready PID" and waits for a line on stdin; then cfi_one() .. cfi_six()
 *	call each other, and cfi_six() calls mmap MMAPS times (default 10): once for
 *	PAGES pages (default 25600), then for one page each time; the same chain then
 *	writes one byte to each of the PAGES pages in cfi_six(). Prints "done ADDR" and
 *	waits for another line or end of input, then exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static long page_size;
static volatile int sink;

/* Each function keeps a little of its own on the stack and does work after its call,
 * so that no call is a tail call and each has a frame of its own. */
#define LEVEL(name, next)                                                                          \
	__attribute__((noinline)) static char *name(char *p, size_t n, int map)                    \
	{                                                                                          \
		volatile int mine = (int)n;                                                        \
		char *r = next(p, n, map);                                                         \
		sink += mine;                                                                      \
		return r;                                                                          \
	}

__attribute__((noinline)) static char *cfi_six(char *p, size_t n, int map)
{
	if (map) {
		p = mmap(NULL, n * page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (p == MAP_FAILED) {
			perror("cfi_grow: mmap");
			exit(1);
		}
		return p;
	}
	for (size_t i = 0; i < n; i++)
		((volatile char *)p)[i * page_size] = 1;
	return p;
}

LEVEL(cfi_five, cfi_six)
LEVEL(cfi_four, cfi_five)
LEVEL(cfi_three, cfi_four)
LEVEL(cfi_two, cfi_three)
LEVEL(cfi_one, cfi_two)

int main(int argc, char **argv)
{
	char line[64];
	size_t pages = argc > 1 ? strtoul(argv[1], NULL, 10) : 25600;
	long mmaps = argc > 2 ? strtol(argv[2], NULL, 10) : 10;

	page_size = sysconf(_SC_PAGESIZE);
	if (!pages || mmaps < 1) {
		fprintf(stderr, "usage: cfi_grow [PAGES [MMAPS]]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready %d\n", (int)getpid());
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	char *big = cfi_one(NULL, pages, 1);

	madvise(big, pages * page_size, MADV_NOHUGEPAGE);
	for (long i = 1; i < mmaps; i++)
		cfi_one(NULL, 1, 1);
	cfi_one(big, pages, 0);
	printf("done %lx\n", (unsigned long)big);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	return sink == 12345;
}
