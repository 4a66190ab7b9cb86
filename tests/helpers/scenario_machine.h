/* scenario_rec's scenarios of the machine's forecast and a cgroup's run to its OOM kill
 * (scenario_machine.c), for the screen tests that replay them */
#ifndef SCENARIO_MACHINE_H
#define SCENARIO_MACHINE_H

#include "scenario_world.h"

/* 3100 grower takes 64 MiB/s of a 32G machine (26G of room) for 30 s, then holds its
 * size; 84 s more */
void sc_exhaust64(struct world *w);
/* 3200 grower takes 256 MiB/s of a 128G machine (96G of room) for 40 s, then holds its
 * size; 10 s more */
void sc_exhaust256(struct world *w);
/* /cgfc (memory.max 300M): 4401 grow_child grows 8 MiB/s beside its parent 4400 sh to
 * the OOM kill (~37 s), and 15 s past it; a refresh every 2 s */
void sc_cg300kill(struct world *w);
/* Two interpreters' scripts, "python3 /tmp/dir/long-script-name-N.py", in /cgpy
 * (memory.max 300M): 4501 (-1.py) grows 8 MiB/s to its OOM kill (~35 s), 4502 (-2.py)
 * holds 16M; from 20 s 4601 hog swaps in, more each second (BPF on); a refresh a second
 * for 64 s */
void sc_scripts(struct world *w);

#endif
