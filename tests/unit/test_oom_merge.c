#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "oom_merge.h"
#include "unit.h"

/* A kernel log of our own: one record per read, non-blocking, as /dev/kmsg gives them. */
struct log {
	struct kmsg_reader *reader;
	int r, w; /* the reader's end, owned by it; the kernel's */
	unsigned seq;
};

static void log_new(struct log *l)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK, 0, sv), 0);
	l->reader = kmsg_open_fd(sv[0]);
	assert_non_null(l->reader);
	l->r = sv[0];
	l->w = sv[1];
	l->seq = 0;
}

static void log_record(struct log *l, const char *text)
{
	char rec[512];
	int n;

	l->seq++;
	n = snprintf(rec, sizeof(rec), "6,%u,%u000000,-;%s\n", l->seq, l->seq, text);
	assert_int_equal(send(l->w, rec, (size_t)n, MSG_NOSIGNAL), n);
}

/* An OOM report's last line: a kill the kernel logged */
static void log_kill(struct log *l, int pid)
{
	char text[256];

	snprintf(text, sizeof(text),
		 "Memory cgroup out of memory: Killed process %d (hog) total-vm:2048kB, "
		 "anon-rss:1024kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:8kB "
		 "oom_score_adj:0",
		 pid);
	log_record(l, text);
}

/* A kill the BPF program reported: the trigger only it knows */
static void bpf_kill(struct snapshot *s, int pid)
{
	struct mt_event *ev = snapshot_add_event(s);

	ev->type = MT_EV_OOM_KILL;
	ev->pid = pid;
	ev->trigger_pid = 1;
	snprintf(ev->comm, sizeof(ev->comm), "hog");
}

/* The pids of s->events, "pid*" for earlier ones, space separated */
static const char *pids(const struct snapshot *s)
{
	static char buf[256];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->nevents && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%d%s", i ? " " : "", s->events[i].pid,
			      s->events[i].earlier ? "*" : "");
	return buf;
}

/* With the BPF program on: the kills from before first, in the log's order, then the new
 * ones; a kill both reported is the BPF program's, once. The log is not read again. */
static void earlier_first_once(void **state)
{
	(void)state;
	struct log l;
	struct snapshot s;

	log_new(&l);
	log_kill(&l, 101);
	log_record(&l, "usb 1-1: new high-speed USB device number 2 using xhci_hcd");
	log_kill(&l, 102);
	log_kill(&l, 103); /* killed between attaching and reading the log */
	int r = dup(l.r);  /* the log stays open for the kill below */
	struct oom_merge *m = oom_merge_open(l.reader, false);
	assert_false(oom_merge_following(m));
	log_kill(&l, 104); /* not read: the BPF program reports kills from now on */

	snapshot_init(&s);
	bpf_kill(&s, 999); /* before first_new: another source's, left alone */
	bpf_kill(&s, 103);
	bpf_kill(&s, 105);
	oom_merge_collect(m, &s, 1);
	assert_string_equal(pids(&s), "999 101* 102* 103 105");
	assert_int_equal(s.events[3].trigger_pid, 1);
	assert_int_equal(s.events[1].anon_rss_kb, 1024);
	assert_int_equal(s.events[1].type, MT_EV_OOM_KILL);
	snapshot_free(&s);

	/* later refreshes: the new kills alone */
	snapshot_init(&s);
	bpf_kill(&s, 101);
	oom_merge_collect(m, &s, 0);
	assert_string_equal(pids(&s), "101");
	snapshot_free(&s);
	snapshot_init(&s);
	oom_merge_collect(m, &s, 0);
	assert_int_equal(s.nevents, 0);
	snapshot_free(&s);
	oom_merge_close(m);
	close(r);
	close(l.w);
}

/* Without the BPF program: the log is followed; each kill once, in its order. */
static void follows_the_log(void **state)
{
	(void)state;
	struct log l;
	struct snapshot s;

	log_new(&l);
	log_kill(&l, 201);
	log_kill(&l, 202);
	struct oom_merge *m = oom_merge_open(l.reader, true);
	assert_true(oom_merge_following(m));
	log_kill(&l, 203);
	log_kill(&l, 204);

	snapshot_init(&s);
	oom_merge_collect(m, &s, 0);
	assert_string_equal(pids(&s), "201* 202* 203 204");
	snapshot_free(&s);

	snapshot_init(&s);
	oom_merge_collect(m, &s, 0);
	assert_int_equal(s.nevents, 0);
	log_record(&l, "Out of memory: Killed process x (y) total-vm:1kB");
	log_kill(&l, 205);
	oom_merge_collect(m, &s, 0);
	assert_string_equal(pids(&s), "205");
	snapshot_free(&s);
	oom_merge_close(m);
	close(l.w);
}

/* Nothing anywhere: no events, and no copies of nothing (s.events is NULL). */
static void nothing_at_all(void **state)
{
	(void)state;
	struct log l;
	struct snapshot s;
	struct oom_merge *m = oom_merge_open(NULL, true);

	assert_false(oom_merge_following(m));
	snapshot_init(&s);
	oom_merge_collect(m, &s, 0);
	oom_merge_collect(m, &s, 0);
	assert_int_equal(s.nevents, 0);
	assert_null(s.events);
	oom_merge_close(m);

	/* a log without kills, BPF on: the first collect's kills as they came */
	log_new(&l);
	log_record(&l, "usb 1-1: new high-speed USB device number 2 using xhci_hcd");
	m = oom_merge_open(l.reader, false);
	oom_merge_collect(m, &s, 0);
	assert_null(s.events);
	oom_merge_close(m);
	close(l.w);

	/* kills from before only, none new */
	log_new(&l);
	log_kill(&l, 301);
	m = oom_merge_open(l.reader, false);
	oom_merge_collect(m, &s, 0);
	assert_string_equal(pids(&s), "301*");
	snapshot_free(&s);
	oom_merge_close(m);
	close(l.w);
}

UNIT_GROUP(oom_merge)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(earlier_first_once),
		cmocka_unit_test(follows_the_log),
		cmocka_unit_test(nothing_at_all),
	};
	return cmocka_run_group_tests_name("oom_merge", tests, NULL, NULL);
}
