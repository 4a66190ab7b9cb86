/* memtop --stacks PID[:SECS] */
#ifndef MEMTOP_STACKS_CLI_H
#define MEMTOP_STACKS_CLI_H

#include <stdbool.h>
#include <stdint.h>

enum stacks_out { STACKS_OUT_TEXT, STACKS_OUT_JSON, STACKS_OUT_FOLDED };

/* Samples pid (a thread id stands for its process) for secs seconds and prints its top
 * stacks, its breakdown and largest mappings; returns the exit status: 0, or 1 (with a
 * one-line message on stderr) when the process does not exist, exits meanwhile or
 * stacks are unavailable. */
int stacks_cli_run(int32_t pid, double secs, enum stacks_out out, bool no_bpf);
/* Starts argv[0] with its arguments (as $SUDO_USER when memtop runs as root under
 * sudo), samples it from its first instruction until it exits or secs pass (0: until
 * it exits), prints its stacks, waits for it to end; returns its exit status (127 when
 * it could not be run), or 1 when stacks are unavailable. */
int stacks_cli_command(char **argv, double secs, enum stacks_out out, bool no_bpf);

#endif
