/* Helper for bench/procs.sh and bench/peers.sh.
 *
 *   idle_procs spawn N      fork N children that sleep in pause(); print "ready K" (K children
 *                           really started) on stdout once all are there, then wait. On SIGTERM,
 *                           SIGINT or SIGHUP the parent kills its children and exits; the
 *                           children also die by themselves (PR_SET_PDEATHSIG) if the parent
 *                           is killed with SIGKILL, and the parent stops when its own parent
 *                           (the script) dies.
 *   idle_procs rusage CMD.. run CMD with stdout and stderr on /dev/null, wait for it and print
 *                           "utime_us stime_us maxrss_kb exit_status last_rss_kb" of that child
 *                           (wait4; last_rss_kb is VmRSS at the last 100 ms poll, or -1).
 *
 * The two below run in a tmux pane, CMD on the pane's terminal, and write their result to
 * OUT (written whole, then renamed into place, so a reader never sees half of it). CMD is
 * killed when the helper stops, however it stops (PR_SET_PDEATHSIG), and after 120 s.
 *
 *   idle_procs tty OUT R HALF_MS CMD..
 *                           run CMD and count its refreshes: a refresh ends where CMD falls
 *                           asleep (state S) and runs no CPU for HALF_MS (half its refresh
 *                           interval; /proc/PID/schedstat polled every 2 ms). R > 0: SIGKILL
 *                           CMD at its R-th refresh, asleep then; R = 0: wait until CMD exits.
 *                           OUT: "utime_us stime_us maxrss_kb exit_status last_rss_kb
 *                           refreshes wall_ms" of CMD, from wait4 as for rusage.
 *   idle_procs screen OUT CMD..
 *                           start CMD and capture the pane (tmux capture-pane -p) 5 ms
 *                           apart while CMD sleeps within 30 ms of a write to it, else
 *                           every 100 ms (/proc/PID/io and stat read each millisecond)
 *                           until it shows a table: a line of column titles starting with
 *                           PID and USER, and below it a line starting with a number (each
 *                           of the SCREEN_ROWS lines below it, where that is set). OUT:
 *                           "ms polls run_ms wait_ms": milliseconds from just before the fork
 *                           of CMD until the end of the capture that first showed the table
 *                           (the time to the first screen, one capture late), the
 *                           captures taken, and the CPU time CMD had run by then and had spent
 *                           runnable waiting for a CPU (/proc/PID/task/TID/schedstat);
 *                           "-1 polls 0 0" if CMD exited or 30 s went by first. Then CMD is
 *                           killed. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t *kids;
static long nkids;
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void kill_kids(void)
{
	for (long i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
}

static int spawn(long n)
{
	pid_t parent = getpid();
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	/* block the stop signals while forking, so a stop never comes between fork and the
	 * bookkeeping; the children unblock them */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	/* a script killed with SIGKILL runs no trap: then stop with it */
	pid_t script = getppid();
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != script)
		return 1;
	kids = calloc((size_t)n, sizeof(*kids));
	if (!kids)
		return 1;
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "idle_procs: fork %ld: %s\n", i, strerror(errno));
			break;
		}
		if (pid == 0) {
			signal(SIGTERM, SIG_DFL);
			signal(SIGINT, SIG_DFL);
			signal(SIGHUP, SIG_DFL);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(0);
			sigprocmask(SIG_SETMASK, &old, NULL);
			for (;;)
				pause();
		}
		kids[nkids++] = pid;
	}
	printf("ready %ld\n", nkids);
	fflush(stdout);
	/* wait for a stop signal */
	sigset_t waitset = old;
	sigdelset(&waitset, SIGTERM);
	sigdelset(&waitset, SIGINT);
	sigdelset(&waitset, SIGHUP);
	while (!stop)
		sigsuspend(&waitset);
	kill_kids();
	return 0;
}

/* VmRSS of pid in kB, or -1 */
static long vm_rss(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kb = strtol(line + 6, NULL, 10);
	fclose(f);
	return kb;
}

