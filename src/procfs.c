#include "procfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Finds "key" at the start of a line followed by sep; stores the number after it. */
static int find_u64(const char *text, const char *key, char sep, uint64_t *out)
{
	size_t klen = strlen(key);
	const char *p = text;
	while (p && *p) {
		if (strncmp(p, key, klen) == 0 && p[klen] == sep) {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(p + klen + 1, &end, 10);
			if (errno || end == p + klen + 1)
				return -1;
			*out = v;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int parse_meminfo(const char *text, struct sys_mem *m)
{
	memset(m, 0, sizeof(*m));
	if (find_u64(text, "MemTotal", ':', &m->mem_total_kb) || m->mem_total_kb == 0)
		return -1;
	if (find_u64(text, "MemFree", ':', &m->mem_free_kb))
		return -1;
	find_u64(text, "Buffers", ':', &m->buffers_kb);
	find_u64(text, "Cached", ':', &m->cached_kb);
	find_u64(text, "SReclaimable", ':', &m->sreclaimable_kb);
	find_u64(text, "Shmem", ':', &m->shmem_kb);
	find_u64(text, "SwapTotal", ':', &m->swap_total_kb);
	find_u64(text, "SwapFree", ':', &m->swap_free_kb);
	if (find_u64(text, "MemAvailable", ':', &m->mem_available_kb))
		m->mem_available_kb = m->mem_free_kb + m->buffers_kb + m->cached_kb;
	if (m->mem_free_kb > m->mem_total_kb || m->swap_free_kb > m->swap_total_kb)
		return -1;
	return 0;
}

int parse_vmstat(const char *text, struct sys_vm *v)
{
	memset(v, 0, sizeof(*v));
	if (find_u64(text, "pgfault", ' ', &v->pgfault))
		return -1;
	if (find_u64(text, "pgmajfault", ' ', &v->pgmajfault))
		return -1;
	find_u64(text, "pswpin", ' ', &v->pswpin);
	find_u64(text, "pswpout", ' ', &v->pswpout);
	find_u64(text, "oom_kill", ' ', &v->oom_kill);
	return 0;
}

int parse_psi(const char *text, struct sys_psi *p)
{
	memset(p, 0, sizeof(*p));
	const char *some = strstr(text, "some avg10=");
	const char *full = strstr(text, "full avg10=");
	if (!some)
		return -1;
	char *end;
	p->some_avg10 = strtod(some + 11, &end);
	if (end == some + 11)
		return -1;
	if (full)
		p->full_avg10 = strtod(full + 11, NULL);
	p->present = true;
	return 0;
}

int parse_uptime(const char *text, double *uptime)
{
	char *end;
	*uptime = strtod(text, &end);
	return end == text ? -1 : 0;
}

int procfs_meminfo(struct snapshot *s, char *err, size_t errlen)
{
	char buf[16384];
	if (read_file("/proc/meminfo", buf, sizeof(buf)) < 0) {
		snprintf(err, errlen, "cannot read /proc/meminfo: %s", strerror(errno));
		return -1;
	}
	if (parse_meminfo(buf, &s->mem)) {
		snprintf(err, errlen, "/proc/meminfo is corrupt (no MemTotal or MemFree)");
		return -1;
	}
	return 0;
}

int procfs_counters(struct snapshot *s, char *err, size_t errlen)
{
	char buf[16384];
	if (read_file("/proc/vmstat", buf, sizeof(buf)) < 0) {
		snprintf(err, errlen, "cannot read /proc/vmstat: %s", strerror(errno));
		return -1;
	}
	if (parse_vmstat(buf, &s->vm)) {
		snprintf(err, errlen, "/proc/vmstat is corrupt (no pgfault or pgmajfault)");
		return -1;
	}
	if (read_file("/proc/pressure/memory", buf, sizeof(buf)) < 0 || parse_psi(buf, &s->psi))
		memset(&s->psi, 0, sizeof(s->psi));
	if (read_file("/proc/uptime", buf, sizeof(buf)) < 0 || parse_uptime(buf, &s->uptime)) {
		snprintf(err, errlen, "cannot read /proc/uptime");
		return -1;
	}
	return 0;
}
