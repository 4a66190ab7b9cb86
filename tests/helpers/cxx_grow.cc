/* dd_grow's protocol, in C++: the drill-down's stacks must show demangled names.
 * Built with frame pointers.
 *
 *   cxx_grow [PAGES [MMAPS]]
 *	prints "ready PID" and waits for a line on stdin; then
 *	memtop_test::Grower::reserve(unsigned long) calls mmap MMAPS times (default 10):
 *	once for PAGES pages (default 2560), then for one page each time; and
 *	memtop_test::Grower::touch(char*, unsigned long) writes one byte to each of the
 *	PAGES pages. Prints "done ADDR" (hex), keeps everything mapped and waits for
 *	another line or end of input, then exits. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

namespace memtop_test
{

struct Grower {
	long page;
	__attribute__((noinline)) char *reserve(unsigned long len);
	__attribute__((noinline)) void touch(char *p, unsigned long pages);
};

char *Grower::reserve(unsigned long len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("cxx_grow: mmap");
		exit(1);
	}
	return static_cast<char *>(p);
}

void Grower::touch(char *p, unsigned long pages)
{
	for (unsigned long i = 0; i < pages; i++)
		static_cast<volatile char *>(p)[i * page] = 1;
}

} // namespace memtop_test

int main(int argc, char **argv)
{
	unsigned long pages = argc > 1 ? strtoul(argv[1], NULL, 10) : 2560;
	unsigned long mmaps = argc > 2 ? strtoul(argv[2], NULL, 10) : 10;
	memtop_test::Grower g = {sysconf(_SC_PAGESIZE)};
	char line[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready %d\n", (int)getpid());
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	char *big = g.reserve(pages * g.page);
	for (unsigned long i = 1; i < mmaps; i++)
		g.reserve(g.page);
	g.touch(big, pages);
	printf("done %lx\n", (unsigned long)big);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	return 0;
}
