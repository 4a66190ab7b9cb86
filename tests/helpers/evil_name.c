/* evil_name [MARKER]: renames itself (comm) and re-executes itself with an argv[0] that
 * both hold terminal escape sequences, prints "ready PID" and sleeps until killed. */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define EVIL "\x1b[2J\x1b[31mEVIL"

int main(int argc, char **argv)
{
	if (strcmp(argv[0], EVIL "\x1b[0m-argv") != 0) {
		char *args[] = {EVIL "\x1b[0m-argv", argc > 1 ? argv[1] : NULL, NULL};
		execv("/proc/self/exe", args);
		perror("execv");
		return 1;
	}
	if (prctl(PR_SET_NAME, EVIL, 0, 0, 0))
		perror("prctl");
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
