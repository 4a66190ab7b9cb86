/* The actions' process part: oom_score_adj through the held process's /proc directory,
 * and SIGKILL to a cgroup's processes one pidfd at a time (act.h). */
#include "act.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pid_files.h"
#include "pidfd_sys.h"
#include "procfs.h"
#include "util.h"

/* Reads name under directory dfd into buf (NUL-ended): its length, -1 with errno */
static ssize_t read_at(int dfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	int e = errno;
	close(fd);
	errno = e;
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* The held process's /proc directory, opened by its pid and checked to be it: its start
 * time read through that directory (a directory of /proc stands for one process: where
 * it exits, reads through it fail, even once its pid is another's). -1 with ESRCH where
 * it is not the process held. */
static int proc_dir(const struct act_req *r)
{
	char path[32], buf[1024];
	struct pid_stat st;

	if (r->hold.gone ||
	    (r->hold.fd >= 0 && syscall(SYS_pidfd_send_signal, r->hold.fd, 0, NULL, 0) &&
	     errno == ESRCH)) {
		errno = ESRCH;
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/%d", (int)r->pid);
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		errno = errno == ENOENT ? ESRCH : errno;
		return -1;
	}
	if (read_at(dfd, "stat", buf, sizeof(buf)) <= 0 || parse_stat(buf, &st) ||
	    st.start_ticks != r->start) {
		close(dfd);
		errno = ESRCH;
		return -1;
	}
	return dfd;
}

int act_proc_adj_read(const struct act_req *r, int *adj)
{
	char buf[32], *end;
	int dfd = proc_dir(r);

	if (dfd < 0)
		return -1;
	ssize_t n = read_at(dfd, "oom_score_adj", buf, sizeof(buf));
	int e = errno;
	close(dfd);
	if (n <= 0) {
		errno = n < 0 && e != ENOENT ? e : ESRCH;
		return -1;
	}
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (errno || end == buf || v < -1000 || v > 1000) { /* not the kernel's: not acted on */
		errno = EINVAL;
		return -1;
	}
	*adj = (int)v;
	return 0;
}

int act_proc_adj_write(const struct act_req *r, int adj)
{
	char buf[16];
	int dfd = proc_dir(r);

	if (dfd < 0)
		return -1;
	int fd = openat(dfd, "oom_score_adj", O_WRONLY | O_CLOEXEC);
	int e = errno;
	close(dfd);
	if (fd < 0) {
		errno = e == ENOENT ? ESRCH : e;
		return -1;
	}
	int len = snprintf(buf, sizeof(buf), "%d", adj);
	ssize_t n = write(fd, buf, (size_t)len);
	e = errno;
	close(fd);
	errno = e;
	return n == len ? 0 : -1;
}

/* SIGKILL to pid, through a pidfd, where it is still in the cgroup at path once the pidfd
 * holds it (a pid reused by a process outside it is not signalled): 1 sent, 0 not */
static int kill_one(int32_t pid, int version, const char *path)
{
	char cg[ACT_PATH];
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0)
		return 0; /* exited (ESRCH), or no pidfds (ENOSYS: Linux 5.3): nothing sent */
	int sent = 0;
	if (!read_proc_cgroup(pid, version, cg, sizeof(cg)) && !strcmp(cg, path))
		sent = syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0) == 0;
	close(fd);
	return sent;
}

/* Whether pid is among the n of done */
static bool among(const int32_t *done, size_t n, int32_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (done[i] == pid)
			return true;
	return false;
}

int act_proc_kill_each(const char *procs_file, int version, const char *path)
{
	size_t cap = 1 << 20, n = 0, room = 256;
	char *text = xmalloc(cap);
	int32_t *done = xmalloc(room * sizeof(*done));

	/* again while new processes are listed (a fork between the read and the signals),
	 * a few rounds at most; each is signalled once */
	for (int round = 0; round < 4; round++) {
		if (read_file(procs_file, text, cap) < 0) {
			int e = errno;
			free(text);
			free(done);
			errno = e;
			return round ? (int)n : -1;
		}
		size_t before = n;
		for (char *p = text, *end; *p; p = end) {
			long pid = strtol(p, &end, 10);
			if (end == p)
				break;
			if (pid <= 0 || pid > INT32_MAX || pid == getpid() ||
			    among(done, n, (int32_t)pid) || !kill_one((int32_t)pid, version, path))
				continue;
			if (n == room)
				done = xrealloc(done, (room *= 2) * sizeof(*done));
			done[n++] = (int32_t)pid;
		}
		if (n == before)
			break;
	}
	free(text);
	free(done);
	return (int)n;
}
