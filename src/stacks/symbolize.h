/* Addresses to function+offset and module: user addresses of one process through
 * elfutils' libdwfl (its /proc/PID/maps, the mapped ELF files, their symbol tables and
 * local debug files found by build id), kernel addresses through /proc/kallsyms.
 * Results are cached per symbolizer, that is per process. */
#ifndef MEMTOP_SYMBOLIZE_H
#define MEMTOP_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYM_NAME_LEN	 256
#define SYM_MODULE_LEN	 160
#define SYM_BUILD_ID_LEN 65 /* hex, NUL-ended */

#include "srcline.h"

/* One resolved frame. symbol and module are raw, untrusted text ("" when unknown). */
struct sym_frame {
	uint64_t ip;
	uint64_t offset; /* ip - start of symbol; 0 when the symbol is unknown */
	bool kernel;
	bool found; /* a symbol was found */
	char symbol[SYM_NAME_LEN];
	char module[SYM_MODULE_LEN]; /* path of the mapped file, or [kernel], [MODNAME] */
	/* user frames in a module: ip less the module's load bias, its address in the ELF
	 * file (what addr2line -e FILE and perf's module+offset take), and the file's build
	 * id in hex ("" when it has none) */
	bool in_module;
	uint64_t mod_offset;
	char build_id[SYM_BUILD_ID_LEN];
	/* source lines and inlined functions where the module has debug information, else
	 * NULL; owned by the symbolizer's cache (symbolize_user), or by the caller of
	 * symbolize_in, who frees it */
	struct srcline *srcl;
};

/* A resolved user frame kept with its stack: strings owned elsewhere (interned). */
struct sym_ref {
	const char *symbol, *module, *build_id;
	uint64_t offset, mod_offset;
	bool found, in_module;
	const char *src; /* "file:line" or "" */
	int ninl;	 /* functions inlined at the address, innermost first */
	const char *inl_name[SRC_INLINE], *inl_src[SRC_INLINE];
};

struct Dwfl;
/* ip resolved in d, a libdwfl session of the process's modules (used while they are
 * mapped: the unwinder's, as it walks) */
void symbolize_in(struct Dwfl *d, uint64_t ip, bool ret_addr, struct sym_frame *out);

struct symbolizer;

/* Reads the module list of pid; NULL (with errno) if the process cannot be read. */
struct symbolizer *symbolizer_new(int32_t pid);
/* Re-reads the module list (after dlopen or exec); keeps the old list when the process
 * is gone. Returns 0, or -1 when the process could not be read. */
int symbolizer_refresh(struct symbolizer *s);
/* A user address. A return address (every frame but the innermost) is looked up one
 * byte earlier, so that a call at the end of a function is attributed to it. */
void symbolize_user(struct symbolizer *s, uint64_t ip, bool ret_addr, struct sym_frame *out);
/* True when ip lies inside a function of a mapped ELF file. */
bool symbolizer_in_function(struct symbolizer *s, uint64_t ip);
/* How many of the n return addresses of a frame-pointer walk, innermost first, to show:
 * up to the first that lies in no function of a mapped file (the walk goes on past the
 * outermost frame with whatever the last word holds); all of them without s */
int symbolizer_frames_shown(struct symbolizer *s, const uint64_t *ips, int n);
/* Whether the function containing ip had set up a frame pointer (push %rbp; mov
 * %rsp,%rbp) before ip: 1 yes, 0 no (a leaf or a function built without), -1 unknown
 * (no symbol, no code, or an architecture where this is not checked). */
int symbolizer_frame_set_up(struct symbolizer *s, uint64_t ip);
/* Kernel addresses, resolved in one pass over /proc/kallsyms for those not cached. */
void symbolize_kernel(struct symbolizer *s, const uint64_t *ips, size_t n, struct sym_frame *out);
void symbolizer_free(struct symbolizer *s);

#endif
