/* memtop --leaks PID[:SECS] */
#ifndef MEMTOP_LEAKS_CLI_H
#define MEMTOP_LEAKS_CLI_H

#include <stdbool.h>
#include <stdint.h>

/* Traces pid's allocations for secs seconds and prints those still outstanding by
 * stack (text or JSON); returns the exit status: 0, or 1 (with a one-line message on
 * stderr) when the process does not exist, exits meanwhile or cannot be traced. */
int leaks_cli_run(int32_t pid, double secs, bool json);

#endif
