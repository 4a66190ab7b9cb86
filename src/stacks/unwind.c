#include "unwind.h"
#include "unwind_step.h"

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "exec_maps.h"
#include "pc_set.h"
#include "proc_dwfl.h"
#include "util.h"

#define MAX_READS  128	/* words a walk may read and still be remembered */
#define WALK_SLOTS 1024 /* walks remembered (direct-mapped by start) */
#define STEP_SLOTS 4096 /* how each code address is stepped from (open addressing) */

struct walk {
	struct unwind_regs start;
	bool any_bp; /* the walk did not need bp: it goes the same with any */
	int nreads;
	struct {
		uint64_t addr, val;
	} reads[MAX_READS];
	struct unwind_result r;
};

struct step_slot {
	uint64_t pc; /* 0: free */
	enum step step;
};

/* A walk failed where one failed before: the maps are read again after BAD_RETRY such
 * failures, doubling each time up to BAD_RETRY_MAX */
#define BAD_RETRY     64
#define BAD_RETRY_MAX 65536

struct unwinder {
	int32_t pid;
	Dwfl *dwfl;
	bool attached;
	struct exec_maps exec;
	struct pc_set bad;	 /* where walks failed with the module list just read */
	unsigned bad_skips;	 /* maps not read again for a failure there, since the last read */
	unsigned bad_retry;	 /* after so many, the module list is read anew (doubling) */
	uint64_t fail_pc;	 /* where the last walk failed for want of a module or CFI */
	atomic_bool stale;	 /* the maps changed (unwinder_maps_changed) */
	unsigned generation;	 /* module lists read */
	char exe[PATH_MAX + 24]; /* the program the module list is of */
	/* the copy being unwound */
	const struct unwind_regs *regs;
	const uint8_t *stack;
	size_t len;
	struct walk cur;
	bool read_failed; /* a word outside the copy was asked for since the last frame */
	bool last_cfi;	  /* the last frame is stepped from by its CFI */
	bool with_bp;	  /* the walk starts with bp known */
	bool ended;	  /* the walk reached the outermost frame */
	enum step last;	  /* how the last frame taken is stepped from */
	struct walk **walks;
	struct step_slot *steps;
	size_t nsteps;
	uint64_t hits;
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->pid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/* Only the copy: a word outside it is not read from the process. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;
	uint64_t sp = u->regs->sp;

	(void)dwfl;
	if (addr < sp || u->len < sizeof(*result) || addr - sp > u->len - sizeof(*result)) {
		u->read_failed = true;
		return false;
	}
	memcpy(result, u->stack + (addr - sp), sizeof(*result));
	if (u->cur.nreads < MAX_READS) {
		u->cur.reads[u->cur.nreads].addr = addr;
		u->cur.reads[u->cur.nreads].val = *result;
	}
	u->cur.nreads++;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
#if defined(__x86_64__)
	Dwarf_Word regs[2] = {u->regs->bp, u->regs->sp}; /* DWARF 6 rbp, 7 rsp */

