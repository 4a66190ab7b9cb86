/* lock_child MIB [MARKER...]
 * Maps MIB MiB of anonymous memory, locks it in RAM with mlock (VmLck), prints "ready PID"
 * and sleeps until killed. Further arguments are markers to find the process. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: lock_child MIB [MARKER...]\n");
		return 2;
	}
	size_t bytes = (size_t)strtoul(argv[1], NULL, 10) << 20;
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mlock(p, bytes)) {
		perror("lock_child");
		return 1;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
