#include "pidcache.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static size_t slot(const struct pidcache *pc, int32_t pid)
{
	return (uint32_t)pid * 2654435761u % pc->nbuckets;
}

void pidcache_init(struct pidcache *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->nbuckets = 4096;
	pc->buckets = xcalloc(pc->nbuckets, sizeof(*pc->buckets));
	pc->generation = 1;
}

static void entry_free(struct pid_entry *e)
{
	free(e->cmd);
	free(e->cgroup);
	free(e->cgroup_before);
	free(e);
}

void pidcache_set_cgroup(struct pid_entry *e, const char *path)
{
	e->cgroup_read = true;
	if (!path || (e->cgroup && !strcmp(e->cgroup, path)))
		return;
	free(e->cgroup_before);
	e->cgroup_before = e->cgroup;
	e->cgroup = xstrdup(path);
}

void pidcache_free(struct pidcache *pc)
{
	for (size_t i = 0; i < pc->nbuckets; i++) {
		struct pid_entry *e = pc->buckets[i];
		while (e) {
			struct pid_entry *n = e->next;
			entry_free(e);
			e = n;
		}
	}
	free(pc->buckets);
	memset(pc, 0, sizeof(*pc));
}

struct pid_entry *pidcache_find(struct pidcache *pc, int32_t pid, uint64_t start)
{
	for (struct pid_entry *e = pc->buckets[slot(pc, pid)]; e; e = e->next) {
		if (e->pid == pid && e->start_ticks == start) {
			e->seen = pc->generation;
			return e;
		}
	}
	return NULL;
}

struct pid_entry *pidcache_add(struct pidcache *pc, int32_t pid, uint64_t start)
{
	struct pid_entry *e = xcalloc(1, sizeof(*e));
	e->pid = pid;
	e->start_ticks = start;
	e->seen = pc->generation;
	size_t i = slot(pc, pid);
	e->next = pc->buckets[i];
	pc->buckets[i] = e;
	pc->count++;
	return e;
}

void pidcache_sweep(struct pidcache *pc)
{
	for (size_t i = 0; i < pc->nbuckets; i++) {
		struct pid_entry **pp = &pc->buckets[i];
		while (*pp) {
			struct pid_entry *e = *pp;
			if (e->seen + 1 < pc->generation) {
				*pp = e->next;
				entry_free(e);
				pc->count--;
			} else {
				pp = &e->next;
			}
		}
	}
	pc->generation++;
}

struct user_entry {
	uint32_t uid;
	char *name;
};

static struct user_entry *users;
static size_t nusers, users_cap;

const char *user_name(uint32_t uid)
{
	for (size_t i = 0; i < nusers; i++)
		if (users[i].uid == uid)
			return users[i].name;
	users = xgrow(users, nusers, &users_cap, sizeof(*users), 32);
	struct passwd *pw = getpwuid(uid);
	char num[16];
	snprintf(num, sizeof(num), "%u", uid);
	users[nusers].uid = uid;
	users[nusers].name = xstrdup(pw ? pw->pw_name : num);
	return users[nusers++].name;
}
