/* OOM kills from the kernel log (/dev/kmsg): a pure parser of records and a
 * non-blocking reader around it. */
#ifndef MEMTOP_KMSG_H
#define MEMTOP_KMSG_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

/* What an OOM report said before its "Killed process" line. */
struct kmsg_parser {
	char trigger_comm[MT_COMM_LEN + 1];
	int trigger_pid;
	bool in_report;
	int memcg_pid; /* pid of the last oom-kill: line */
	char memcg[sizeof(((struct mt_event *)0)->memcg)];
};

/* One /dev/kmsg record ("PRI,SEQ,TS_US,FLAGS;text\n KEY=VALUE\n..."). mono_to_wall is
 * added to the record's time (seconds since boot) to make wall time. Returns 1 and fills
 * ev (type, ts, pid, comm, uid, sizes, memcg, trigger) when the record completes an OOM
 * kill, 0 otherwise. */
int kmsg_parse_record(struct kmsg_parser *p, const char *rec, size_t len, double mono_to_wall,
		      struct mt_event *ev);

struct kmsg_reader;

/* NULL when /dev/kmsg cannot be opened. */
struct kmsg_reader *kmsg_open(void);

/* A reader of fd, which it then owns: one record per read(2), non-blocking, as
 * /dev/kmsg gives them (a SOCK_SEQPACKET socket does too). NULL when fd < 0. */
struct kmsg_reader *kmsg_open_fd(int fd);

/* Reads every record available now (non-blocking); calls fn for each OOM kill. */
void kmsg_read(struct kmsg_reader *k, void (*fn)(void *arg, const struct mt_event *ev), void *arg);

void kmsg_close(struct kmsg_reader *k);

#endif
