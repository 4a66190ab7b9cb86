/* A process held for a signal (the main screen's k, the tagged processes): a pidfd
 * (pidfd_open(2), Linux 5.3) opened once the pid's start time was checked to be the one
 * memtop showed, so that the signal reaches that process or none, never one that took
 * its pid after it exited. Without a pidfd (an older kernel, or past the caller's budget
 * of descriptors) the start time is checked again just before kill(2). */
#ifndef MEMTOP_PIDHOLD_H
#define MEMTOP_PIDHOLD_H

#include <stdbool.h>
#include <stdint.h>

struct pid_hold {
	int32_t pid;
	uint64_t start; /* clock ticks after boot (/proc/PID/stat field 22) */
	int fd;		/* its pidfd, or -1 */
	bool gone;	/* it had exited when it was held */
};

/* Holds pid if it is still the process started at start, through a pidfd where with_fd
 * and the kernel allow. Returns 0; -1 with errno ESRCH where it has exited (a signal
 * through h then says so too). */
int pid_hold_open(struct pid_hold *h, int32_t pid, uint64_t start, bool with_fd);
/* Sends sig to the held process: 0; -1 with errno, ESRCH where it has exited */
int pid_hold_signal(const struct pid_hold *h, int sig);
/* Closes its pidfd, if it has one */
void pid_hold_close(struct pid_hold *h);

#endif
