/* The scenarios of growth and of the verdict on it (scenario_growth.h) */
#include "scenario_growth.h"

#define MIB 1024.0
#define GIB (1024.0 * MIB)

/* A machine of total KiB with avail KiB available at the start, no swap, and its usual
 * processes, steady, in the root cgroup (what they hold is within avail) */
static void machine(struct world *w, double interval, double until, double total, double avail)
{
	w->interval = interval;
	w->until = until;
	w_root(w);
	w_proc(w, 1, "systemd", "/sbin/init", 0, -86000, 12288, 0);
	w_proc(w, 412, "sshd", "sshd: /usr/sbin/sshd -D", 0, -85000, 7168, 0);
	w->mem_total_kb = total;
	w->avail_base_kb = avail + 12288 + 7168;
	w->cached_kb = total / 8;
	w->buffers_kb = 20 * MIB;
	w->slab_kb = 120 * MIB;
	w->shmem_kb = 16 * MIB;
}

/* What the processes born at or before 0 hold then is not yet in avail_base_kb */
static void hold_at_start(struct world *w, int p)
{
	w->avail_base_kb += w_rss(&w->procs[p], 0);
}

/* A refresh every 0.5 s, so that each burst is seen in 5 refreshes (enough samples for a
 * fit, over less than GROW's 30 s); a pair of bursts every 3.8 s, each alive 2.5 s: grows
 * 100 MiB/s from 1M for 2 s, holds, exits */
void sc_bursts(struct world *w)
{
	machine(w, 0.5, 100, 16 * GIB, 12 * GIB);
	int p = w_proc(w, 4001, "steady", "steady --rate 1M", 0, 0, 2 * MIB, MIB);
	hold_at_start(w, p);
	for (int k = 0; k < 25; k++)
		for (int j = 0; j < 2; j++) {
			double born = 0.25 + 3.8 * k;
			p = w_proc(w, 5000 + 2 * k + j, "burst", "burst --rate 100M --for 2", 0,
				   born, MIB, 100 * MIB);
			w->procs[p].grow_to = born + 2;
			w->procs[p].ends = born + 2.5;
		}
}

void sc_grow5(struct world *w)
{
	machine(w, 1, 32, 8 * GIB, 6 * GIB);
	hold_at_start(w, w_proc(w, 8001, "idle", "idle --hold 8M", 0, -5, 8 * MIB, 0));
	hold_at_start(w, w_proc(w, 8002, "grower", "grower --rate 5M", 0, 0, MIB, 5 * MIB));
}

/* 10G available run out at 64 MiB/s in ~160 s */
void sc_leak64(struct world *w)
{
	machine(w, 1, 37, 16 * GIB, 10 * GIB);
	hold_at_start(w, w_proc(w, 9100, "leaky", "leaky --rate 64M", 0, 0, MIB, 64 * MIB));
}

/* /verdict (300M): 7301 grower, from 952K at 0, grows 16 MiB/s to 16 s (usage 80 % from
 * 14.94 s), then holds to the end at 60 s; 7400 builder in the root cgroup grows 4 MiB/s
 * all along, so the machine's 12G available run out in ~50 min once grower holds */
void sc_cg300(struct world *w)
{
	machine(w, 1, 60, 16 * GIB, 12 * GIB);
	int cg = w_cgroup(w, "/verdict", 7300, 300 * MIB, 72);
	int p = w_proc(w, 7301, "grower", "grower --rate 16M --for 16", cg, 0, 952, 16 * MIB);
	w->procs[p].grow_to = 16;
	hold_at_start(w, p);
	p = w_proc(w, 7400, "builder", "builder --rate 4M", 0, -600, 512 * MIB, 4 * MIB);
	w->procs[p].grow_from = 0;
	hold_at_start(w, p);
}
