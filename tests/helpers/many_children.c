/* many_children N: forks N children that sleep, prints "ready N" once all are there, and
 * exits on SIGTERM, its children dying with it (PR_SET_PDEATHSIG). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	pid_t parent = getpid();

	for (long i = 0; i < n; i++) {
		pid_t c = fork();
		if (c < 0) {
			perror("fork");
			return 1;
		}
		if (c == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(0);
			for (;;)
				pause();
		}
	}
	printf("ready %ld\n", n);
	fflush(stdout);
	for (;;)
		pause();
}
