/* /proc/kallsyms: the kernel's symbols and their addresses, read in one pass for the
 * kernel frames of stacks (src/stacks/symbolize.c) and the swap gate's end-of-I/O
 * functions (src/bpf/swap_gate.c). */
#ifndef MEMTOP_KALLSYMS_H
#define MEMTOP_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

/* Parses one /proc/kallsyms line ("ffffffff81000000 T _stext [mod]"). Returns 0 with
 * addr, type, name and module (empty for the kernel itself), -1 for a bad line. */
int parse_kallsyms_line(const char *line, uint64_t *addr, char *type, char *name, size_t nlen,
			char *module, size_t mlen);

/* Called for each symbol, in the file's order; module is "" for the kernel itself. A
 * nonzero return ends the pass. */
typedef int (*kallsyms_fn)(void *arg, uint64_t addr, char type, const char *name,
			   const char *module);

/* One pass over /proc/kallsyms, its lines that parse given to fn. Returns 0, or -1 with
 * errno when the file cannot be opened. */
int kallsyms_scan(kallsyms_fn fn, void *arg);

#endif
