/* Whether /proc hides other users' processes from memtop: its hidepid= mount option. */
#ifndef MEMTOP_HIDEPID_H
#define MEMTOP_HIDEPID_H

#include <stdbool.h>
#include <stddef.h>

/* The options of the /proc mounted last (the one seen) in the text of
 * /proc/self/mountinfo: true with hidepid's value in val ("2", "invisible", "noaccess",
 * "ptraceable") and the group exempted in *gid (-1: none) when it hides processes; false
 * when it does not (no hidepid, 0 or off) or no /proc is mounted */
bool parse_hidepid(const char *mountinfo, char *val, size_t size, long *gid);

/* For memtop as it runs: true, with one phrase in why, when /proc hides processes from it
 * (not root, not in the group exempted) */
bool procfs_hidden(char *why, size_t size);

#endif
