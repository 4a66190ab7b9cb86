/* exec_on_go CMD ARGS...
 * Prints "ready PID", waits for a line on stdin, then executes CMD (found in PATH) in
 * the same process: a sampler attached to PID before the line sees CMD from its first
 * instruction (the dynamic loader's). */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char line[64];

	if (argc < 2) {
		fprintf(stderr, "usage: exec_on_go CMD ARGS...\n");
		return 2;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	execvp(argv[1], argv + 1);
	perror("exec_on_go");
	return 127;
}
