/* Strings kept once each (interned) for as long as the table lives: the names of
 * frames resolved while their stacks were unwound (symbols, modules, build ids). */
#ifndef MEMTOP_STRTAB_H
#define MEMTOP_STRTAB_H

#include <stddef.h>

struct strtab {
	char **s; /* NULL: free slot */
	size_t cap, n;
};

/* The table's copy of s (made on first sight). */
const char *strtab_intern(struct strtab *t, const char *s);
void strtab_free(struct strtab *t);

#endif
