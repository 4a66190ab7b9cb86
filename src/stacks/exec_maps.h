/* A process's executable mappings as the unwinder checks frames against them, and the
 * program it runs: read again when a walk meets code it does not know. */
#ifndef MEMTOP_EXEC_MAPS_H
#define MEMTOP_EXEC_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct exec_maps {
	struct {
		uint64_t start, end;
	} * r;
	size_t n, cap;
	uint64_t sig; /* of the mappings last read (start, end, inode) */
};

/* Reads /proc/PID/maps' executable mappings into m; true when they changed since the
 * last read. A process gone keeps the last ones. */
bool exec_maps_read(struct exec_maps *m, int32_t pid);
bool exec_maps_has(const struct exec_maps *m, uint64_t pc);
void exec_maps_free(struct exec_maps *m);
/* The program pid runs, as "INODE:PATH" of /proc/PID/exe ("0:" when unknown). */
void exec_maps_program(int32_t pid, char *out, size_t size);

#endif
