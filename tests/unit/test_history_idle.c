/* The memory of the history and the model where most processes sleep, on a test clock:
 * 10,000 idle processes (their figures never change; 2,000 for the model's hour) and 5
 * new ones a second that live a second each (kept two minutes after they went).
 *
 * - history_idle_hour: an hour of 1 s refreshes holds a few MB of history, no more after
 *   the hour than after ten minutes, and the idle processes' curves still reach an hour
 *   back; a process that changes takes its slots, and gives them back once the change is
 *   older than every sample held.
 * - model_idle_heap: the whole model (model_step: two snapshots, rates, rows, history,
 *   growth, sorting) at those processes, after 130 refreshes (the finest tier full, the
 *   gone ones' two minutes reached), holds under MODEL_BYTES of heap (mallinfo2: in
 *   use, and the mappings of large blocks whole; 16 MiB before the rows kept only the
 *   numbers they compute and the snapshots grew by an eighth); the history adds nothing
 *   after that, as the first test shows. memtop's resident size at 10,000 processes is
 *   that, less the large blocks' untouched pages, plus its code and libraries, the
 *   collector's names and BPF's maps (bench/README.md).
 * - model_idle_hour_heap: the same model, at HOUR_IDLE idle processes, over an hour of
 *   1 s refreshes, with memtop's malloc settings (util.h): under MODEL_BYTES of heap (in
 *   use, and the mappings of large blocks whole) at the hour, and no more than at ten
 *   minutes. */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "history.h"
#include "model.h"
#include "sysfig.h"
#include "unit.h"
#include "util.h"

#define IDLE 10000

/* The processes of a refresh at t: idle idle ones (pid i + 1, RSS 1000 + i % 500 KiB,
 * faults i), pid 20000 whose RSS is 5000 KiB but 6000 at t == change, and 5 that live a
 * second from *next on */
static void add_procs(struct snapshot *s, int t, int32_t *next, int change, int idle)
{
	for (int i = 0; i < idle; i++) {
		struct proc_sample *p = snapshot_add_proc(s);
		p->pid = i + 1;
		p->start_ticks = 100;
		p->fig[PV_RSS] = 1000 + (uint64_t)(i % 500);
		p->fig[PV_MINFLT] = (uint64_t)i;
		p->valid = columns_filled_by(NEED_STAT | NEED_STATM) | COL_BIT(COL_SWAP);
		memcpy(p->comm, "idle", 5);
	}
	struct proc_sample *p = snapshot_add_proc(s);
	p->pid = 20000;
	p->start_ticks = 100;
	p->fig[PV_RSS] = t == change ? 6000 : 5000;
	p->valid = columns_filled_by(NEED_STAT | NEED_STATM) | COL_BIT(COL_SWAP);
	for (int i = 0; i < 5; i++) {
		p = snapshot_add_proc(s);
		p->pid = (*next)++;
		p->start_ticks = 100;
		p->valid = columns_filled_by(NEED_STAT | NEED_STATM);
	}
}

static void history_idle_hour(void **state)
{
	(void)state;
	size_t nfig = n_sys_figures;
	bool mean[nfig];
	double figs[nfig];
	for (size_t f = 0; f < nfig; f++) {
		mean[f] = false;
		figs[f] = (double)f;
	}
	struct history *h = history_new(nfig, mean);
	struct snapshot snap, *s = &snap;
	snapshot_init(s);
	int32_t next = 100000;
	size_t before_change = 0, at_change = 0, at_600 = 0, most = 0;
	for (int t = 0; t < 3600; t++) {
		snapshot_reuse(s);
		s->mono = t;
		s->wall = 1.7e9 + t;
		add_procs(s, t, &next, 30, IDLE);
		history_record(h, s, figs);
		size_t b = history_bytes(h);
		most = b > most ? b : most;
		before_change = t == 29 ? b : before_change;
		at_change = t == 30 ? b : at_change;
		at_600 = t == 600 ? b : at_600;
	}
	size_t bytes = history_bytes(h);
	printf("history: %zu B at %d idle processes + churn after an hour (%zu at most, %zu "
	       "after 10 min)\n",
	       bytes, IDLE, most, at_600);
	assert_true(most < 3u << 20); /* a few MB: a row each, no slots */
	assert_true(bytes <= at_600 + 1024);
	/* the one that changed took its slots, and gave them back once the change was older
	 * than every sample held (the oldest minute's shows its bucket's last refresh, 59 s) */
	assert_true(at_change >= before_change + 184 * history_bytes_per_proc_sample());
	assert_true(bytes < at_change - 184 * history_bytes_per_proc_sample() + 600 * 256);
	double rss[3];
	assert_int_equal(history_proc_series(h, 20000, 100, COL_RSS, 59, 3599, rss, 2), 2);
	assert_float_equal(rss[0], 5000, 1e-9);
	/* an idle process's curve an hour back, and its growth: flat */
	assert_int_equal(history_proc_series(h, 7, 100, COL_RSS, 100, 3599, rss, 3), 3);
	for (int k = 0; k < 3; k++)
		assert_float_equal(rss[k], 1006, 1e-9);
	double kb_min;
	bool leak = true;
	assert_true(history_growth(h, 7, 100, INFINITY, 600, &kb_min, &leak));
	assert_float_equal(kb_min, 0, 1e-9);
	assert_false(leak);
	history_free(h);
	snapshot_free(s);
}

