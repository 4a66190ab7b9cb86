/* The drill: the source behind struct detail for one process. /proc for the
 * breakdown and mappings, the BPF sampler for stacks and fault addresses, libdwfl and
 * kallsyms for symbols. */
#include "detail.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dd_frames.h"
#include "drill_leaks.h"
#include "util.h"

/* sampled faults per (mapping start, label), and per label (start 0) */
struct tally {
	uint64_t start;
	char *label; /* NULL: free slot */
	uint64_t samples;
};

struct tallies {
	struct tally *t;
	size_t cap; /* power of two */
	size_t n;
};

struct drill {
	int32_t pid;
	unsigned long long start_ticks;
	struct stacks *st;
	char why[160];
	struct symbolizer *sym;
	uint64_t exec_sig;     /* the executable mappings the symbolizer last read */
	struct dd_range *exec; /* the executable mappings last read, by address */
	size_t nexec, exec_cap;
	struct tallies by_map;
	struct tallies by_file;
	uint64_t unmapped; /* samples at addresses in no mapping when drained */
	double opened;
	struct stack_rec *recs;
	size_t recs_cap;
	struct detail *cur; /* target of the page drain */
	struct drill_leaks *leaks;
};

static uint64_t tally_hash(uint64_t start, const char *label)
{
	uint64_t h = 1469598103934665603ULL ^ start;

	for (const unsigned char *p = (const unsigned char *)label; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return h;
}

static struct tally *tally_slot(struct tallies *ts, uint64_t start, const char *label)
{
	if (!ts->cap)
		return NULL;
	for (size_t i = tally_hash(start, label) & (ts->cap - 1);; i = (i + 1) & (ts->cap - 1)) {
		struct tally *t = &ts->t[i];

		if (!t->label || (t->start == start && !strcmp(t->label, label)))
			return t;
	}
}

static void tally_add(struct tallies *ts, uint64_t start, const char *label, uint64_t n)
{
	if ((ts->n + 1) * 2 > ts->cap) {
		struct tallies old = *ts;

		ts->cap = old.cap ? old.cap * 2 : 64;
		ts->t = xcalloc(ts->cap, sizeof(*ts->t));
		ts->n = 0;
		for (size_t i = 0; i < old.cap; i++) {
			if (!old.t[i].label)
				continue;
			*tally_slot(ts, old.t[i].start, old.t[i].label) = old.t[i];
			ts->n++;
		}
		free(old.t);
	}
	struct tally *t = tally_slot(ts, start, label);

	if (!t->label) {
		t->start = start;
		t->label = xstrdup(label);
		ts->n++;
	}
	t->samples += n;
}

static uint64_t tally_get(struct tallies *ts, uint64_t start, const char *label)
{
	struct tally *t = tally_slot(ts, start, label);

	return t && t->label ? t->samples : 0;
}

static void tally_free(struct tallies *ts)
{
	for (size_t i = 0; i < ts->cap; i++)
		free(ts->t[i].label);
	free(ts->t);
	memset(ts, 0, sizeof(*ts));
}

/* starttime of /proc/PID/stat: with the pid, tells a process from a later one; -1 when
 * there is no such process or it has exited (a zombie) */
static int start_ticks(int32_t pid, unsigned long long *out)
{
	struct pid_stat st;

	if (read_proc_stat(pid, &st) || st.state == 'Z' || st.state == 'X')
		return -1;
	*out = st.start_ticks;
	return 0;
}

struct drill *drill_open(int32_t pid, bool no_bpf, unsigned rate)
{
	unsigned long long ticks;

	if (pid <= 0 || start_ticks(pid, &ticks)) {
		errno = ESRCH;
		return NULL;
	}
	struct drill *dr = xcalloc(1, sizeof(*dr));

	dr->pid = pid;
	dr->start_ticks = ticks;
	dr->opened = clock_mono();
	dr->leaks = dl_new(pid, no_bpf);
	if (no_bpf)
		snprintf(dr->why, sizeof(dr->why), "BPF off (--no-bpf)");
	else
		dr->st = stacks_open(pid, rate, dr->why, sizeof(dr->why));
	if (dr->st)
		dr->sym = symbolizer_new(pid);
	return dr;
}

static void on_page(void *arg, uint64_t addr, uint64_t n)
{
	struct drill *dr = arg;
	struct dd_mapping *m = detail_find_map(dr->cur, addr);

	if (!m) {
		dr->unmapped += n;
		return;
	}
	tally_add(&dr->by_map, m->start, dd_map_label(m), n);
	tally_add(&dr->by_file, 0, dd_map_label(m), n);
}

/* Files that faulted but are no longer mapped still count. */
static void add_unmapped_files(struct drill *dr, struct detail *d, unsigned rate)
{
	for (size_t i = 0; i < d->nfiles; i++)
		d->files[i].faults = tally_get(&dr->by_file, 0, d->files[i].path) * rate;
	for (size_t i = 0; i < dr->by_file.cap; i++) {
		const struct tally *t = &dr->by_file.t[i];
		bool shown = false;

		if (!t->label)
			continue;
		for (size_t j = 0; j < d->nfiles && !shown; j++)
			shown = !strcmp(d->files[j].path, t->label);
		if (shown)
			continue;
		d->files = xrealloc(d->files, (d->nfiles + 1) * sizeof(*d->files));
		d->files[d->nfiles++] = (struct dd_file){
			.path = xstrdup(t->label),
			.faults = t->samples * rate,
		};
	}
}

/* A signature of the executable file mappings: when it changes (dlopen, exec), the
 * symbolizer re-reads the module list. */
static uint64_t exec_signature(const struct detail *d)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < d->nmaps; i++)
		if (d->maps[i].perms[2] == 'x')
			h = (h ^ d->maps[i].start ^ d->maps[i].end << 7 ^ d->maps[i].inode) *
			    1099511628211ULL;
	return h;
}

