#include <string.h>

#include "kmsg.h"
#include "unit.h"

/* Feeds one record; returns what kmsg_parse_record returned. */
static int feed(struct kmsg_parser *p, const char *rec, struct mt_event *ev)
{
	return kmsg_parse_record(p, rec, strlen(rec), 1000.0, ev);
}

static void memcg_kill(void **state)
{
	(void)state;
	struct kmsg_parser p = {0};
	struct mt_event ev;

	assert_int_equal(feed(&p,
			      "4,901,504539004,-;bpf_hog invoked oom-killer: gfp_mask=0xcc0"
			      "(GFP_KERNEL), order=0, oom_score_adj=0\n",
			      &ev),
			 0);
	assert_int_equal(feed(&p,
			      "4,902,504539010,-;CPU: 1 UID: 0 PID: 5884 Comm: bpf_hog Not "
			      "tainted 6.18.44 #1 PREEMPT(voluntary) \n SUBSYSTEM=cpu\n",
			      &ev),
			 0);
	assert_int_equal(feed(&p,
			      "6,903,504543073,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask="
			      "(null),cpuset=/,mems_allowed=0,oom_memcg=/mt-try,task_memcg=/mt-"
			      "try/a,b,task=bpf_hog,pid=5884,uid=0\n",
			      &ev),
			 0);
	assert_int_equal(feed(&p,
			      "3,904,504543111,-;Memory cgroup out of memory: Killed process "
			      "5884 (bpf_hog) total-vm:207144kB, anon-rss:65280kB, file-rss:"
			      "1224kB, shmem-rss:8kB, UID:1000 pgtables:168kB oom_score_adj:0\n",
			      &ev),
			 1);
	assert_int_equal(ev.type, MT_EV_OOM_KILL);
	assert_int_equal(ev.pid, 5884);
	assert_string_equal(ev.comm, "bpf_hog");
	assert_int_equal(ev.uid, 1000);
	assert_int_equal(ev.total_vm_kb, 207144);
	assert_int_equal(ev.anon_rss_kb, 65280);
	assert_int_equal(ev.file_rss_kb, 1224);
	assert_int_equal(ev.shmem_rss_kb, 8);
	assert_string_equal(ev.memcg, "/mt-try/a,b");
	assert_int_equal(ev.trigger_pid, 5884);
	assert_string_equal(ev.trigger_comm, "bpf_hog");
	assert_true(ev.ts > 1504.543110 && ev.ts < 1504.543112);
	assert_false(ev.earlier);
}

/* a global OOM on an older kernel: no UID in the CPU line, the victim is another task */
static void global_kill_other_victim(void **state)
{
	(void)state;
	struct kmsg_parser p = {0};
	struct mt_event ev;

	feed(&p, "4,10,2000000,-;stress ng invoked oom-killer: gfp_mask=0x100cca, order=0\n", &ev);
	feed(&p, "4,11,2000001,-;CPU: 0 PID: 77 Comm: stress ng Not tainted 5.15.0 #1\n", &ev);
	feed(&p,
	     "6,12,2000100,-;oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,"
	     "mems_allowed=0,global_oom,task_memcg=/user.slice,task=java,pid=88,uid=1001\n",
	     &ev);
	assert_int_equal(feed(&p,
			      "3,13,2000200,-;Out of memory: Killed process 88 (java) "
			      "total-vm:9000kB, anon-rss:8000kB, file-rss:0kB, shmem-rss:0kB, "
			      "UID:1001 pgtables:40kB oom_score_adj:0\n",
			      &ev),
			 1);
	assert_int_equal(ev.pid, 88);
	assert_string_equal(ev.comm, "java");
	assert_string_equal(ev.memcg, "/user.slice");
	assert_int_equal(ev.trigger_pid, 77);
	assert_string_equal(ev.trigger_comm, "stress ng");
	assert_true(ev.ts > 1001.9 && ev.ts < 1002.1);
}

/* comms with a fake field, parentheses and escaped bytes */
static void hostile_comm(void **state)
{
	(void)state;
	struct kmsg_parser p = {0};
	struct mt_event ev;

	assert_int_equal(feed(&p,
			      "3,5,100,-;Out of memory: Killed process 42 (x) total-vm:1kB) "
			      "total-vm:4kB, anon-rss:2kB, file-rss:0kB, shmem-rss:0kB, UID:0 "
			      "pgtables:1kB oom_score_adj:0\n",
			      &ev),
			 1);
	assert_int_equal(ev.pid, 42);
	assert_string_equal(ev.comm, "x) total-vm:1kB");
	assert_int_equal(ev.total_vm_kb, 4);
	assert_int_equal(ev.anon_rss_kb, 2);
	/* no report header seen: no trigger, no memcg */
	assert_int_equal(ev.trigger_pid, 0);
	assert_string_equal(ev.trigger_comm, "");
	assert_string_equal(ev.memcg, "");

	assert_int_equal(feed(&p,
			      "3,6,100,-;Out of memory: Killed process 43 (a\\x09(b\\x5c) "
			      "total-vm:4kB, anon-rss:2kB, file-rss:0kB, shmem-rss:0kB\n",
			      &ev),
			 1);
	assert_string_equal(ev.comm, "a\t(b\\");
}

/* the oom-kill: line names another pid: its memcg is not the victim's */
static void memcg_needs_same_pid(void **state)
{
	(void)state;
	struct kmsg_parser p = {0};
	struct mt_event ev;

	feed(&p,
	     "6,1,100,-;oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/x,task_memcg=/x,task=a,"
	     "pid=1,uid=0\n",
	     &ev);
	assert_int_equal(feed(&p,
			      "3,2,200,-;Memory cgroup out of memory: Killed process 2 (b) "
			      "total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB, UID:0\n",
			      &ev),
			 1);
	assert_string_equal(ev.memcg, "");
}

static void not_kills(void **state)
{
	(void)state;
	struct kmsg_parser p = {0};
	struct mt_event ev;
	const char *recs[] = {
		"",
		"no header at all",
		"6,1;missing fields: Killed process 1 (x) total-vm:1kB",
		"6,1,abc,-;bad time: Killed process 1 (x) total-vm:1kB",
		("6,3,300,-;oom_reaper: reaped process 5884 (bpf_hog), now anon-rss:0kB, "
		 "file-rss:0kB, shmem-rss:0kB"),
		"6,4,400,-;Killed process 12 (x) sharing same memory",
		"6,5,500,-;Out of memory: Killed process x (y) total-vm:1kB",
		"6,6,600,-;Out of memory: Killed process 7 (unterminated",
		"6,7,700,-;usb 1-1: new high-speed USB device number 2 using xhci_hcd",
	};
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		assert_int_equal(feed(&p, recs[i], &ev), 0);
}

UNIT_GROUP(kmsg)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memcg_kill),	cmocka_unit_test(global_kill_other_victim),
		cmocka_unit_test(hostile_comm), cmocka_unit_test(memcg_needs_same_pid),
		cmocka_unit_test(not_kills),
	};
	return cmocka_run_group_tests_name("kmsg", tests, NULL, NULL);
}
