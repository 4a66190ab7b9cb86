/* Helper for bench/procs.sh.
 *
 *   idle_procs spawn N      fork N children that sleep in pause(); print "ready K" (K children
 *                           really started) on stdout once all are there, then wait. On SIGTERM,
 *                           SIGINT or SIGHUP the parent kills its children and exits; the
 *                           children also die by themselves (PR_SET_PDEATHSIG) if the parent
 *                           is killed with SIGKILL, and the parent stops when its own parent
 *                           (the script) dies.
 *   idle_procs rusage CMD.. run CMD with stdout and stderr on /dev/null, wait for it and print
 *                           "utime_us stime_us maxrss_kb exit_status last_rss_kb" of that child
 *                           (wait4; last_rss_kb is VmRSS at the last 100 ms poll, or -1). */
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
	fprintf(stderr, "usage: idle_procs spawn N | idle_procs rusage CMD [ARGS...]\n");
	return 2;
}
