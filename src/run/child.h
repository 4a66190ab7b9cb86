/* A command memtop starts and holds at its start: forked, it waits until memtop has
 * attached what it needs (--stacks -- CMD: the sampler) and lets it go; then it
 * executes the command, as $SUDO_USER when memtop runs as root under sudo. */
#ifndef MEMTOP_CHILD_H
#define MEMTOP_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

struct child {
	pid_t pid;
	int go_fd;	/* written to let it go */
	int err_fd;	/* the errno of a failed exec, or end of file once it executed */
	int exec_errno; /* 0, or why the command could not be run */
};

/* Forks; the child waits. 0, or -1 with a one-line message on stderr. */
int child_start(struct child *c, char **argv);
/* Lets the child execute argv; false (c->exec_errno set) when it could not. */
bool child_go(struct child *c);
/* Ends a child that was never let go, and reaps it. */
void child_abandon(struct child *c);
/* Waits for the child's end: its exit status, or 128 + the signal that ended it. */
int child_wait(struct child *c);

#endif
