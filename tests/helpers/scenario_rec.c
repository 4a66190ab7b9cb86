/* scenario_rec NAME OUT.rec: writes a memtop recording of a scripted, exactly known
 * situation (scenario_world.h), a refresh every 1 or 2 s of simulated time, and prints
 * the truth of each refresh (the figures written, each growth and the seconds each limit
 * has left at it) as one JSON line, for the tests that replay it
 * (tests/cli/scenario_replay.sh, the verdict_*, forecast_* tests). scenario_rec list: the names.
 *
 * The scenarios are the verdict's and the forecasts' hard cases:
 *   cg40      /leak (memory.max 200M) grows 4 MiB/s from one process, 40 s from its limit
 *             at the first forecast, beside a machine that runs out in ~11 min; ends
 *             before the kill
 *   killend   the same run on to the OOM kill of its grower and 20 s past it
 *   avail93   93 % of 8G available, a process leaking 4 MiB/s, no cgroup limit
 *   young     a process 10 s old growing 4 MiB/s in /young (memory.max 1G)
 *   twokills  /batch (300M): a loader grows 4 MiB/s to the first OOM kill, then a
 *             worker grows 4 MiB/s from what it held to the second
 *   drop      a 4 MiB/s leak while another program exits and frees 1.35G
 *   grow10    a process old before the recording grows 1 MiB a minute for 11 minutes:
 *             ten minutes of its samples exist from 600 s on
 *   swapshare a swap-in storm that rises, all of it by one process, whose count (BPF) is
 *             read 2 ms after the machine's (vmstat), as a live refresh reads them
 *   scripts   two python3 scripts in /cgpy, one grown to its OOM kill, and swap-ins that
 *             start at 20 s (scenario_machine.h)
 *   close2    two cgroups run to their limits, the second overtaking the first by little
 *   leak10    a process leaking 64 KiB/s for 12 minutes, a leak suspect from 10
 *   farkills  twokills' /batch with its kills 12.5 minutes apart, further than a replay's
 *             seek window (MONITOR_SEEK_WINDOW) */
#include <stdio.h>
#include <string.h>

#include "scenario_growth.h"
#include "scenario_machine.h"
#include "scenario_world.h"

#define MIB 1024.0

/* /leak, memory.max 200M: 171 python3 grows 4 MiB/s from 1M (the cgroup's usage) at 0,
 * so 37.75 s from the limit at 12 s, the first refresh a forecast may have (5 samples
 * over 12 s); its OOM kill at 49.75 s. The machine (2.8G, 2.6G available, no swap) runs
 * out at the same 4 MiB/s: ~11 min. */
static void leak200(struct world *w, double until)
{
	w->interval = 2;
	w->until = until;
	w_background(w);
	int cg = w_cgroup(w, "/leak", 4242, 200 * MIB, 72);
	int p = w_proc(w, 171, "python3", "python3 leak.py", cg, -1, 952, 4096);
	w->procs[p].grow_from = 0;
	w->procs[p].ends = (200 * MIB - 72 - 952) / 4096;
	w->procs[p].oom_killed = true;
	w_machine(w, 2.8 * MIB * MIB, 2.6 * MIB * MIB, 0, 0);
}

static void cg40(struct world *w)
{
	leak200(w, 48);
}

static void killend(struct world *w)
{
	leak200(w, 70);
}

static void avail93(struct world *w)
{
	w->interval = 2;
	w->until = 90;
	w_background(w);
	int p = w_proc(w, 2345, "leaky", "leaky --rate 4M", 0, -1, 10 * MIB, 4096);
	w->procs[p].grow_from = 0;
	w_machine(w, 8 * MIB * MIB, 0.93 * 8 * MIB * MIB, 0, 0);
}

/* 5120 python3, 10 s old at the start, grows 4 MiB/s in /young (1G): GROW's 30 s of
 * history are not there before 30 s; the cgroup's own forecast is from 12 s */
static void young(struct world *w)
{
	w->interval = 1;
	w->until = 24;
	w_background(w);
	int cg = w_cgroup(w, "/young", 5151, 1024 * MIB, 72);
	w_proc(w, 5120, "python3", "python3 grow.py", cg, -10, 2 * MIB, 4096);
	w_machine(w, 8 * MIB * MIB, 4 * MIB * MIB, 0, 0);
}

/* /batch (300M): 6001 worker holds 100M; 6002 loader grows 4 MiB/s from 0 at -2 s to the
 * limit, killed at 47.98 s; the worker then grows 4 MiB/s to the limit, killed at
 * 97.96 s */
static void twokills(struct world *w)
{
	w->interval = 2;
	w->until = 100;
	w_background(w);
	int cg = w_cgroup(w, "/batch", 6060, 300 * MIB, 72);
	int a = w_proc(w, 6001, "worker", "worker --jobs 4", cg, -100, 100 * MIB, 4096);
	int b = w_proc(w, 6002, "loader", "loader big.csv", cg, -2, 0, 4096);
	double room = 300 * MIB - 72 - 100 * MIB;
	w->procs[b].ends = room / 4096 - 2;
	w->procs[b].oom_killed = true;
	w->procs[a].grow_from = w->procs[b].ends;
	w->procs[a].ends = w->procs[b].ends + room / 4096;
	w->procs[a].oom_killed = true;
	w_machine(w, 8 * MIB * MIB, 6 * MIB * MIB, 0, 0);
}

/* 4G, 768M available and 256M of swap free: 7001 leaky takes 4 MiB/s (~4 min left);
 * at 61 s 7100 builder exits and frees 1.35G (~9 min left) */
