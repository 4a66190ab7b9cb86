/* memtop --stacks PID[:SECS]: samples one process's stacks through the drill-down's
 * source, then prints them with the drill-down's text or JSON view. */
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

int stacks_cli_run(int32_t pid, double secs, bool json, bool no_bpf)
{
	pid = process_of(pid);
	struct drill *dr = drill_open(pid, no_bpf, STACKS_DEFAULT_RATE);
	bool utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	struct detail d;
	const char *off;
	int rc = 0;

	if (!dr) {
		fprintf(stderr, "memtop: no process %d\n", pid);
		return 1;
	}
	if ((off = drill_stacks_off(dr))) {
		fprintf(stderr, "memtop: stacks of process %d unavailable: %s\n", pid, off);
		drill_close(dr);
		return 1;
	}
	struct dd_breakdown last;

	stop_signals_catch(); /* the stacks sampled so far are printed */
	/* the last breakdown read stands in for the final one if the process exits */
	detail_init(&d);
	drill_collect(dr, &d);
	last = d.b;
	bool exited = sample(pid, secs, dr, &d, &last);

	if (drill_collect(dr, &d)) {
		exited = true;
		d.b = last;
	}
	d.gone = exited;
	if (json)
		detail_print_json(stdout, &d);
	else
		detail_print_text(stdout, &d, utf8);
	bool failed = output_failed(stdout, STDOUT_NAME);
	if (exited) {
		fprintf(stderr, "memtop: process %d exited after %.1f s of sampling\n", pid,
			d.st.seconds);
		rc = 1;
	} else if (stop_signal_caught()) {
		rc = 128 + stop_signal_caught();
	}
	if (failed)
		rc = 1;
	detail_clear(&d);
	drill_close(dr);
	return rc;
}
