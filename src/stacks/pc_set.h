/* A set of code addresses, bounded: emptied when full. The unwinder keeps in one the
 * addresses where a walk failed although the module list was read again for it, so
 * that /proc/PID/maps is read once per such address, not once per walk. */
#ifndef MEMTOP_PC_SET_H
#define MEMTOP_PC_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PC_SET_SLOTS 4096

struct pc_set {
	uint64_t pc[PC_SET_SLOTS]; /* 0: free (address 0 is never code) */
	size_t n;
};

bool pc_set_has(const struct pc_set *s, uint64_t pc);
void pc_set_add(struct pc_set *s, uint64_t pc);
void pc_set_clear(struct pc_set *s);

#endif
