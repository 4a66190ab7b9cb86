/* bpf_hog MB [PASSES] [SLEEP_S]: touches MB MiB of anonymous memory PASSES times (default 1),
 * then sleeps SLEEP_S seconds (default 0). In a small memory cgroup the first pass gets
 * it OOM-killed, or, with swap, later passes swap pages back in. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bpf_hog MB [PASSES] [SLEEP_S]\n");
		return 2;
	}
	size_t len = strtoull(argv[1], NULL, 10) << 20;
	int passes = argc > 2 ? atoi(argv[2]) : 1;
	double sleep_s = argc > 3 ? atof(argv[3]) : 0;
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p =
		mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("bpf_hog: mmap");
		return 1;
	}
	for (int pass = 0; pass < passes; pass++)
		for (size_t off = 0; off < len; off += page)
			p[off] += 1;
	if (sleep_s > 0)
		usleep((useconds_t)(sleep_s * 1e6));
	return 0;
}
