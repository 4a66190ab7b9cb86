/* What memtop was built from: its version, and the git description of the tree built */
#ifndef MEMTOP_VERSION_H
#define MEMTOP_VERSION_H

/* `git describe --always --dirty` of the tree built ("v0.1.0-12-gbe06c68-dirty"); "" where
 * it was not built from a git checkout */
extern const char memtop_revision[];

#endif