	/* without bp, a walk that needs it fails rather than guesses */
	if (!dwfl_thread_state_registers(thread, u->with_bp ? 6 : 7, u->with_bp ? 2 : 1,
					 u->with_bp ? regs : regs + 1))
		return false;
#endif
	dwfl_thread_state_register_pc(thread, u->regs->ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static void forget(struct unwinder *u)
{
	for (size_t i = 0; i < WALK_SLOTS; i++) {
		free(u->walks[i]);
		u->walks[i] = NULL;
	}
	memset(u->steps, 0, STEP_SLOTS * sizeof(*u->steps));
	u->nsteps = 0;
}

/* (Re-)reads the module list into the same Dwfl: modules mapped as before are kept with
 * what was parsed of them (their CFI, symbols), so each is read once while the
 * unwinder lives. After an execve (another program), a new Dwfl: libdwfl's thread
 * state holds on to the first program's ELF. Every walk remembered, failed ones too, is
 * forgotten. */
static int refresh(struct unwinder *u)
{
	char exe[sizeof(u->exe)];

	exec_maps_program(u->pid, exe, sizeof(exe));
	if (strcmp(exe, u->exe)) { /* another program: its modules only, a thread state anew */
		Dwfl *d = proc_dwfl_begin();

		if (!d)
			return -1;
		dwfl_end(u->dwfl);
		u->dwfl = d;
		u->attached = false;
	}
	char after[sizeof(u->exe)];
	if (proc_dwfl_report(u->dwfl, u->pid))
		return -1;
	exec_maps_program(u->pid, after, sizeof(after));
	if (strcmp(exe, after)) /* an execve while the modules were read: read them again */
		return -1;
	snprintf(u->exe, sizeof(u->exe), "%s", exe);
	forget(u);
	pc_set_clear(&u->bad);
	u->generation++;
	if (!u->attached)
		u->attached = dwfl_attach_state(u->dwfl, NULL, u->pid, &thread_callbacks, u);
	return u->attached ? 0 : -1;
}

struct unwinder *unwinder_new(int32_t pid)
{
	struct unwinder *u = xcalloc(1, sizeof(*u));

	u->pid = pid;
	u->bad_retry = BAD_RETRY;
	u->walks = xcalloc(WALK_SLOTS, sizeof(*u->walks));
	u->steps = xcalloc(STEP_SLOTS, sizeof(*u->steps));
	u->dwfl = proc_dwfl_begin();
	exec_maps_read(&u->exec, u->pid);
	if (!u->dwfl || refresh(u)) {
		unwinder_free(u);
		errno = ESRCH;
		return NULL;
	}
	return u;
}

/* How the frame at pc (look: the address inside its function) is stepped from. */
static enum step step_of(struct unwinder *u, Dwarf_Addr pc, Dwarf_Addr look)
{
	size_t i = (size_t)((pc * 0x9e3779b97f4a7c15ULL) >> 52) & (STEP_SLOTS - 1);
	enum step st = STEP_NONE;

	for (; u->steps[i].pc; i = (i + 1) & (STEP_SLOTS - 1))
		if (u->steps[i].pc == pc)
			return u->steps[i].step;
	Dwfl_Module *m = dwfl_addrmodule(u->dwfl, look);

	if (m)
		st = unwind_module_step(m, pc, look);
	if (u->nsteps * 2 < STEP_SLOTS) {
		u->steps[i].pc = pc;
		u->steps[i].step = st;
		u->nsteps++;
	}
	return st;
}

/* Each frame as libdwfl steps to it. A frame it reached by its frame-pointer fallback
 * from a frame with CFI (the CFI needed a word past the copy) is not taken. */
static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	struct unwind_result *r = &u->cur.r;
	Dwarf_Addr pc;

	if (r->n && u->read_failed && u->last_cfi) {
		r->trunc = TRUNC_COPY;
		return DWARF_CB_ABORT;
	}
	/* not asking whether it is an activation: libdwfl would step from it first */
	if (!dwfl_frame_pc(state, &pc, NULL)) {
		r->trunc = TRUNC_UNWIND;
		return DWARF_CB_ABORT;
	}
	if (!exec_maps_has(&u->exec, pc)) {
		r->trunc = TRUNC_NOT_EXEC;
		u->fail_pc = pc;
		return DWARF_CB_ABORT;
	}
	if (r->n == STACKS_DEPTH) {
		r->trunc = TRUNC_DEPTH;
		return DWARF_CB_ABORT;
	}
	r->ip[r->n++] = pc;
	u->last = step_of(u, pc, r->n == 1 ? pc : pc - 1);
	switch (u->last) {
	case STEP_END:
		/* the outermost frame: nothing to step to (ld.so's _start has no CFI) */
		u->ended = true;
		return DWARF_CB_ABORT;
	case STEP_CFI:
		u->last_cfi = true;
		break;
	case STEP_FP:
		u->last_cfi = false;
		r->method = METHOD_FP;
		break;
	default:
		r->trunc = TRUNC_NO_CFI;
		u->fail_pc = pc;
		return DWARF_CB_ABORT;
	}
	u->read_failed = false;
	return DWARF_CB_OK;
}

static void walk(struct unwinder *u)
{
	struct unwind_result *r = &u->cur.r;

	memset(r, 0, sizeof(*r));
	u->cur.nreads = 0;
	u->read_failed = false;
	u->last_cfi = false;
	u->ended = false;
	proc_dwfl_use(u->pid);
	u->last = STEP_UNKNOWN;
	dwfl_getthread_frames(u->dwfl, u->pid, on_frame, u);

	/* libdwfl ends a walk as if at the outermost frame also when the return address
	 * could not be found (a word past the copy, a register not known): the walk is
	 * whole only when it reached a frame that is the outermost */
	if (r->trunc == TRUNC_NONE && !u->ended)
		r->trunc = u->read_failed ? TRUNC_COPY : TRUNC_UNWIND;
}

/* First without bp: a walk that reaches the outermost frame so is known for any bp
 * (programs without frame pointers keep data in it); else again with it. */
static void walk_twice(struct unwinder *u)
{
	u->with_bp = false;
	walk(u);
	u->cur.any_bp = u->cur.r.trunc == TRUNC_NONE;
	if (!u->cur.any_bp) {
		u->with_bp = true;
		walk(u);
	}
}

/* by ip and sp: bp varies where code keeps data in it, and most walks do not need it */
static size_t walk_slot(const struct unwind_regs *g)
{
	uint64_t h = (g->ip * 0x9e3779b97f4a7c15ULL) ^ (g->sp * 0xff51afd7ed558ccdULL);

	return (size_t)(h >> 40) & (WALK_SLOTS - 1);
}

/* A walk from the same registers that read the same words goes the same way. */
static bool same_walk(const struct walk *w, const struct unwind_regs *g, const uint8_t *stack,
		      size_t len)
{
	uint64_t v;

	if (w->start.ip != g->ip || w->start.sp != g->sp || (!w->any_bp && w->start.bp != g->bp))
		return false;
	for (int i = 0; i < w->nreads; i++) {
		uint64_t off = w->reads[i].addr - g->sp;

		if (len < sizeof(v) || off > len - sizeof(v))
			return false;
		memcpy(&v, stack + off, sizeof(v));
		if (v != w->reads[i].val)
			return false;
	}
	/* a walk that ran past its copy might go further with a longer one */
	return w->r.trunc != TRUNC_COPY;
}

/* The walk failed for want of what the module list gives: a module, its CFI, or a thread
 * state libdwfl can walk (it errs on a list read before an execve) */
static bool module_failed(const struct unwind_result *r)
{
	return r->trunc == TRUNC_NO_CFI || r->trunc == TRUNC_NOT_EXEC || r->trunc == TRUNC_UNWIND;
}

void unwind_stack(struct unwinder *u, const struct unwind_regs *regs, const uint8_t *stack,
		  size_t len, struct unwind_result *out)
{
	size_t slot = walk_slot(regs);
	struct walk *w;

	if (atomic_exchange(&u->stale, false) && exec_maps_read(&u->exec, u->pid))
		refresh(u);
	/* a refresh that failed (the process amid an execve) left no thread to walk: again */
	if (!u->attached) {
		exec_maps_read(&u->exec, u->pid);
		refresh(u);
	}
	w = u->walks[slot];
	if (w && same_walk(w, regs, stack, len)) {
		u->hits++;
		*out = w->r;
		return;
	}
	u->regs = regs;
	u->stack = stack;
	u->len = len;
	u->cur.start = *regs;
	u->fail_pc = 0;
	walk_twice(u);
	/* code the module list did not have (dlopen, exec since): the maps read again at
	 * once, and when their executable part changed, the module list too, and the walk
	 * again; an address that failed with the maps just read is not tried again until
	 * they change */
	/* (Maps read amid a change, an execve's, may have left a module list that fails
	 * again: after bad_retry failures where one failed before, the module list is read
	 * anew anyway.) */
	bool want = module_failed(&u->cur.r);
	bool retry = want && pc_set_has(&u->bad, u->fail_pc) && ++u->bad_skips >= u->bad_retry;
	if (want && (!pc_set_has(&u->bad, u->fail_pc) || retry)) {
		u->bad_skips = 0;
		if (retry) { /* the whole module list anew, less often each time it fails */
			u->exe[0] = '\0';
			u->exec.sig = 0;
			if (u->bad_retry < BAD_RETRY_MAX)
				u->bad_retry *= 2;
		}
		if (exec_maps_read(&u->exec, u->pid)) {
			if (!refresh(u)) {
				u->fail_pc = 0;
				walk_twice(u);
			} else {
				u->exec.sig = 0; /* failed: the next read counts as a change */
			}
		}
		want = module_failed(&u->cur.r);
		if (want)
			pc_set_add(&u->bad, u->fail_pc);
	}
	*out = u->cur.r;
	/* a walk that failed for want of a module is not kept: the same place, faulting
	 * again, is walked again once the maps have changed */
	if (u->cur.nreads <= MAX_READS && !want) {
		if (!u->walks[slot])
			u->walks[slot] = xmalloc(sizeof(*u->walks[slot]));
		*u->walks[slot] = u->cur;
	}
	u->stack = NULL;
}

void unwinder_maps_changed(struct unwinder *u)
{
	atomic_store(&u->stale, true);
}

Dwfl *unwinder_dwfl(struct unwinder *u)
{
	return u->dwfl;
}

unsigned unwinder_generation(const struct unwinder *u)
{
	return u->generation;
}

uint64_t unwinder_hits(const struct unwinder *u)
{
	return u->hits;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	if (u->walks)
		forget(u);
	free(u->walks);
	free(u->steps);
	exec_maps_free(&u->exec);
	free(u);
}
