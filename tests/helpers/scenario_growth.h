/* scenario_rec's scenarios of growth and of the verdict on it (scenario_growth.c):
 *   bursts    50 processes each grow 200 MiB in 2 s and exit, two at a time, beside
 *             4001 steady, which grows 1 MiB/s for the whole run (tests/cli/growth_bursts.sh)
 *   grow5     8002 grower grows 5 MiB/s from the start beside 8001 idle, for 32 s
 *             (tests/cli/growth.sh)
 *   leak64    9100 leaky grows 64 MiB/s on a machine with 10G available, for 37 s
 *             (tests/cli/verdict_leak.sh)
 *   cg300     /verdict (memory.max 300M): 7301 grower grows 16 MiB/s for 16 s and holds
 *             its 257M (85 %) to 60 s, beside a machine that runs out in ~50 min
 *             (tests/cli/verdict_cgroup.sh) */
#ifndef SCENARIO_GROWTH_H
#define SCENARIO_GROWTH_H

#include "scenario_world.h"

void sc_bursts(struct world *w);
void sc_grow5(struct world *w);
void sc_leak64(struct world *w);
void sc_cg300(struct world *w);

#endif
