#include "version.h"

/* The Makefile passes it to this file alone, rebuilt only when it changes */
#ifndef MEMTOP_GIT
#define MEMTOP_GIT ""
#endif

const char memtop_revision[] = MEMTOP_GIT;
