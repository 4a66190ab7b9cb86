#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* prog's path on PATH into path, or false */
static bool on_path(const char *prog, char *path, size_t size)
{
	const char *p = getenv("PATH");

	for (p = p ? p : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		/* an empty entry (the current directory) is not searched: memtop runs as root */
		snprintf(path, size, "%.*s/%s", (int)n, p, prog);
		if (n && p[0] == '/' && access(path, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* In the child: its own process group (the terminal's ^C is memtop's), no terminal input,
 * both outputs into the pipe, the signals memtop catches back to their defaults */
static void child_exec(const char *path, const char *prog, const char *arg, int out)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	setpgid(0, 0);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
	    dup2(out, STDERR_FILENO) < 0)
		_exit(127);
	execl(path, prog, "-p", arg, (char *)NULL);
	static const char failed[] = "memtop: the program could not be started\n";
	ssize_t w = write(STDERR_FILENO, failed, sizeof(failed) - 1); /* safe after fork */
	(void)w;
	_exit(127);
}

int tool_start(struct tool *t, const char *prog, int32_t pid, char *msg, size_t size)
{
	char path[PATH_MAX], arg[16];
	int p[2];

	*t = (struct tool)TOOL_NONE;
	if (!on_path(prog, path, sizeof(path))) {
		snprintf(msg, size, "%s is not installed (not on PATH)", prog);
		return -1;
	}
	if (pipe2(p, O_CLOEXEC) != 0) {
		snprintf(msg, size, "%s: pipe: %s", prog, strerror(errno));
		return -1;
	}
	snprintf(arg, sizeof(arg), "%d", pid);
	pid_t child = fork();
	if (child == 0)
		child_exec(path, prog, arg, p[1]);
	int err = errno;
	close(p[1]);
	if (child < 0) {
		close(p[0]);
		snprintf(msg, size, "%s: %s", prog, strerror(err));
		return -1;
	}
	setpgid(child, child); /* as the child does: so before either goes on */
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	t->pid = child;
	t->fd = p[0];
	snprintf(t->prog, sizeof(t->prog), "%s", prog);
	msg[0] = '\0';
	return 0;
}

ssize_t tool_read(struct tool *t, char *buf, size_t size)
{
	if (t->fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(t->fd, buf, size);
		if (n > 0)
			return n;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return -1;
		close(t->fd); /* the end, or an error that is as much */
		t->fd = -1;
		return 0;
	}
}

/* Waits up to ms for the child's end (through a pidfd; without one, not at all): whether
 * it ended */
static bool ends_within(pid_t pid, int ms)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		return false;
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int rc;
	while ((rc = poll(&p, 1, ms)) < 0 && errno == EINTR)
		;
	close(fd);
	return rc == 1;
}

void tool_stop(struct tool *t, char *how, size_t size)
{
	bool ended = t->fd < 0; /* its output did: it is exiting */
	int st = 0;
	pid_t rc;

	if (t->pid <= 0)
		return;
	while ((rc = waitpid(t->pid, &st, WNOHANG)) < 0 && errno == EINTR)
		;
	if (rc == 0 && ended && ends_within(t->pid, 2000))
		rc = -1;    /* reaped below */
	else if (rc == 0) { /* it runs: ended now (strace detaches), its group with it */
		kill(-t->pid, SIGTERM);
		if (!ends_within(t->pid, 2000))
			kill(-t->pid, SIGKILL);
	}
	if (rc <= 0)
		while ((rc = waitpid(t->pid, &st, 0)) < 0 && errno == EINTR)
			;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (how && rc == t->pid && WIFSIGNALED(st))
		snprintf(how, size, "ended by signal %d", WTERMSIG(st));
	else if (how && rc == t->pid)
		snprintf(how, size, "exited %d", WEXITSTATUS(st));
	else if (how)
		snprintf(how, size, "ended");
	t->pid = 0;
}
