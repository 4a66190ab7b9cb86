/* memtop --stacks PID[:SECS] */
#ifndef MEMTOP_STACKS_CLI_H
#define MEMTOP_STACKS_CLI_H

#include <stdbool.h>
#include <stdint.h>

/* Samples pid for secs seconds and prints its top stacks, its breakdown and largest
 * mappings; returns the exit status: 0, or 1 (with a one-line message on stderr)
 * when the process does not exist, exits meanwhile or stacks are unavailable. */
int stacks_cli_run(int32_t pid, double secs, bool json, bool no_bpf);

#endif
