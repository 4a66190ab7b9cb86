/* s and l as in htop: strace -p or lsof -p on a process, its output (stdout and stderr)
 * read by the loop from a pipe for the pager (ui/pager.c) while memtop keeps the terminal,
 * and the program stopped when the pager closes. */
#ifndef MEMTOP_TOOL_H
#define MEMTOP_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct tool {
	pid_t pid; /* the program (the leader of its own process group); 0: none */
	int fd;	   /* the read end of its output, non-blocking; -1 once it ended */
	char prog[16];
};

#define TOOL_NONE                                                                                  \
	{                                                                                          \
		.pid = 0, .fd = -1                                                                 \
	}

/* Runs prog (found on PATH) with "-p PID", its input /dev/null, its output into t->fd.
 * Returns 0, or -1 with a line saying why into msg (not installed, could not start). */
int tool_start(struct tool *t, const char *prog, int32_t pid, char *msg, size_t size);
/* What the program wrote since: > 0 bytes into buf; 0 at the end of its output (then
 * tool_stop says how it ended); -1 where nothing is there yet */
ssize_t tool_read(struct tool *t, char *buf, size_t size);
/* Ends the program if it still runs (SIGTERM to its group, SIGKILL where it outlives
 * that by two seconds), reaps it and closes its output; how it ended into how ("exited
 * 0", "ended by SIGTERM"), when how is not NULL. Nothing where none runs. */
void tool_stop(struct tool *t, char *how, size_t size);

#endif
