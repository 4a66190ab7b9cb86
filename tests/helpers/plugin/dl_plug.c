/* The shared object tests/helpers/dl_host.c loads with dlopen: plug_touch maps pages,
 * touches each in plug_inner and unmaps them (built with frame pointers and -g). */
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) void plug_inner(volatile char *p, long pages, long page)
{
	for (long i = 0; i < pages; i++)
		p[i * page] = 1;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) int plug_touch(long pages)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	plug_inner(p, pages, page);
	munmap(p, (size_t)(pages * page));
	__asm__ volatile("" ::: "memory");
	return 0;
}
