#include "strtab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void put(struct strtab *t, char *s)
{
	size_t i = hash_str(s) & (t->cap - 1);

	while (t->s[i])
		i = (i + 1) & (t->cap - 1);
	t->s[i] = s;
	t->n++;
}

const char *strtab_intern(struct strtab *t, const char *s)
{
	if (t->cap) {
		for (size_t i = hash_str(s) & (t->cap - 1); t->s[i]; i = (i + 1) & (t->cap - 1))
			if (!strcmp(t->s[i], s))
				return t->s[i];
	}
	if ((t->n + 1) * 2 > t->cap) {
		struct strtab old = *t;

		t->cap = old.cap ? old.cap * 2 : 256;
		t->s = xcalloc(t->cap, sizeof(*t->s));
		t->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.s[i])
				put(t, old.s[i]);
		free(old.s);
	}
	char *copy = xstrdup(s);

	put(t, copy);
	return copy;
}

void strtab_free(struct strtab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->s[i]);
	free(t->s);
	memset(t, 0, sizeof(*t));
}
