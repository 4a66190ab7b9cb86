/* The state the recording's encoder and decoder keep (reccodec.h): the previous sample,
 * against which the next is encoded, and the strings snapshots may still point at. */
#include <stdlib.h>
#include <string.h>

#include "reccodec_impl.h"
#include "util.h"

void rec_state_init(struct rec_state *st)
{
	memset(st, 0, sizeof(*st));
}

void bury(struct rec_state *st, char *p)
{
	if (!p)
		return;
	if (st->ndead == st->deadcap) {
		st->deadcap = st->deadcap ? st->deadcap * 2 : 256;
		st->dead = xrealloc(st->dead, st->deadcap * sizeof(*st->dead));
		st->dead_gen = xrealloc(st->dead_gen, st->deadcap * sizeof(*st->dead_gen));
	}
	st->dead[st->ndead] = p;
	st->dead_gen[st->ndead++] = st->gen;
}

/* Frees what no snapshot of the last two samples can point at */
void sweep(struct rec_state *st, bool all)
{
	size_t k = 0;
	for (size_t i = 0; i < st->ndead; i++) {
		if (all || st->dead_gen[i] + 2 <= st->gen) {
			free(st->dead[i]);
			continue;
		}
		st->dead[k] = st->dead[i];
		st->dead_gen[k++] = st->dead_gen[i];
	}
	st->ndead = k;
}

void rec_state_reset(struct rec_state *st)
{
	for (size_t i = 0; i < st->nprocs; i++) {
		bury(st, st->procs[i].cmd);
		bury(st, st->procs[i].user);
		bury(st, st->procs[i].cgroup);
	}
	for (size_t i = 0; i < st->ncgs; i++)
		free(st->cgs[i].path);
	free(st->cg_self_path);
	st->cg_self_path = NULL;
	st->nprocs = st->ncgs = 0;
	for (int i = 0; i < REC_PARTS; i++)
		st->parts[i].n = 0;
	memset(&st->sys, 0, sizeof(st->sys));
	st->have = false;
}

void rec_state_free(struct rec_state *st)
{
	rec_state_reset(st);
	sweep(st, true);
	free(st->dead);
	free(st->dead_gen);
	free(st->procs);
	free(st->tmp);
	free(st->cgs);
	for (int i = 0; i < REC_PARTS; i++)
		free(st->parts[i].p);
	memset(st, 0, sizeof(*st));
}

/* The previous sample's process pid, started at start, from index *j on */
struct rec_proc *find_base(struct rec_state *st, size_t *j, int32_t pid)
{
	while (*j < st->nprocs && st->procs[*j].p.pid < pid)
		(*j)++;
	return *j < st->nprocs && st->procs[*j].p.pid == pid ? &st->procs[*j] : NULL;
}

struct rec_proc *tmp_room(struct rec_state *st, size_t n)
{
	if (n > st->tmpcap) {
		st->tmpcap = n + n / 4 + 16;
		free(st->tmp);
		st->tmp = xmalloc(st->tmpcap * sizeof(*st->tmp));
	}
	return st->tmp;
}

/* The new processes become the previous sample; strings the new ones did not take are
 * freed (buried when snapshots may point at them) */
void take_procs(struct rec_state *st, size_t n, bool keep_dead)
{
	for (size_t i = 0; i < st->nprocs; i++) {
		char *s[3] = {st->procs[i].cmd, st->procs[i].user, st->procs[i].cgroup};
		for (int k = 0; k < 3; k++)
			keep_dead ? bury(st, s[k]) : free(s[k]);
	}
	SWAP(st->procs, st->tmp);
	SWAP(st->cap, st->tmpcap);
	st->nprocs = n;
}