/* A function that sets up no frame (a leaf built with -fno-omit-frame-pointer, a
 * libc syscall wrapper) hides its caller from a frame-pointer walk: the walk goes from
 * the caller's frame to the caller's caller. The word the sampler read at the stack
 * pointer is then the return address into the hidden caller; it is put back as the
 * second frame when the innermost function has not set up a frame by then. */
static bool use_caller(struct drill *dr, const struct stack_rec *r)
{
	if (!r->caller || r->nuser < 1 || !dr->sym)
		return false;
	if (r->nuser > 1 && r->user[1] == r->caller)
		return false;
	if (symbolizer_frame_set_up(dr->sym, r->user[0]) != 0)
		return false;
	return symbolizer_in_function(dr->sym, r->caller);
}

/* The kernel part of a stack begins inside the sampler itself (the BPF program, the
 * tracepoint's trampoline and iterator): those frames say nothing about the process. */
static int sampler_frames(const struct sym_frame *f, int n)
{
	int skip = 0;

	while (skip < n &&
	       (!strcmp(f[skip].module, "[bpf]") || !strncmp(f[skip].symbol, "bpf_prog_", 9) ||
		!strncmp(f[skip].symbol, "bpf_trace_run", 13) ||
		!strncmp(f[skip].symbol, "__bpf_trace_", 12) ||
		!strncmp(f[skip].symbol, "__traceiter_", 12)))
		skip++;
	return skip == n ? 0 : skip;
}

/* The user frames of r, innermost first, into ips (STACKS_DEPTH + 1 of them): the
 * frames walked, with the caller put back as the second when use_caller says so. A
 * walk through a program that keeps data in the frame-pointer register reads that data
 * as frames (small numbers, text); the frames end at the first address in no executable
 * mapping of the process, which cannot be a return address. Returns how many frames
 * are kept; *cut tells whether some were left out, *walked how many of those kept were
 * walked (not the caller put back). */
static int user_frames(struct drill *dr, const struct stack_rec *r, uint64_t *ips, bool *cut,
		       int *walked)
{
	bool caller = !r->usym && use_caller(dr, r);
	int n = r->nuser + caller, keep;

	for (int i = 0; i < n; i++)
		ips[i] = caller && i == 1 ? r->caller : r->user[i - (caller && i > 1)];
	/* no mappings read yet (the process was gone at once): nothing to check against;
	 * copied stacks were checked against the maps as they were when walked */
	keep = dr->nexec && !r->usym ? dd_exec_prefix(dr->exec, dr->nexec, ips, n) : n;
	*cut = keep < n;
	*walked = keep - (caller && keep > 1);
	return keep;
}

/* Fills s from r; returns how many user frames of it were walked (truncated). */
static int build_stack(struct drill *dr, const struct stack_rec *r, unsigned rate, long page,
		       struct dd_stack *s)
{
	struct sym_frame sf[STACKS_DEPTH];
	uint64_t ips[STACKS_DEPTH + 1];
	int nkernel = r->nkernel, skip = 0, k = 0, walked;
	bool cut;
	int nuser = user_frames(dr, r, ips, &cut, &walked);