static void drop(struct world *w)
{
	w->interval = 2;
	w->until = 120;
	w_background(w);
	int p = w_proc(w, 7001, "leaky", "leaky --rate 4M", 0, -1, 10 * MIB, 4096);
	w->procs[p].grow_from = 0;
	int b = w_proc(w, 7100, "builder", "make -j8 world", 0, -300, 1.35 * MIB * MIB, 0);
	w->procs[b].ends = 61;
	w_machine(w, 4 * MIB * MIB, 768 * MIB, 512 * MIB, 256 * MIB);
}

/* 8G, 4G available: 2345 leaky, started an hour before the recording, grows 1 MiB a
 * minute from its start, a refresh every 5 s for 11 minutes */
static void grow10(struct world *w)
{
	w->interval = 5;
	w->until = 660;
	w_background(w);
	int p = w_proc(w, 2345, "leaky", "leaky --rate 1M/min", 0, -3600, 64 * MIB, MIB / 60);
	w->procs[p].grow_from = 0;
	w_machine(w, 8 * MIB * MIB, 4 * MIB * MIB, 0, 0);
}

/* 8G, swap 4G: 5224 hog swaps in 10,000 pages/s at 0, 200 more each second */
static void swapshare(struct world *w)
{
	w->interval = 2;
	w->until = 30;
	w_background(w);
	int p = w_proc(w, 5224, "hog", "hog --touch 6G", 0, -120, 5 * MIB * MIB, 0);
	w->procs[p].swaps_in = true;
	w->swapin_rate = 10000;
	w->swapin_accel = 100;
	w->swapin_lag = 0.002;
	w_machine(w, 8 * MIB * MIB, 1.5 * MIB * MIB, 4 * MIB * MIB, 1 * MIB * MIB);
}

/* /a and /b (200M each) run to their limits: /a from 40M at 4 MiB/s (out at 40 s), /b
 * from 40M at 3 MiB/s and 5 MiB/s from 15 s (out at 38 s): /b overtakes /a by less than
 * a quarter of its time */
static void close2(struct world *w)
{
	w->interval = 1;
	w->until = 34;
	w_background(w);
	int a = w_cgroup(w, "/a", 7001, 200 * MIB, 72);
	int b = w_cgroup(w, "/b", 7002, 200 * MIB, 72);
	int p = w_proc(w, 7101, "filler", "filler --rate 4M", a, -60, 40 * MIB, 4096);
	w->procs[p].grow_from = 0;
	p = w_proc(w, 7201, "loader", "loader --rate 3M", b, -60, 40 * MIB, 3072);
	w->procs[p].grow_from = 0;
	p = w_proc(w, 7202, "indexer", "indexer --rate 2M", b, -60, 952, 2048);
	w->procs[p].grow_from = 15;
	w_machine(w, 8 * MIB * MIB, 6 * MIB * MIB, 0, 0);
}

/* 9001 leaky, started at 0, grows 64 KiB/s steadily, a refresh every 10 s for 12 min: a
 * leak suspect once memtop has seen it ten minutes (history_trends.c) */
static void leak10(struct world *w)
{
	w->interval = 10;
	w->until = 720;
	w_background(w);
	int p = w_proc(w, 9001, "leaky", "leaky --rate 64K", 0, 0, 8 * MIB, 64);
	w->procs[p].grow_from = 0;
	w_machine(w, 8 * MIB * MIB, 6 * MIB * MIB, 0, 0);
}

/* /batch (300M): 6002 loader grows 4 MiB/s to the limit, killed at 49.98 s; 6001 worker
 * holds 100M, grows 1 MiB/s from 600 s and is killed at 800 s */
static void farkills(struct world *w)
{
	w->interval = 10;
	w->until = 900;
	w_background(w);
	int cg = w_cgroup(w, "/batch", 6060, 300 * MIB, 72);
	int a = w_proc(w, 6001, "worker", "worker --jobs 4", cg, -100, 100 * MIB, 1024);
	int b = w_proc(w, 6002, "loader", "loader big.csv", cg, -2, 0, 4096);
	double room = 300 * MIB - 72 - 100 * MIB;
	w->procs[b].ends = room / 4096 - 2;
	w->procs[b].oom_killed = true;
	w->procs[a].grow_from = 600;
	w->procs[a].ends = 600 + room / 1024;
	w->procs[a].oom_killed = true;
	w_machine(w, 8 * MIB * MIB, 6 * MIB * MIB, 0, 0);
}

static const struct {
	const char *name;
	void (*make)(struct world *);
} scenarios[] = {
	{"cg40", cg40},
	{"killend", killend},
	{"avail93", avail93},
	{"young", young},
	{"twokills", twokills},
	{"drop", drop},
	{"grow10", grow10},
	{"swapshare", swapshare},
	{"leak10", leak10},
	{"farkills", farkills},
	{"close2", close2},
	{"bursts", sc_bursts},
	{"grow5", sc_grow5},
	{"leak64", sc_leak64},
	{"cg300", sc_cg300},
	{"exhaust64", sc_exhaust64},
	{"exhaust256", sc_exhaust256},
	{"cg300kill", sc_cg300kill},
	{"scripts", sc_scripts},
};
#define NSCEN (sizeof(scenarios) / sizeof(scenarios[0]))

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "list")) {
		for (size_t i = 0; i < NSCEN; i++)
			printf("%s\n", scenarios[i].name);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr,
			"usage: scenario_rec NAME OUT.rec (scenario_rec list: the names)\n");
		return 2;
	}
	for (size_t i = 0; i < NSCEN; i++) {
		if (strcmp(argv[1], scenarios[i].name))
			continue;
		static struct world w;
		scenarios[i].make(&w);
		return w_record(&w, argv[2]);
	}
	fprintf(stderr, "scenario_rec: no such scenario (scenario_rec list: the names)\n");
	return 2;
}
