/* The drill-down into one process: its memory breakdown (smaps_rollup, status), its
 * mappings (smaps) with the page faults sampled in each, the same per backing file,
 * and the stacks that fault and call brk, mmap and munmap. struct detail is the
 * drill-down's own snapshot: plain data that its views read. A drill is the source
 * that fills it, for one pid, while a view or --stacks is open. */
#ifndef MEMTOP_DETAIL_H
#define MEMTOP_DETAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "leaks_trace.h"
#include "numa.h"
#include "pid_files.h"
#include "stacks.h"
#include "symbolize.h"

/* Mappings grouped by what backs them: a file, [heap], [stack], [anon], ... */
struct dd_file {
	char *path; /* a mapping's label; raw, untrusted */
	int nmaps;
	uint64_t size, rss, dirty, swap; /* KiB */
	uint64_t faults; /* since the drill opened, including unmapped mappings of it */
};

struct dd_frame {
	uint64_t ip;
	uint64_t offset;
	bool kernel;
	bool found;
	char *symbol;	     /* raw, untrusted */
	char *module;	     /* raw, untrusted */
	bool in_module;	     /* a user frame in a mapped ELF file: */
	uint64_t mod_offset; /* its address in the file (module+offset, addr2line) */
	char *build_id;	     /* the file's build id, hex; "" when none */
	char *src;	     /* "file:line" from debug information; "" when none */
	bool inlined;	     /* a function inlined at ip into the next frame's */
};

struct dd_stack {
	enum stack_kind kind;
	uint64_t count;	  /* calls; faults: estimated, samples x rate */
	uint64_t samples; /* faults sampled; calls: = count */
	uint64_t bytes;	  /* brk growth, mmap or munmap length; faults: count x page size */
	int nframes;	  /* kernel frames first (innermost first), then user frames */
	int nkernel;
	struct dd_frame *frames;
	bool truncated;		  /* the user frames end before the outermost one: the walk read
				   * an address in no executable mapping (a program without frame
				   * pointers), ran past the stack copied, into code without CFI,
				   * ...: the rest is left out, never guessed */
	enum stack_trunc trunc;	  /* why (TRUNC_NOT_EXEC for frame-pointer walks) */
	enum stack_method method; /* how the user frames were found */
	bool estimated;		  /* count scaled from a uniform sample (past the budget) */
};

/* Frame i of s counted from the outermost (i = 0: _start or main, or the walk's last),
 * through the user frames, then the kernel frames, to the innermost */
static inline const struct dd_frame *dd_root_frame(const struct dd_stack *s, int i)
{
	return &s->frames[s->nframes - 1 - i];
}

struct dd_stacks_info {
	bool on;
	char why[160];	/* why stacks are off; one line */
	unsigned rate;	/* mean faults per sample */
	double seconds; /* attached for */
	struct stacks_totals tot;
	uint64_t unmapped_faults;	  /* estimated faults at addresses no longer mapped */
	bool one_frame;			  /* most user stacks, truncated, are one frame deep */
	size_t truncated;		  /* stacks (after merging) that are truncated */
	uint64_t kind_count[STACK_KINDS]; /* the counts of all stacks of each kind */
};

/* The leak tracer on the process (bpf/leaks.bpf.c, the Leaks tab): a window the user
 * starts, and what it found still outstanding, by stack, as memtop --leaks reports it */
enum dd_leaks_state {
	DL_IDLE,    /* not started */
	DL_TRACING, /* a window runs: what it found so far */
	DL_DONE,    /* the window ended: what stood then */
};
#define DD_LEAKS_SHOWN 10 /* the largest stacks, as --leaks prints them */

struct dd_leak {
	struct leak_stack s;	 /* bytes, counts, age; s.user: the addresses */
	int nframes;		 /* user frames, innermost first, those in a function */
	struct dd_frame *frames; /* symbol and module only */
};

struct dd_leaks {
	enum dd_leaks_state state;
	char why[200];	/* why it cannot run (one line); "" when it can */
	char note[200]; /* why only mmap and munmap are traced (a static program); "" */
	char libc[512]; /* the libc the uprobes are on, raw; "" */
	char comm[64];	/* raw */
	double window;	/* the window's length, s */
	double secs;	/* traced for */
	struct leaks_totals tot;
	double bytes;		/* outstanding, every stack's */
	struct dd_leak *stacks; /* the largest DD_LEAKS_SHOWN */
	size_t n;
	size_t more;	   /* stacks left out */
	double more_bytes; /* their bytes */
};