static int rusage_run(char **argv)
{
	pid_t pid = fork();
	if (pid < 0) {
		perror("idle_procs: fork");
		return 1;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	/* poll every 100 ms: the last VmRSS seen is the resident size near the end of the run,
	 * which ru_maxrss (the peak, start-up included) does not tell */
	int status;
	struct rusage ru;
	long last_rss = -1;
	const struct timespec tick = {0, 100 * 1000 * 1000};
	for (;;) {
		pid_t r = wait4(pid, &status, WNOHANG, &ru);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			perror("idle_procs: wait4");
			return 1;
		}
		if (r == 0) {
			long kb = vm_rss(pid);
			if (kb > 0)
				last_rss = kb;
			nanosleep(&tick, NULL);
		}
	}
	printf("%lld %lld %ld %d %ld\n",
	       (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
	       (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec, ru.ru_maxrss,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), last_rss);
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* sleeps ms milliseconds, less if a stop signal comes */
static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, ms % 1000 * 1000000L};
	while (nanosleep(&ts, &ts) && errno == EINTR && !stop)
		;
}

/* reads path into buf (at most size - 1 bytes, terminated); returns the length or -1 */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* CPU time pid has run, in ns (the first field of /proc/PID/schedstat), or -1 */
static long long run_ns(pid_t pid)
{
	char path[64], buf[128];
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	return read_small(path, buf, sizeof(buf)) > 0 ? strtoll(buf, NULL, 10) : -1;
}

/* bytes pid has written (wchar of /proc/PID/io), or -1 */
static long long written(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	const char *p = strstr(buf, "wchar:");
	return p ? strtoll(p + 6, NULL, 10) : -1;
}

/* CPU time pid's threads have run and waited on a run queue for a CPU, in ns (the first two
 * fields of /proc/PID/task/TID/schedstat, added up); 0 if unreadable */
static void run_wait_ns(pid_t pid, long long *run, long long *wait)
{
	char path[64], buf[128];
	*run = *wait = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/schedstat", (int)pid, e->d_name);
		long long r, w;
		if (read_small(path, buf, sizeof(buf)) > 0 &&
		    sscanf(buf, "%lld %lld", &r, &w) == 2) {
			*run += r;
			*wait += w;
		}
	}
	closedir(d);
}

/* the state letter of pid (/proc/PID/stat: R running, S asleep...), or 0 */
static char proc_state(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return 0;
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* stops on SIGTERM, SIGINT and SIGHUP (tmux sends SIGHUP when its server is killed) */
static void catch_stops(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* forks and execs argv on this terminal; the child dies with this process */
static pid_t start_cmd(char **argv)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		perror("idle_procs: fork");
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* writes text to path whole: to path.tmp first, then renamed */
static int write_out(const char *path, const char *text)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
		perror("idle_procs: writing the result");
		return 1;
	}
	return 0;
}

static int tty_run(const char *out, long want, long half_ms, char **argv)
{
	catch_stops();
	double t0 = now_ms(), quiet_since = t0, rss_at = 0;
	pid_t pid = start_cmd(argv);
	if (pid < 0)
		return 1;
	long long last_ns = -2;
	long refreshes = 0, last_rss = -1;
	int counted = 0, status = 0, killed = 0;
	struct rusage ru;
	for (;;) {
		pid_t r = wait4(pid, &status, killed ? 0 : WNOHANG, &ru);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			perror("idle_procs: wait4");
			return 1;
		}
		if (killed || r < 0)
			continue;
		double t = now_ms();
		if (stop || t - t0 > 120000) {
			kill(pid, SIGKILL);
			killed = 1;
			continue;
		}
		long long ns = run_ns(pid);
		if (ns != last_ns) {
			last_ns = ns;
			quiet_since = t;
			counted = 0;
		} else if (!counted && t - quiet_since >= (double)half_ms &&
			   proc_state(pid) == 'S') {
			/* asleep after a refresh: the end of one */
			counted = 1;
			refreshes++;
		}
		if (t - rss_at >= 100 || (counted && want && refreshes >= want)) {
			long kb = vm_rss(pid);
			if (kb > 0)
				last_rss = kb;
			rss_at = t;
		}
		if (want && refreshes >= want) {
			kill(pid, SIGKILL);
			killed = 1;
			continue;
		}
		sleep_ms(2);
	}
	char text[256];
	snprintf(text, sizeof(text), "%lld %lld %ld %d %ld %ld %.0f\n",
		 (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
		 (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec, ru.ru_maxrss,
		 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), last_rss,
		 refreshes, now_ms() - t0);
	return write_out(out, text) || stop;
}

