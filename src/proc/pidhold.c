#include "pidhold.h"

#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pid_files.h"
#include "pidfd_sys.h"

static bool started_at(int32_t pid, uint64_t start)
{
	struct pid_stat st;

	return !read_proc_stat(pid, &st) && st.start_ticks == start;
}

int pid_hold_open(struct pid_hold *h, int32_t pid, uint64_t start, bool with_fd)
{
	*h = (struct pid_hold){.pid = pid, .start = start, .fd = -1};
	/* the pidfd first, the start time then: a process that took the pid before the
	 * pidfd was opened has another start time (ENOSYS, EMFILE: the check alone) */
	int fd = pid > 0 && with_fd ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
	if (pid <= 0 || !started_at(pid, start)) {
		if (fd >= 0)
			close(fd);
		h->gone = true;
		errno = ESRCH;
		return -1;
	}
	h->fd = fd;
	return 0;
}

int pid_hold_signal(const struct pid_hold *h, int sig)
{
	if (h->gone) {
		errno = ESRCH;
		return -1;
	}
	if (h->fd >= 0)
		return (int)syscall(SYS_pidfd_send_signal, h->fd, sig, NULL, 0);
	if (!started_at(h->pid, h->start)) {
		errno = ESRCH;
		return -1;
	}
	return kill(h->pid, sig);
}

void pid_hold_close(struct pid_hold *h)
{
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
}