/* The model's bytes a process at the hour (two snapshots of 296, the room a snapshot grows
 * by, a row of 88 and the room the rows grow by, the history's record of 136 and its
 * pointers): what memtop's resident size at 10,000 processes is made of, beside its code,
 * its libraries, the collector's names and BPF's maps (bench/README.md) */
#define MODEL_BYTES(idle) ((unsigned)(idle)*1000u + (1u << 20))

/* The model's hour (3,600 refreshes) at fewer idle processes: what it tests, that the
 * heap holds no more after the hour than after ten minutes, is not the processes' count
 * (model_idle_heap bounds the heap at IDLE), and it costs a fifth */
#define HOUR_IDLE 2000

/* UNDER_ASAN: built with AddressSanitizer (gcc says so by a macro, clang by a feature) */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

/* The model's refresh at t of add_procs's processes */
static void model_refresh(struct model *m, int t, int32_t *next, int change, int idle)
{
	struct snapshot *s = model_begin(m);
	s->mono = s->mono_procs = t;
	s->wall = 1.7e9 + t;
	s->uptime = 1000 + t;
	s->hertz = 100;
	s->mem[MI_MEM_TOTAL] = 32 << 20;
	s->mem[MI_MEM_AVAILABLE] = 30 << 20;
	add_procs(s, t, next, change, idle);
	model_step(m);
}

static void model_idle_heap(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	size_t before = heap_in_use();
	model_init(&m, &pr);
	int32_t next = 100000;
	for (int t = 0; t < 130; t++) {
		model_refresh(&m, t, &next, -1, IDLE);
	}
	size_t after = heap_in_use(); /* under ASan, its own allocator's: no figure */
	size_t heap = after > before ? after - before : 0;
	printf("model: %zu B of heap at %d idle processes + churn, %zu B of it history\n", heap,
	       IDLE, history_bytes(m.hist));
	assert_true(heap < MODEL_BYTES(IDLE));
	model_free(&m);
}

static void model_idle_hour_heap(void **state)
{
	(void)state;
#if UNDER_ASAN
	skip(); /* ASan's allocator gives no heap figure to bound: nothing to judge */
#endif
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	malloc_settings();
	size_t before = heap_in_use(), at_600 = 0;
	model_init(&m, &pr);
	int32_t next = 100000;
	for (int t = 0; t < 3600; t++) {
		model_refresh(&m, t, &next, 1000, HOUR_IDLE);
		if (t == 600)
			at_600 = heap_in_use();
	}
	size_t after = heap_in_use(); /* under ASan, its own allocator's: no figure */
	size_t heap = after > before ? after - before : 0;
	printf("model: %zu B of heap at %d idle processes + churn after an hour (%.0f B a "
	       "process), %zu B of it history; %zu B after 10 min\n",
	       heap, HOUR_IDLE, (double)heap / HOUR_IDLE, history_bytes(m.hist),
	       at_600 > before ? at_600 - before : 0);
	assert_true(heap < MODEL_BYTES(HOUR_IDLE));
	assert_true(after <= at_600 + (64u << 10));
	model_free(&m);
}

UNIT_GROUP(history_idle)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(history_idle_hour),
					   cmocka_unit_test(model_idle_heap),
					   cmocka_unit_test(model_idle_hour_heap)};
	return cmocka_run_group_tests_name("history_idle", tests, NULL, NULL);
}
