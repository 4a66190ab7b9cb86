/* The scenarios of scenario_machine.h */
#include "scenario_machine.h"

#define MIB 1024.0
#define GIB (1024.0 * 1024.0)

/* pid grows rate KiB/s from 0 to grow_to s, from 4M; a refresh every interval s */
static void grower(struct world *w, int32_t pid, double rate, double grow_to)
{
	int p = w_proc(w, pid, "grower", "grow_child --rate", 0, -1, 4 * MIB, rate);
	w->procs[p].grow_from = 0;
	w->procs[p].grow_to = grow_to;
}

void sc_exhaust64(struct world *w)
{
	w->interval = 2;
	w->until = 114;
	w_background(w);
	grower(w, 3100, 64 * MIB, 30);
	w_machine(w, 32 * GIB, 24 * GIB, 4 * GIB, 2 * GIB);
}

void sc_exhaust256(struct world *w)
{
	w->interval = 1;
	w->until = 50;
	w_background(w);
	grower(w, 3200, 256 * MIB, 40);
	w_machine(w, 128 * GIB, 88 * GIB, 8 * GIB, 8 * GIB);
}

void sc_cg300kill(struct world *w)
{
	w->interval = 2;
	w->until = 52;
	w_background(w);
	int cg = w_cgroup(w, "/cgfc", 4747, 300 * MIB, 72);
	w_proc(w, 4400, "sh", "sh -c grow_child 8 0", cg, -2, 1536, 0);
	int p = w_proc(w, 4401, "grow_child", "grow_child 8 0", cg, -1, 952, 8 * MIB);
	w->procs[p].grow_from = 0;
	w->procs[p].ends = (300 * MIB - 72 - 1536 - 952) / (8 * MIB);
	w->procs[p].oom_killed = true;
	w_machine(w, 8 * GIB, 6 * GIB, 0, 0);
}

void sc_scripts(struct world *w)
{
	w->interval = 1;
	w->until = 64;
	w->bpf = true;
	w_background(w);
	int cg = w_cgroup(w, "/cgpy", 4848, 300 * MIB, 72);
	int p = w_proc(w, 4501, "python3", "python3 /tmp/dir/long-script-name-1.py", cg, -2, 952,
		       8 * MIB);
	w->procs[p].grow_from = 0;
	w->procs[p].ends = (300 * MIB - 72 - 16 * MIB - 952) / (8 * MIB);
	w->procs[p].oom_killed = true;
	w_proc(w, 4502, "python3", "python3 /tmp/dir/long-script-name-2.py", cg, -2, 16 * MIB, 0);
	int h = w_proc(w, 4601, "hog", "hog --touch 6G", 0, -120, 2 * MIB * MIB, 0);
	w->procs[h].swaps_in = true;
	w->swapin_rate = 1000;
	w->swapin_accel = 100;
	w->swapin_lag = 0.002;
	w->swapin_from = 20;
	w_machine(w, 8 * MIB * MIB, 4 * MIB * MIB, 4 * MIB * MIB, 1 * MIB * MIB);
}
