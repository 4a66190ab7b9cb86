#include "run_tool.h"

#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* prog's path on PATH into path, or false */
static bool on_path(const char *prog, char *path, size_t size)
{
	const char *p = getenv("PATH");

	for (p = p ? p : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(path, size, "%.*s/%s", (int)n, n ? p : ".", prog);
		if (access(path, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* One key from the terminal, in its own mode (curses is suspended) */
static void wait_key(void)
{
	struct termios old, raw;
	char c;

	fputs("\n[memtop: press a key to return]", stdout);
	fflush(stdout);
	if (tcgetattr(STDIN_FILENO, &old) != 0)
		return;
	raw = old;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	while (read(STDIN_FILENO, &c, 1) < 0 && errno == EINTR)
		;
	tcsetattr(STDIN_FILENO, TCSANOW, &old);
}

int run_tool(const char *prog, int32_t pid, char *msg, size_t size)
{
	char path[PATH_MAX], arg[16];
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;

	if (!on_path(prog, path, sizeof(path))) {
		snprintf(msg, size, "%s is not installed (not on PATH)", prog);
		return -1;
	}
	snprintf(arg, sizeof(arg), "%d", pid);
	def_prog_mode();
	endwin();
	printf("memtop: %s -p %d (^C ends it)\n", prog, pid);
	fflush(stdout);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid_t child = fork();
	if (child == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execl(path, prog, "-p", arg, (char *)NULL);
		fprintf(stderr, "memtop: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	int status = 0, err = errno;
	if (child > 0)
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (child > 0)
		wait_key();
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
	if (child < 0) {
		snprintf(msg, size, "%s: %s", prog, strerror(err));
		return -1;
	}
	msg[0] = '\0';
	return 0;
}
