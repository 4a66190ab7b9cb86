/* memtop --leaks PID[:SECS]: traces one process's allocations for a while, then prints
 * those still outstanding, grouped by stack, as text or JSON; where the process exits
 * first, those traced until then, and exits 1 saying so (as --stacks). */
#include "leaks_cli.h"

#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "leaks_text.h"
#include "leaks_trace.h"
#include "symbolize.h"
#include "text.h"
#include "util.h"

#define TEXT_STACKS 10
#define JSON_STACKS 200

struct report {
	int32_t pid;
	char comm[64];
	double secs;
	char libc[512]; /* the tracer's, kept past its close */
	const char *note;
	bool exited; /* during the window */
	struct leak_stack *s;
	size_t n;
	struct leaks_totals tot;
	struct symbolizer *sym;
	bool utf8;
};

/* Waits secs, or until the process exits (true then) or a stop signal comes */
static bool wait_window(int32_t pid, double secs)
{
	double end = clock_mono() + secs;
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	bool exited = false;

	while (!stop_signal_caught() && !exited) {
		double left = end - clock_mono();

		if (left <= 0)
			break;
		if (fd >= 0) {
			struct pollfd p = {.fd = fd, .events = POLLIN};

			exited = poll(&p, 1, (int)ceil(left * 1000)) > 0;
		} else {
			exited = kill(pid, 0) && errno == ESRCH;
			sleep_until(clock_mono() + (left < 0.1 ? left : 0.1));
		}
	}
	if (fd >= 0)
		close(fd);
	return exited;
}

/* A process, not a thread of one: 0, else a one-line reason */
static int check_pid(int32_t pid, char *why, size_t len)
{
	char path[64], buf[4096], *t;
	int tgid;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	/* a zombie has exited: nothing of it is left to trace */
	if (read_file(path, buf, sizeof(buf)) < 0 || strstr(buf, "\nState:\tZ")) {
		snprintf(why, len, "no process %d", pid);
		return -1;
	}
	if ((t = strstr(buf, "\nTgid:")) && sscanf(t + 6, "%d", &tgid) == 1 && tgid != pid) {
		snprintf(why, len, "%d is a thread of process %d: --leaks takes a process", pid,
			 tgid);
		return -1;
	}
	return 0;
}

static double total_bytes(const struct report *r)
{
	double b = 0;

	for (size_t i = 0; i < r->n; i++)
		b += r->s[i].bytes;
	return b;
}

static void frame_text(FILE *f, const struct report *r, const struct leak_stack *s, int i)
{
	struct sym_frame fr;
	char line[4096];

	symbolize_user(r->sym, s->user[i], i > 0 || s->first_is_call, &fr);
	leaks_frame_text(line, sizeof(line), fr.found, fr.symbol, fr.offset, fr.ip, fr.module,
			 r->utf8);
	fprintf(f, "%s\n", line);
}

static void print_text(FILE *f, const struct report *r)
{
	char line[4096];
	double all = total_bytes(r), more = 0;

	leaks_title_text(line, sizeof(line), r->pid, r->comm, r->secs, all, r->utf8);
	fprintf(f, "%s\n", line);
	leaks_traced_text(line, sizeof(line), r->libc, r->note, r->utf8);
	fprintf(f, "%s\n", line);
	leaks_sampled_text(line, sizeof(line));
	fprintf(f, "%s\n", line);
	leaks_seen_text(line, sizeof(line), &r->tot);
	fprintf(f, "%s\n", line);
	leaks_lost_text(line, sizeof(line), &r->tot);
	if (line[0])
		fprintf(f, "%s\n", line);
	for (size_t i = 0; i < r->n; i++) {
		const struct leak_stack *s = &r->s[i];

		if (i >= TEXT_STACKS) {
			more += s->bytes;
			continue;
		}
		leaks_stack_text(line, sizeof(line), i, s, r->secs, all);
		fprintf(f, "\n%s\n", line);
		if (!s->nuser)
			fprintf(f, "      (no user stack)\n");
		for (int k = 0, n = symbolizer_frames_shown(r->sym, s->user, s->nuser); k < n; k++)
			frame_text(f, r, s, k);
	}
	if (r->n > TEXT_STACKS) {
		leaks_more_text(line, sizeof(line), r->n - TEXT_STACKS, more);
		fprintf(f, "\n%s\n", line);
	}
}

static void frame_json(FILE *f, const struct report *r, const struct leak_stack *s, int i)
{
	struct sym_frame fr;

	symbolize_user(r->sym, s->user[i], i > 0 || s->first_is_call, &fr);
	fprintf(f, "%s{\"ip\":\"0x%llx\",\"symbol\":", i ? "," : "", (unsigned long long)fr.ip);
	json_string(f, fr.symbol);
	fprintf(f, ",\"offset\":%llu,\"module\":", (unsigned long long)fr.offset);
	json_string(f, fr.module);
	fputc('}', f);
}

