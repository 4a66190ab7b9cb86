/* The lines of the leak tracer's report, as memtop --leaks prints them and the detail
 * screen's Leaks tab shows them: each into buf, without a newline, untrusted names
 * escaped. */
#ifndef MEMTOP_LEAKS_TEXT_H
#define MEMTOP_LEAKS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "leaks_trace.h"

/* "Outstanding allocations of process PID (COMM) after SECS s: BYTES bytes, RATE/s";
 * comm raw */
void leaks_title_text(char *buf, size_t size, int32_t pid, const char *comm, double secs,
		      double bytes, bool utf8);
/* "traced: ..." (uprobes on libc, or mmap and munmap only with note's reason); libc raw */
void leaks_traced_text(char *buf, size_t size, const char *libc, const char *note, bool utf8);
/* "sampled: ..." */
void leaks_sampled_text(char *buf, size_t size);
/* "seen: N allocations (...), N recorded; N frees, ..." */
void leaks_seen_text(char *buf, size_t size, const struct leaks_totals *t);
/* "lost: ..." where stacks or allocations were lost, else "" */
void leaks_lost_text(char *buf, size_t size, const struct leaks_totals *t);
/* "#I KIND: BYTES bytes (RATE/s, SHARE%) in COUNT allocations, oldest AGE s" for the ith
 * stack (from 0) of a window of secs whose stacks add up to all bytes */
void leaks_stack_text(char *buf, size_t size, size_t i, const struct leak_stack *s, double secs,
		      double all);
/* "      SYMBOL+0xOFF (MODULE)", or the address where the symbol is unknown; raw names */
void leaks_frame_text(char *buf, size_t size, bool found, const char *symbol, uint64_t offset,
		      uint64_t ip, const char *module, bool utf8);
/* "N more stacks (BYTES bytes)" */
void leaks_more_text(char *buf, size_t size, size_t n, double bytes);

#endif
