/* s and l as in htop: strace -p or lsof -p on a process, run in the terminal memtop leaves
 * for it (curses suspended), then a key to come back. */
#ifndef MEMTOP_RUN_TOOL_H
#define MEMTOP_RUN_TOOL_H

#include <stddef.h>
#include <stdint.h>

/* Runs prog (found on PATH) with "-p PID" in the whole terminal until it ends (^C ends
 * strace; memtop ignores it meanwhile), then waits for a key. Returns 0, or -1 with a line
 * saying why into msg (not installed, could not start). */
int run_tool(const char *prog, int32_t pid, char *msg, size_t size);

#endif
