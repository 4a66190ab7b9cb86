/* OOM kills from two sources, each kill reported once: memtop's BPF program
 * (oom/mark_victim, through a ring buffer) and the kernel log (/dev/kmsg). The log at
 * start holds the kills from before memtop, reported as earlier ones at the first
 * collect; after that the log's kills are reported only where no BPF program reports kills
 * (--no-bpf, not root, a kernel whose mark_victim lacks the task); else the log is still
 * read, for the time of each kill: a kill the BPF program reports takes its log record's
 * time, the same for every reader (the record's own time since boot, converted by
 * clock_mono_to_wall), where the log has it by then. */
#ifndef MEMTOP_OOM_MERGE_H
#define MEMTOP_OOM_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "kmsg.h"
#include "snapshot.h"

struct oom_merge;

/* Takes log (NULL: no kernel log to read) and reads the kills in it now. Call it after the
 * BPF programs are attached: a kill is then in the log now or reported by them later, or
 * both. follow: report the kills logged after now; else only take their times. */
struct oom_merge *oom_merge_open(struct kmsg_reader *log, bool follow);

/* Whether kills are followed in the kernel log. */
bool oom_merge_following(const struct oom_merge *m);

/* s->events[first_new..] are the kills the BPF program reported since the last call.
 * Appends the kills logged since, when following. At the first call, puts the kills from
 * before memtop (marked earlier, in the log's order) before the new ones, leaving out
 * those also among the new ones (a kill between attaching and reading the log). */
void oom_merge_collect(struct oom_merge *m, struct snapshot *s, size_t first_new);

void oom_merge_close(struct oom_merge *m);

#endif
