/* Where each figure of a memory cgroup is read, per cgroup version (cgroup_parse.c): the file,
 * and in a flat keyed file the keys, with the unit; and the files' text parsed into the
 * columns of struct cg_sample. Private to the cgroup reader (cgroup_files.c). */
#ifndef MEMTOP_CGROUP_PARSE_H
#define MEMTOP_CGROUP_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

/* How a file gives a figure */
enum cg_fmt {
	FMT_NONE,  /* not read in this version */
	FMT_BYTES, /* bytes, kept in KiB */
	FMT_LIMIT, /* bytes, or "max" (v1: a value of 2^62 or more) for none */
	FMT_COUNT, /* a count */
	FMT_LINES, /* the number of lines: processes in cgroup.procs */
	FMT_SOME,  /* memory.pressure "some avg10=", kept in hundredths */
	FMT_FULL,  /* memory.pressure "full avg10=" */
};

/* Where a column's figure is read in one version: file, and in a flat keyed file the
 * keys, as keyed() reads them */
struct cg_src {
	const char *file;
	const char *keys; /* NULL: the file holds the one value */
	enum cg_fmt fmt;
	int minus;    /* a column of the same cgroup subtracted (v1 memsw: memory + swap); 0 none */
	bool subtree; /* the file counts the cgroup alone: its subtree's are added */
};

/* cgroup v1's limits from this up mean none (its "unlimited" is the largest page multiple) */
#define CG_V1_UNLIMITED (1ull << 62)

/* The table of version 1, else of version 2: a cg_src for each column */
const struct cg_src *cg_src_of(int version);

/* The lines of the file open at fd, each a number (cgroup.procs, which may be long), and
 * closes it; -1 with errno set if it cannot be read, EINVAL if it holds anything else */
long cg_count_lines(int fd, char *buf, size_t size);

/* Parses the columns cols of cg from text, a file's, each column c as src[c] says; a column
 * that cannot be parsed is left unread (not valid) */
void cg_parse(const struct cg_src *src, const char *text, unsigned cols, struct cg_sample *cg);

#endif