struct detail {
	int32_t pid;
	bool gone;     /* the process exited (or the pid was reused) */
	char err[160]; /* what could not be read; one line; "" when all was */
	struct dd_breakdown b;
	struct dd_mapping *maps; /* sorted by RSS, largest first */
	size_t nmaps;
	struct dd_file *files; /* sorted by RSS */
	size_t nfiles;
	struct dd_stack *stacks; /* sorted by count, largest first */
	size_t nstacks;
	struct dd_stacks_info st;
	/* its memory per NUMA node (numa_maps), as numastat -p sums it; read while the
	 * drill-down is open */
	bool have_numa;
	struct numa_use numa;
	struct dd_leaks leaks;
};

void detail_init(struct detail *d);
struct proc_sample;
/* In a replay: what the recording holds of process p (its sizes, swap, locked, PSS and USS
 * and OOM score where they were read, its cgroup), no mappings, files or stacks */
void detail_from_sample(struct detail *d, const struct proc_sample *p);
/* Frees what d holds and empties it; d can be filled again. */
void detail_clear(struct detail *d);

/* Label of a mapping as the views show it: its path, or [anon] for anonymous memory. */
const char *dd_map_label(const struct dd_mapping *m);
/* Groups d->maps into d->files (replacing them) and sorts both by RSS. */
void detail_group(struct detail *d);
/* The mapping containing addr, or NULL; d->maps sorted by address (before grouping). */
struct dd_mapping *detail_find_map(struct detail *d, uint64_t addr);

/* An address range [start, end). */
struct dd_range {
	uint64_t start, end;
};

/* The executable mappings of d (sorted by address: before grouping), adjacent ones
 * joined, into *out (reallocated; *cap its capacity), by address. Returns how many. */
size_t detail_exec_ranges(const struct detail *d, struct dd_range **out, size_t *cap);
/* How many of ips[0..n) come before the first that lies in none of the ranges (sorted,
 * as detail_exec_ranges makes them): the frames of a user stack that can be code. */
int dd_exec_prefix(const struct dd_range *r, size_t nr, const uint64_t *ips, int n);
/* Makes one stack of the stacks of a kind with the same frames (addresses): counts,
 * samples and bytes added, truncated when one of them was; then sorts the stacks by
 * count, largest first. */
void detail_merge_stacks(struct detail *d);
/* A stack's share of all stacks of its kind (d->st.kind_count), in percent. */
double dd_stack_share(const struct detail *d, const struct dd_stack *s);

/* Reads breakdown and mappings of pid into d (cleared first). Returns 0; -1 with errno
 * ESRCH when the process does not exist. What cannot be read is named in d->err. */
int detail_read(int32_t pid, struct detail *d);

/* The source: reads /proc for one process, and with BPF samples its stacks. */
struct drill;

/* Opens the drill on pid: checks that it exists, and unless no_bpf attaches the
 * sampler. NULL with errno ESRCH when there is no such process. */
struct drill *drill_open(int32_t pid, bool no_bpf, unsigned rate);
/* Fills d (cleared first) with what is known now. Returns 0, or -1 when the process
 * is gone (d then keeps the stacks sampled before; d->gone is set). */
int drill_collect(struct drill *dr, struct detail *d);
/* NULL when stacks are sampled, else why not (one line). */
const char *drill_stacks_off(const struct drill *dr);
/* The leak tracer (drill_leaks.c), filled into d->leaks by drill_collect: starts a window
 * of secs (a window running is ended first), or with secs <= 0 ends the one running; a new
 * length for the window running with drill_leaks_window. */
void drill_leaks_start(struct drill *dr, double secs);
void drill_leaks_window(struct drill *dr, double secs);
/* When the window running ends (clock_mono()), 0 when none runs: drill_collect ends it
 * then. */
double drill_leaks_end(const struct drill *dr);
void drill_close(struct drill *dr);

#endif