	memset(s, 0, sizeof(*s));
	s->method = r->method;
	s->trunc = cut ? TRUNC_NOT_EXEC : r->trunc;
	s->truncated = s->trunc != TRUNC_NONE;
	s->kind = r->kind;
	s->samples = r->events;
	s->estimated = r->estimated;
	s->count = stack_kind_fault(r->kind) ? r->events * rate : r->events;
	s->bytes = stack_kind_fault(r->kind) ? s->count * (uint64_t)page : r->bytes;
	memset(sf, 0, sizeof(sf));
	if (nkernel && dr->sym) {
		symbolize_kernel(dr->sym, r->kernel, (size_t)nkernel, sf);
		skip = sampler_frames(sf, nkernel);
	}
	for (int i = 0; i < nkernel; i++)
		sf[i].ip = r->kernel[i], sf[i].kernel = true;
	s->nkernel = nkernel - skip;
	s->frames = xcalloc((size_t)(nkernel + nuser * (1 + SRC_INLINE) + 1), sizeof(*s->frames));
	for (int i = skip; i < nkernel; i++)
		dd_frame_set(&s->frames[k++], &sf[i]);
	for (int i = 0; i < nuser; i++) {
		struct sym_frame f = {.ip = ips[i]};

		if (r->usym) {
			k += dd_frame_set_ref(&s->frames[k], ips[i], &r->usym[i]);
			continue;
		}
		if (dr->sym)
			symbolize_user(dr->sym, ips[i], i > 0, &f);
		k += dd_frame_set_sym(&s->frames[k], &f);
	}
	s->nframes = k;
	return walked;
}

static void collect_stacks(struct drill *dr, struct detail *d)
{
	struct dd_stacks_info *st = &d->st;
	unsigned rate = stacks_rate(dr->st);
	long page = sysconf(_SC_PAGESIZE);
	size_t n = stacks_read(dr->st, &dr->recs, &dr->recs_cap, &st->tot);
	uint64_t weight = 0, shallow = 0;

	d->stacks = xcalloc(n ? n : 1, sizeof(*d->stacks));
	for (size_t i = 0; i < n; i++) {
		int walked = build_stack(dr, &dr->recs[i], rate, page, &d->stacks[d->nstacks++]);

		weight += dr->recs[i].events;
		if (walked <= 1)
			shallow += dr->recs[i].events;
	}
	/* stacks that differed only in what was cut are one */
	detail_merge_stacks(d);
	/* a frame-pointer walk of a program without them; CFI needs no frame pointers */
	st->one_frame = !st->tot.copied && weight >= 8 && shallow * 10 >= weight * 8;
	st->truncated = 0;
	for (size_t i = 0; i < d->nstacks; i++)
		st->truncated += d->stacks[i].truncated;
	st->unmapped_faults = dr->unmapped * rate;
}

static int collect(struct drill *dr, struct detail *d)
{
	unsigned long long ticks;
	bool gone = start_ticks(dr->pid, &ticks) || ticks != dr->start_ticks;

	if (!gone && detail_read(dr->pid, d))
		gone = true;
	if (gone) {
		detail_clear(d);
		d->pid = dr->pid;
		d->gone = true;
	}
	d->st.on = dr->st != NULL;
	snprintf(d->st.why, sizeof(d->st.why), "%s", dr->why);
	d->st.seconds = clock_mono() - dr->opened;
	if (!dr->st) {
		detail_group(d);
		return gone ? -1 : 0;
	}
	unsigned rate = stacks_rate(dr->st);
	uint64_t sig = exec_signature(d);

	d->st.rate = rate;
	/* read before the stacks, so that frames in code mapped since count as junk until
	 * the next collect; once the process is gone, the last read stands */
	if (!gone)
		dr->nexec = detail_exec_ranges(d, &dr->exec, &dr->exec_cap);
	if (!gone && sig != dr->exec_sig)
		stacks_maps_changed(dr->st);
	if (!gone && dr->sym && sig != dr->exec_sig && !symbolizer_refresh(dr->sym))
		dr->exec_sig = sig;
	if (!gone && !dr->sym)
		dr->sym = symbolizer_new(dr->pid);
	dr->cur = d;
	stacks_drain_pages(dr->st, on_page, dr);
	dr->cur = NULL;
	for (size_t i = 0; i < d->nmaps; i++)
		d->maps[i].faults =
			tally_get(&dr->by_map, d->maps[i].start, dd_map_label(&d->maps[i])) * rate;
	detail_group(d);
	add_unmapped_files(dr, d, rate);
	collect_stacks(dr, d);
	return gone ? -1 : 0;
}

int drill_collect(struct drill *dr, struct detail *d)
{
	int rc = collect(dr, d);

	dl_fill(dr->leaks, d, rc < 0);
	return rc;
}

void drill_leaks_start(struct drill *dr, double secs)
{
	dl_start(dr->leaks, secs);
}

void drill_leaks_window(struct drill *dr, double secs)
{
	dl_window(dr->leaks, secs);
}

double drill_leaks_end(const struct drill *dr)
{
	return dl_end(dr->leaks);
}

const char *drill_stacks_off(const struct drill *dr)
{
	return dr->st ? NULL : dr->why;
}

void drill_close(struct drill *dr)
{
	if (!dr)
		return;
	stacks_close(dr->st);
	dl_free(dr->leaks);
	symbolizer_free(dr->sym);
	tally_free(&dr->by_map);
	tally_free(&dr->by_file);
	free(dr->recs);
	free(dr->exec);
	free(dr);
}
