#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Who runs the command: under sudo, root runs it as the user who ran sudo, so that what
 * it writes is theirs and it runs as it would without memtop, with that user's HOME,
 * USER, LOGNAME and SHELL (their passwd entry's, read before the fork) */
struct runner {
	bool drop; /* under sudo: drop to uid and gid */
	int err;   /* SUDO_UID or SUDO_GID unreadable: EINVAL */
	uid_t uid;
	gid_t gid;
	const char *user; /* SUDO_USER, or NULL */
	bool found;	  /* the passwd entry of uid: */
	char name[256], home[PATH_MAX], shell[PATH_MAX];
};

static void sudo_user(struct runner *r)
{
	const char *uid_s = getenv("SUDO_UID"), *gid_s = getenv("SUDO_GID");
	char *end;
	long uid, gid;

	memset(r, 0, sizeof(*r));
	if (getuid() != 0 || !uid_s || !gid_s)
		return;
	r->drop = true;
	errno = 0;
	uid = strtol(uid_s, &end, 10);
	if (errno || *end || end == uid_s || uid < 0 || uid > INT_MAX) {
		r->err = EINVAL;
		return;
	}
	gid = strtol(gid_s, &end, 10);
	if (errno || *end || end == gid_s || gid < 0 || gid > INT_MAX) {
		r->err = EINVAL;
		return;
	}
	r->uid = (uid_t)uid;
	r->gid = (gid_t)gid;
	r->user = getenv("SUDO_USER");
	const struct passwd *pw = getpwuid(r->uid);
	if (pw) {
		r->found = true;
		snprintf(r->name, sizeof(r->name), "%s", pw->pw_name);
		snprintf(r->home, sizeof(r->home), "%s", pw->pw_dir);
		snprintf(r->shell, sizeof(r->shell), "%s", pw->pw_shell);
	}
}

/* A variable of the user's, or none where they have no value for it (never root's) */
static int set_or_unset(const char *name, const char *value)
{
	return value && *value ? setenv(name, value, 1) : unsetenv(name);
}

/* In the child: becomes the user sudo ran as, where under sudo. 0, or -1 with errno. */
static int drop_to_sudo_user(const struct runner *r)
{
	if (!r->drop)
		return 0;
	if (r->err)
		return errno = r->err, -1;
	if (r->user && *r->user ? initgroups(r->user, r->gid) : setgroups(0, NULL))
		return -1;
	if (setgid(r->gid) || setuid(r->uid))
		return -1;
	const char *name = r->found ? r->name : r->user;
	if (set_or_unset("HOME", r->found ? r->home : NULL) || set_or_unset("USER", name) ||
	    set_or_unset("LOGNAME", name) || set_or_unset("SHELL", r->found ? r->shell : NULL))
		return -1;
	return 0;
}

static void in_child(int go, int err, const struct runner *r, char **argv)
{
	char b;
	int e;

	if (read(go, &b, 1) != 1) /* memtop gave up on it */
		_exit(127);
	if (!drop_to_sudo_user(r))
		execvp(argv[0], argv);
	e = errno;
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int child_start(struct child *c, char **argv)
{
	int go[2], err[2];
	struct runner r;

	memset(c, 0, sizeof(*c));
	sudo_user(&r);
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
		in_child(go[0], err[1], &r, argv);
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
