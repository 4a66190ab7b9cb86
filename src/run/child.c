#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Under sudo, root runs the command as the user who ran sudo: what it writes is theirs,
 * and it runs as it would without memtop. 0, or -1 with errno. */
static int drop_to_sudo_user(void)
{
	const char *uid_s = getenv("SUDO_UID"), *gid_s = getenv("SUDO_GID");
	const char *user = getenv("SUDO_USER");
	char *end;
	long uid, gid;

	if (getuid() != 0 || !uid_s || !gid_s)
		return 0;
	errno = 0;
	uid = strtol(uid_s, &end, 10);
	if (errno || *end || end == uid_s || uid < 0 || uid > INT_MAX)
		return errno = EINVAL, -1;
	gid = strtol(gid_s, &end, 10);
	if (errno || *end || end == gid_s || gid < 0 || gid > INT_MAX)
		return errno = EINVAL, -1;
	if (user && *user ? initgroups(user, (gid_t)gid) : setgroups(0, NULL))
		return -1;
	if (setgid((gid_t)gid) || setuid((uid_t)uid))
		return -1;
	return 0;
}

static void in_child(int go, int err, char **argv)
{
	char b;
	int e;

	if (read(go, &b, 1) != 1) /* memtop gave up on it */
		_exit(127);
	if (!drop_to_sudo_user())
		execvp(argv[0], argv);
	e = errno;
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int child_start(struct child *c, char **argv)
{
	int go[2], err[2];

	memset(c, 0, sizeof(*c));
	if (pipe2(go, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
		fprintf(stderr, "memtop: cannot run %s: %s\n", argv[0], strerror(errno));
		return -1;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		fprintf(stderr, "memtop: cannot run %s: %s\n", argv[0], strerror(errno));
		close(go[0]), close(go[1]), close(err[0]), close(err[1]);
		return -1;
	}
	if (c->pid == 0) {
		close(go[1]);
		close(err[0]);
		in_child(go[0], err[1], argv);
	}
	close(go[0]);
	close(err[1]);
	c->go_fd = go[1];
	c->err_fd = err[0];
	return 0;
}

bool child_go(struct child *c)
{
	ssize_t n;
	int e = 0;

	if (write(c->go_fd, "g", 1) != 1)
		c->exec_errno = errno;
	close(c->go_fd);
	c->go_fd = -1;
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	if (n == (ssize_t)sizeof(e))
		c->exec_errno = e;
	return !c->exec_errno;
}

void child_abandon(struct child *c)
{
	if (c->go_fd >= 0)
		close(c->go_fd);
	if (c->err_fd >= 0)
		close(c->err_fd);
	c->go_fd = c->err_fd = -1;
	child_wait(c);
}

int child_wait(struct child *c)
{
	int st;

	while (waitpid(c->pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
}
