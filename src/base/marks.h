/* Start-up markers: with MEMTOP_TIMES=FILE, each step up to the first screen (or -b's and
 * --json's first output) appends a line to FILE: the wall time since main began, the CPU time of
 * the whole process and of the thread that marked (all in ms), and the step's name. The
 * first line gives the CPU spent before main (exec, the dynamic linker, constructors).
 * Without the variable a mark costs one test of a static. */
#ifndef MEMTOP_MARKS_H
#define MEMTOP_MARKS_H

void mark(const char *what);
/* The last mark: later ones are not written and the file is closed */
void mark_done(const char *what);

#endif
