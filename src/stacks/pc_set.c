#include "pc_set.h"

#include <string.h>

static size_t slot(uint64_t pc)
{
	return (size_t)((pc * 0x9e3779b97f4a7c15ULL) >> 52) & (PC_SET_SLOTS - 1);
}

bool pc_set_has(const struct pc_set *s, uint64_t pc)
{
	for (size_t i = slot(pc); s->pc[i]; i = (i + 1) & (PC_SET_SLOTS - 1))
		if (s->pc[i] == pc)
			return true;
	return false;
}

void pc_set_add(struct pc_set *s, uint64_t pc)
{
	size_t i;

	if (!pc || pc_set_has(s, pc))
		return;
	if (s->n * 2 >= PC_SET_SLOTS)
		pc_set_clear(s);
	for (i = slot(pc); s->pc[i]; i = (i + 1) & (PC_SET_SLOTS - 1))
		;
	s->pc[i] = pc;
	s->n++;
}

void pc_set_clear(struct pc_set *s)
{
	memset(s, 0, sizeof(*s));
}
