/* Source lines and inlined functions of a code address, from the DWARF debug
 * information libdwfl finds for its module (the file itself built with -g, or a debug
 * file by build id: Debian's -dbgsym packages under /usr/lib/debug). */
#ifndef MEMTOP_SRCLINE_H
#define MEMTOP_SRCLINE_H

#include <stdint.h>

struct Dwfl_Module;

#define SRC_LEN	   192 /* "path/file.c:123" */
#define SRC_INLINE 4   /* inlined functions kept per address */
#define SRC_NAME   128

/* What is at one address: the functions inlined there, innermost first, each with the
 * line in it; then the line in the function that holds them (the symbol's). */
struct srcline {
	int ninl;
	char inl_name[SRC_INLINE][SRC_NAME];
	char inl_src[SRC_INLINE][SRC_LEN];
	char src[SRC_LEN]; /* "" when there is no line information */
};

/* look: the address inside its function (a return address less one). */
void srcline_find(struct Dwfl_Module *m, uint64_t look, struct srcline *out);

#endif