/* the text of the pane (tmux capture-pane -p) into buf; returns its length or -1 */
static ssize_t capture(const char *pane, char *buf, size_t size)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fds[1], 1);
		if (fd >= 0)
			dup2(fd, 2);
		close(fds[0]);
		close(fds[1]);
		execlp("tmux", "tmux", "capture-pane", "-p", "-t", pane, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	size_t len = 0;
	for (;;) {
		char sink[4096];
		int full = len >= size - 1;
		ssize_t n = full ? read(fds[0], sink, sizeof(sink))
				 : read(fds[0], buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR && !stop)
			continue;
		if (n <= 0)
			break;
		if (!full)
			len += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	buf[len] = 0;
	return (ssize_t)len;
}

/* whether text shows a table: a line of titles starting PID USER, a number on the next line
 * (on each of the next SCREEN_ROWS lines where that is set in the environment) */
static int shows_table(const char *text)
{
	const char *env = getenv("SCREEN_ROWS");
	long rows = env ? strtol(env, NULL, 10) : 1;

	for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		while (*p == ' ')
			p++;
		if (strncmp(p, "PID ", 4))
			continue;
		p += 4;
		while (*p == ' ')
			p++;
		if (strncmp(p, "USER ", 5))
			continue;
		for (long r = 0; r < (rows > 1 ? rows : 1); r++) {
			const char *next = strchr(p, '\n');
			if (!next)
				return 0;
			next++;
			while (*next == ' ')
				next++;
			if (!isdigit((unsigned char)*next))
				return 0;
			p = next;
		}
		return 1;
	}
	return 0;
}

static int screen_run(const char *out, char **argv)
{
	const char *pane = getenv("TMUX_PANE");
	if (!pane || !getenv("TMUX")) {
		fprintf(stderr, "idle_procs screen: not in a tmux pane\n");
		return 2;
	}
	catch_stops();
	static char text[1 << 16];
	double t0 = now_ms(), found = -1;
	pid_t pid = start_cmd(argv);
	if (pid < 0)
		return 1;
	long polls = 0;
	long long run = 0, wait = 0, seen = -2;
	double captured = t0, wrote = t0;
	while (!stop && now_ms() - t0 < 30000) {
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			pid = 0;
			break;
		}
		/* a capture is a tmux client started, which takes a CPU: taken 5 ms apart while
		 * CMD sleeps (done drawing, as far as it goes) within 30 ms of its last write
		 * to the terminal (the server draws it meanwhile), else every 100 ms, so that
		 * the captures do not take the CPUs CMD works on */
		long long w = written(pid);
		double now = now_ms();
		if (w != seen) {
			seen = w;
			wrote = now;
		}
		double due = now - wrote <= 30 && proc_state(pid) == 'S' ? 5 : 100;
		if (now - captured < due) {
			sleep_ms(1);
			continue;
		}
		ssize_t n = capture(pane, text, sizeof(text));
		captured = now_ms();
		polls++;
		if (n > 0 && shows_table(text)) {
			found = captured - t0;
			run_wait_ns(pid, &run, &wait);
			break;
		}
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	char line[128];
	snprintf(line, sizeof(line), "%.1f %ld %.1f %.1f\n", found, polls, (double)run / 1e6,
		 (double)wait / 1e6);
	return write_out(out, line) || stop;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "spawn")) {
		long n = strtol(argv[2], NULL, 10);
		if (n < 1 || n > 30000) {
			fprintf(stderr, "idle_procs: N between 1 and 30000\n");
			return 2;
		}
		return spawn(n);
	}
	if (argc >= 3 && !strcmp(argv[1], "rusage"))
		return rusage_run(argv + 2);
	if (argc >= 6 && !strcmp(argv[1], "tty"))
		return tty_run(argv[2], strtol(argv[3], NULL, 10), strtol(argv[4], NULL, 10),
			       argv + 5);
	if (argc >= 4 && !strcmp(argv[1], "screen"))
		return screen_run(argv[2], argv + 3);
	fprintf(stderr, "usage: idle_procs spawn N | idle_procs rusage CMD [ARGS...] |\n"
			"       idle_procs tty OUT R HALF_MS CMD [ARGS...] |\n"
			"       idle_procs screen OUT CMD [ARGS...]\n");
	return 2;
}