static void print_json(FILE *f, const struct report *r)
{
	double all = total_bytes(r);

	fprintf(f, "{\"pid\":%d,\"comm\":", r->pid);
	json_string(f, r->comm);
	fprintf(f, ",\"seconds\":%.3f,\"exited\":%s,\"uprobes\":%s,\"libc\":", r->secs,
		r->exited ? "true" : "false", r->libc[0] ? "true" : "false");
	json_string(f, r->libc);
	fprintf(f, ",\"note\":");
	json_string(f, r->note);
	fprintf(f,
		",\"sample_bytes\":%d,\"bytes\":%.0f,\"bytes_per_s\":%.1f,\"allocs_seen\":%llu,"
		"\"alloc_bytes_seen\":%llu,\"recorded\":%llu,\"frees\":%llu,\"freed_recorded\":%"
		"llu,"
		"\"lost_stacks\":%llu,\"not_recorded_full\":%llu,\"more_stacks\":%zu,\"stacks\":[",
		LEAKS_SAMPLE_BYTES, all, r->secs > 0 ? all / r->secs : 0,
		(unsigned long long)r->tot.allocs, (unsigned long long)r->tot.alloc_bytes,
		(unsigned long long)r->tot.sampled, (unsigned long long)r->tot.frees,
		(unsigned long long)r->tot.freed, (unsigned long long)r->tot.lost_stacks,
		(unsigned long long)r->tot.full, r->n > JSON_STACKS ? r->n - JSON_STACKS : 0);
	for (size_t i = 0; i < r->n && i < JSON_STACKS; i++) {
		const struct leak_stack *s = &r->s[i];

		fprintf(f,
			"%s{\"kind\":\"%s\",\"bytes\":%.0f,\"bytes_per_s\":%.1f,\"count\":%.1f,"
			"\"samples\":%llu,\"estimated\":%s,\"oldest_s\":%.3f,\"frames\":[",
			i ? "," : "", leak_kind_names[s->kind], s->bytes,
			r->secs > 0 ? s->bytes / r->secs : 0, s->count,
			(unsigned long long)s->samples, s->estimated ? "true" : "false", s->oldest);
		for (int k = 0, n = symbolizer_frames_shown(r->sym, s->user, s->nuser); k < n; k++)
			frame_json(f, r, s, k);
		fputs("]}", f);
	}
	fputs("]}\n", f);
}

int leaks_cli_run(int32_t pid, double secs, bool json)
{
	char why[256], note[256];
	struct report r = {
		.pid = pid, .note = note, .utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8")};
	struct leaks *lk;
	int rc = 0;

	if (check_pid(pid, why, sizeof(why)) ||
	    !(lk = leaks_open(pid, why, sizeof(why), note, sizeof(note)))) {
		fprintf(stderr, "memtop: %s\n", why);
		return 1;
	}
	if (note[0])
		fprintf(stderr, "memtop: %s: only mmap and munmap are traced\n", note);
	snprintf(why, sizeof(why), "/proc/%d/comm", pid);
	if (read_file(why, r.comm, sizeof(r.comm)) > 0)
		r.comm[strcspn(r.comm, "\n")] = '\0';
	/* the modules read now, so that what was traced can be named after the process
	 * exits (read again at the end of a window it lived through) */
	if (!(r.sym = symbolizer_new(pid))) {
		fprintf(stderr, "memtop: no process %d\n", pid);
		leaks_close(lk);
		return 1;
	}
	stop_signals_catch(); /* what was traced so far is printed */
	double start = clock_mono();
	r.exited = wait_window(pid, secs);
	leaks_stop(lk); /* first: a wait for a CPU here stays inside the window */
	double end = clock_mono();

	r.secs = end - start;
	r.n = leaks_read(lk, start, end, &r.s, &r.tot);
	snprintf(r.libc, sizeof(r.libc), "%s", leaks_libc(lk));
	leaks_close(lk);
	if (!r.exited) /* its libraries opened meanwhile (the start's kept where it is gone) */
		(void)symbolizer_refresh(r.sym);
	if (json)
		print_json(stdout, &r);
	else
		print_text(stdout, &r);
	if (output_failed(stdout, STDOUT_NAME))
		rc = 1;
	else if (stop_signal_caught())
		rc = 128 + stop_signal_caught();
	if (r.exited) { /* as --stacks: what was seen is printed, and the exit said */
		fprintf(stderr, "memtop: process %d exited after %.1f s of tracing\n", pid, r.secs);
		rc = rc ? rc : 1;
	}
	symbolizer_free(r.sym);
	free(r.s);
	return rc;
}
