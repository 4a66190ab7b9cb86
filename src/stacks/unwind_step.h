/* How the unwinder (unwind.c) steps from one frame to its caller, from the frame's
 * module: by its CFI, or by frame pointer where it has none but keeps one. */
#ifndef MEMTOP_UNWIND_STEP_H
#define MEMTOP_UNWIND_STEP_H

#include <elfutils/libdwfl.h>

/* by CFI, by CFI that says the frame is the outermost (its return address undefined:
 * _start, a thread's start) or in the function at the module's entry point (ld.so's
 * _start, without CFI), by frame pointer, or not at all */
enum step { STEP_UNKNOWN, STEP_CFI, STEP_END, STEP_FP, STEP_NONE };

/* The step from the frame at pc in module m; look is the address inside its function
 * (pc, or pc - 1 for a return address). */
enum step unwind_module_step(Dwfl_Module *m, Dwarf_Addr pc, Dwarf_Addr look);

#endif
