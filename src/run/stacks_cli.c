/* memtop --stacks PID[:SECS] and --stacks -- CMD ARGS...: samples one process's stacks
 * through the drill-down's source, then prints them with the drill-down's text, JSON or
 * folded view. */
#include "stacks_cli.h"

#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "detail_cli.h"
#include "pid_files.h"
#include "util.h"

/* Samples for secs, or until the process exits (true then). Once a second the drill
 * is collected into d, which drains the sampled fault addresses before their map fills
 * and keeps the module list current; *last keeps the latest breakdown. */
static bool sample(int32_t pid, double secs, struct drill *dr, struct detail *d,
		   struct dd_breakdown *last)
{
	double end = clock_mono() + secs, next = clock_mono() + 1;
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	bool exited = false;

	while (!stop_signal_caught() && !exited) {
		double now = clock_mono(), left = (end < next ? end : next) - now;

		if (now >= end)
			break;
		if (left <= 0) {
			next = now + 1;
			if (drill_collect(dr, d))
				exited = true;
			else
				*last = d->b;
			continue;
		}
		if (fd >= 0) {
			struct pollfd p = {.fd = fd, .events = POLLIN};

			exited = poll(&p, 1, (int)ceil(left * 1000)) > 0;
			continue;
		}
		if (kill(pid, 0) && errno == ESRCH)
			exited = true;
		struct timespec ts = {0, left < 0.1 ? (long)(left * 1e9) : 100000000L};

		nanosleep(&ts, NULL);
	}
	if (fd >= 0)
		close(fd);
	return exited;
}

/* A thread id stands for its process: the sampler follows a whole thread group. */
static int32_t process_of(int32_t pid)
{
	int32_t tgid;

	if (read_proc_tgid(pid, &tgid) || tgid == pid)
		return pid;
	fprintf(stderr, "memtop: %d is a thread of process %d: sampling the whole process %d\n",
		pid, tgid, tgid);
	return tgid;
}

static void print(const struct detail *d, enum stacks_out out)
{
	if (out == STACKS_OUT_JSON)
		detail_print_json(stdout, d);
	else if (out == STACKS_OUT_FOLDED)
		detail_print_folded(stdout, d);
	else
		detail_print_text(stdout, d, !strcmp(nl_langinfo(CODESET), "UTF-8"));
}

/* The drill on dr's process for secs (0: until it exits), then its stacks printed;
 * started (when not NULL) lets the process go once the sampler is attached. Returns
 * memtop's exit status; *exited tells whether the process exited. */
static int sample_and_print(struct drill *dr, int32_t pid, double secs, enum stacks_out out,
			    bool (*started)(void *), void *arg, bool *exited)
{
	struct dd_breakdown last;
	struct detail d;
	int rc = 0;

	stop_signals_catch(); /* the stacks sampled so far are printed */
	/* the last breakdown read stands in for the final one if the process exits */
	detail_init(&d);
	drill_collect(dr, &d);
	last = d.b;
	*exited = false;
	if (started && !started(arg)) {
		detail_clear(&d);
		return -1;
	}
	if (started && !drill_collect(dr, &d)) /* the command's now: its name, its maps */
		last = d.b;
	*exited = sample(pid, secs > 0 ? secs : 1e9, dr, &d, &last);
	if (drill_collect(dr, &d)) {
		*exited = true;
		d.b = last;
	}
	d.gone = *exited;
	print(&d, out);
	if (output_failed(stdout, STDOUT_NAME))
		rc = 1;
	else if (stop_signal_caught())
		rc = 128 + stop_signal_caught();
	if (*exited && !started)
		fprintf(stderr, "memtop: process %d exited after %.1f s of sampling\n", pid,
			d.st.seconds);
	detail_clear(&d);
	return rc;
}

static struct drill *open_drill(int32_t pid, bool no_bpf)
{
	struct drill *dr = drill_open(pid, no_bpf, STACKS_DEFAULT_RATE);
	const char *off;

	if (!dr) {
		fprintf(stderr, "memtop: no process %d\n", pid);
		return NULL;
	}
	if ((off = drill_stacks_off(dr))) {
		fprintf(stderr, "memtop: stacks of process %d unavailable: %s\n", pid, off);
		drill_close(dr);
		return NULL;
	}
	return dr;
}

int stacks_cli_run(int32_t pid, double secs, enum stacks_out out, bool no_bpf)
{
	struct drill *dr = open_drill(pid = process_of(pid), no_bpf);
	bool exited;
	int rc;

	if (!dr)
		return 1;
	rc = sample_and_print(dr, pid, secs, out, NULL, NULL, &exited);
	drill_close(dr);
	return rc ? rc : exited ? 1 : 0;
}

static bool let_go(void *arg)
{
	return child_go(arg);
}

int stacks_cli_command(char **argv, double secs, enum stacks_out out, bool no_bpf)
{
	struct child c;
	struct drill *dr;
	bool exited;
	int rc, status;

	if (child_start(&c, argv))
		return 127;
	if (!(dr = open_drill(c.pid, no_bpf))) {
		child_abandon(&c);
		return 1;
	}
	rc = sample_and_print(dr, c.pid, secs, out, let_go, &c, &exited);
	drill_close(dr);
	if (c.exec_errno) {
		fprintf(stderr, "memtop: cannot run %s: %s\n", argv[0], strerror(c.exec_errno));
		child_wait(&c);
		return 127;
	}
	status = child_wait(&c); /* past SECS, the command runs on to its end */
	return rc ? rc : status;
}
