/* step_grow: grows in steps a test asks for. Prints "ready PID"; then for each line
 * "MIB" read on stdin maps and touches MIB MiB of fresh anonymous memory (kept, never
 * freed) and prints "touched TOTAL", TOTAL the MiB touched so far. Ends at the end of
 * its input, holding what it has until then. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	char line[64];
	long total = 0, page = sysconf(_SC_PAGESIZE);

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		long mib = strtol(line, NULL, 10);
		if (mib <= 0)
			continue;
		size_t len = (size_t)mib << 20;
		volatile char *p =
			mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("step_grow: mmap");
			return 1;
		}
		for (size_t off = 0; off < len; off += (size_t)page)
			p[off] = 1;
		total += mib;
		printf("touched %ld\n", total);
		fflush(stdout);
	}
	return 0;
}
