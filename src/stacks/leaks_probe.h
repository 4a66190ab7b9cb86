/* Where in a libc function a uprobe costs least. A uprobe on an instruction the kernel
 * cannot emulate (x86-64: emulates pushes, jumps and nops) is stepped out of line, a
 * second trap on every call; glibc's free starts with `test %rdi,%rdi; je`, and probing
 * its je instead (the argument still in %rdi) cut the cost of each free to a third
 * (bench/leaks.sh). */
#ifndef MEMTOP_LEAKS_PROBE_H
#define MEMTOP_LEAKS_PROBE_H

#include <stddef.h>

/* The offset into func of file where a probe sees the function's arguments as at its
 * entry and hits an instruction the kernel emulates: after an endbr64 and a test of
 * the first argument register, the conditional jump that follows; else 0. */
size_t leaks_probe_offset(const char *file, const char *func);

/* The same, given the function's first bytes. */
size_t leaks_probe_skip(const unsigned char *code, size_t len);

#endif
