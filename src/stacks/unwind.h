/* User stacks unwound in user space from a copy: the registers the sampler took (ip,
 * sp, bp on x86-64) and the bytes of the user stack above sp, walked with libdw's CFI
 * (.eh_frame, .debug_frame of local debug files) over the modules of /proc/PID/maps.
 * Memory outside the copy is never read: a walk that needs it ends there. Where a
 * function has no CFI but keeps a frame pointer, the walk goes on by frame pointer. */
#ifndef MEMTOP_UNWIND_H
#define MEMTOP_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "stacks.h"

struct unwind_regs {
	uint64_t ip, sp, bp;
};

struct unwind_result {
	int n;
	uint64_t ip[STACKS_DEPTH]; /* innermost first; the first is ip itself */
	enum stack_method method;  /* METHOD_FP when some frame came by frame pointer */
	enum stack_trunc trunc;
};

struct unwinder;

/* NULL (with errno) when the process's modules cannot be read. */
struct unwinder *unwinder_new(int32_t pid);
/* Unwinds one copied stack: len bytes that were at [regs->sp, regs->sp + len). */
void unwind_stack(struct unwinder *u, const struct unwind_regs *regs, const uint8_t *stack,
		  size_t len, struct unwind_result *out);
/* The process's executable mappings changed (another thread saw them): before the next
 * walk the module list is read again and the walks remembered are forgotten. */
void unwinder_maps_changed(struct unwinder *u);
/* The unwinder's libdwfl session of the process's modules, as of its last walk. */
struct Dwfl *unwinder_dwfl(struct unwinder *u);
/* How many times the module list was read: what was resolved with it holds until then. */
unsigned unwinder_generation(const struct unwinder *u);
/* Walks that were known from an earlier one with the same start and the same words read */
uint64_t unwinder_hits(const struct unwinder *u);
void unwinder_free(struct unwinder *u);

/* The end of a frame-pointer prologue at the start of code: [endbr64] push %rbp; mov
 * %rsp,%rbp. 0 when the code does not start with one. */
size_t unwind_prologue_end(const unsigned char *code, size_t len);

#endif
