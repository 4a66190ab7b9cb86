#include "procfs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The keys of /proc/meminfo and /proc/vmstat memtop reads, by value (sysfigs.def), their
 * lengths, and whether key_SUFFIX lines add to the value (VMSTAT_SUM) */
struct proc_key {
	const char *key;
	size_t len;
	bool sum;
};

static const struct proc_key meminfo_keys[MI_COUNT] = {
#define MEMINFO(id, key, name)		[MI_##id] = {key, sizeof(key) - 1, false},
#define MEMINFO_FIG(id, key, name, ...) MEMINFO(id, key, name)
#include "sysfigs.def"
};

static const struct proc_key vmstat_keys[VS_COUNT] = {
#define VMSTAT(id, key, name)	       [VS_##id] = {key, sizeof(key) - 1, false},
#define VMSTAT_FIG(id, key, name, ...) VMSTAT(id, key, name)
#define VMSTAT_SUM(id, key, name, ...) [VS_##id] = {key, sizeof(key) - 1, true},
#include "sysfigs.def"
};

/* Reads the decimal number at *p into *out and moves *p past it; a leading '-' is
 * allowed where neg is given (and says whether there was one). Returns -1 where *p holds
 * no number or one too large for 64 bits. */
static int take_num(const char **p, uint64_t *out, bool *neg)
{
	const char *s = *p;
	uint64_t v = 0;

	if (neg)
		*neg = *s == '-';
	if (neg && *neg)
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	*p = s;
	return 0;
}

/* The value whose key is the n bytes at k: its index in keys, -1: none. A key_SUFFIX
 * that is no key of its own is its sum row's key. */
static int key_index(const struct proc_key *keys, int nkeys, const char *k, size_t n, bool sum)
{
	for (int i = 0; i < nkeys; i++)
		if (keys[i].len == n && keys[i].sum >= sum && !memcmp(keys[i].key, k, n))
			return i;
	if (sum)
		return -1;
	const char *u = memrchr(k, '_', n);
	return u ? key_index(keys, nkeys, k, (size_t)(u - k), true) : -1;
}

/* One pass over text's lines "key<sep> number...": the numbers of the keys into out (0
 * where a key is missing or its number unreadable, summed for a sum row, else the first
 * line's); returns the values read, a bit each */
static uint64_t read_keys(const char *text, const struct proc_key *keys, int nkeys, char sep,
			  uint64_t *out)
{
	uint64_t found = 0;

	memset(out, 0, (size_t)nkeys * sizeof(*out));
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t n = strcspn(l, "\n");
		const char *s = memchr(l, sep, n);
		int i = s ? key_index(keys, nkeys, l, (size_t)(s - l), false) : -1;
		uint64_t v, bit = i >= 0 ? 1ull << i : 0;
		if (i < 0 || ((found & bit) && !keys[i].sum))
			continue;
		for (s++; *s == ' '; s++)
			;
		if (take_num(&s, &v, NULL) || (*s && *s != ' ' && *s != '\n'))
			continue;
		out[i] += v;
		found |= bit;
	}
	return found;
}

int parse_meminfo(const char *text, uint64_t mem[MI_COUNT], uint64_t *present)
{
	uint64_t found = read_keys(text, meminfo_keys, MI_COUNT, ':', mem);

	if (!(found & 1ull << MI_MEM_TOTAL) || mem[MI_MEM_TOTAL] == 0 ||
	    !(found & 1ull << MI_MEM_FREE))
		return -1;
	if (!(found & 1ull << MI_MEM_AVAILABLE)) {
		mem[MI_MEM_AVAILABLE] = mem[MI_MEM_FREE] + mem[MI_BUFFERS] + mem[MI_CACHED];
		found |= 1ull << MI_MEM_AVAILABLE;
	}
	if (mem[MI_MEM_FREE] > mem[MI_MEM_TOTAL] || mem[MI_SWAP_FREE] > mem[MI_SWAP_TOTAL])
		return -1;
	if (present)
		*present = found;
	return 0;
}

int parse_vmstat(const char *text, uint64_t vm[VS_COUNT], uint64_t *present)
{
	uint64_t found = read_keys(text, vmstat_keys, VS_COUNT, ' ', vm);

	if (present)
		*present = found;
	return found & 1ull << VS_PGFAULT && found & 1ull << VS_PGMAJFAULT ? 0 : -1;
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
	const char *st = strstr(some, " total="), *ft = full ? strstr(full, " total=") : NULL;
	const char *eol = strchr(some, '\n');
	if (st && (!eol || st < eol) && ft) {
		p->some_total_us = strtoull(st + 7, NULL, 10);
		p->full_total_us = strtoull(ft + 7, NULL, 10);
		p->totals = true;
	}
	p->present = true;
	return 0;
}

int parse_uptime(const char *text, double *uptime)
{
	char *end;
	*uptime = strtod(text, &end);
	return end == text ? -1 : 0;
}

int parse_stat(const char *text, struct pid_stat *st)
{
	memset(st, 0, sizeof(*st));
	/* the comm is anything between "pid (" and the last ')': the fields after it are
	 * numbers and one state letter */
	const char *open = strchr(text, '(');
	const char *close = strrchr(text, ')');
	const char *p = text;
	uint64_t v;

	if (!open || !close || close < open)
		return -1;
	if (take_num(&p, &v, NULL) || v > INT32_MAX || p[0] != ' ' || p + 1 != open)
		return -1;
	st->pid = (int32_t)v;
	size_t len = (size_t)(close - open - 1);
	if (len > MT_COMM_LEN)
		len = MT_COMM_LEN;
	memcpy(st->comm, open + 1, len);
	st->comm[len] = '\0';

	/* every field up to starttime ends with a space: more follow it (vsize...), so a
	 * line cut short anywhere before them fails */
	p = close + 1;
	if (p[0] != ' ' || p[1] == '\0' || p[1] == ' ' || p[2] != ' ')
		return -1;
	st->state = p[1];
	p += 3;
	for (int field = 4; field <= 22; field++) {
		bool neg;
		if (take_num(&p, &v, &neg))
			return -1;
		if (*p != ' ')
			return -1;
		p++;
		switch (field) {
		case 4:
			if (v > INT32_MAX)
				return -1;
			st->ppid = (int32_t)v;
			break;
		case 9:
			st->flags = v;
			break;
		case 10:
			st->minflt = v;
			break;
		case 12:
			st->majflt = v;
			break;
		case 22:
			st->start_ticks = v;
			break;
		default:
			continue; /* signed fields (tpgid, priority, nice) may be negative */
		}
		if (neg)
			return -1;
	}
	return 0;
}

int parse_statm(const char *text, struct pid_statm *sm)
{
	uint64_t *fields[] = {&sm->size, &sm->resident, &sm->shared, &sm->text,
			      &sm->lib,	 &sm->data,	&sm->dt};
	const char *p = text;

	memset(sm, 0, sizeof(*sm));
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		if (take_num(&p, fields[i], NULL))
			return -1;
		if (*p != (i + 1 < ARRAY_SIZE(fields) ? ' ' : '\n'))
			return -1; /* cut short */
		p++;
	}
	return 0;
}

/* path read into buf (size) and parsed into vals by parse, its presence bits into *present
 * against the default ones; -1 with the one-line reason in err (missing names what the
 * parser needs) */
static int read_counters(const char *path, char *buf, size_t size,
			 int (*parse)(const char *, uint64_t *, uint64_t *), uint64_t *vals,
			 uint64_t *presence, uint64_t dflt, const char *missing, char *err,
			 size_t errlen)
{
	uint64_t present;

	if (read_file(path, buf, size) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (parse(buf, vals, &present)) {
		snprintf(err, errlen, "%s is corrupt (no %s)", path, missing);
		return -1;
	}
	*presence = present ^ dflt;
	return 0;
}

int procfs_meminfo(struct snapshot *s, char *err, size_t errlen)
{
	char buf[16384];

	return read_counters("/proc/meminfo", buf, sizeof(buf), parse_meminfo, s->mem,
			     &s->mem_presence, MI_PRESENT_DEFAULT, "MemTotal or MemFree", err,
			     errlen);
}

int procfs_counters(struct snapshot *s, char *err, size_t errlen)
{
	char buf[16384];
	if (read_counters("/proc/vmstat", buf, sizeof(buf), parse_vmstat, s->vm, &s->vm_presence,
			  VS_PRESENT_DEFAULT, "pgfault or pgmajfault", err, errlen))
		return -1;
	if (read_file("/proc/pressure/memory", buf, sizeof(buf)) < 0 || parse_psi(buf, &s->psi))
		memset(&s->psi, 0, sizeof(s->psi));
	if (read_file("/proc/uptime", buf, sizeof(buf)) < 0 || parse_uptime(buf, &s->uptime)) {
		snprintf(err, errlen, "cannot read /proc/uptime");
		return -1;
	}
	return 0;
}

/* Copies a mountinfo field, undoing its octal escapes (\040 for a space) */
static void unescape(const char *f, size_t len, char *out, size_t size)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 1 < size; i++) {
		bool esc = f[i] == '\\' && i + 3 < len && f[i + 1] >= '0' && f[i + 1] <= '3' &&
			   f[i + 2] >= '0' && f[i + 2] <= '7' && f[i + 3] >= '0' && f[i + 3] <= '7';
		out[o++] =
			esc ? (char)((f[i + 1] - '0') * 64 + (f[i + 2] - '0') * 8 + f[i + 3] - '0')
			    : f[i];
		i += esc ? 3 : 0;
	}
	out[o] = '\0';
}

/* Whether word is one of the sep-separated words of list (len bytes) */
static bool has_word(const char *list, size_t len, const char *word, char sep)
{
	size_t wl = strlen(word);
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i + n < len && list[i + n] != sep)
			n++;
		if (n == wl && !strncmp(list + i, word, wl))
			return true;
		i += n + 1;
	}
	return false;
}

size_t parse_cgroup_mounts(const char *text, struct cg_mount *out, size_t max)
{
	size_t found = 0;

	for (const char *l = text; l && *l && found < max;
	     l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPEROPTS
		 */
		const char *f[6], *p = l, *eol = l + strcspn(l, "\n");
		size_t flen[6];
		int n = 0;
		for (; n < 6 && p < eol; n++) {
			f[n] = p;
			flen[n] = strcspn(p, " \n");
			p += flen[n] + (p[flen[n]] == ' ');
		}
		const char *dash = strncmp(p, "- ", 2) ? strstr(p, " - ") : p - 1;
		if (n < 6 || !dash || dash >= eol)
			continue;
		const char *type = dash + 3;
		size_t tlen = strcspn(type, " \n");
		const char *src = type + tlen + (type[tlen] == ' ');
		const char *opts = src + strcspn(src, " \n");
		opts += *opts == ' ';
		int version = 0;
		if (tlen == 6 && !strncmp(type, "cgroup", 6) &&
		    has_word(opts, strcspn(opts, " \n"), "memory", ','))
			version = 1;
		else if (tlen == 7 && !strncmp(type, "cgroup2", 7))
			version = 2;
		if (!version)
			continue;
		out[found].version = version;
		unescape(f[4], flen[4], out[found].mount, sizeof(out[found].mount));
		unescape(f[3], flen[3], out[found].root, sizeof(out[found].root));
		found++;
	}
	return found;
}

int parse_proc_cgroup(const char *text, int version, char *path, size_t len)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		/* ID:CONTROLLERS:PATH; v2's line is 0::PATH */
		const char *c1 = strchr(l, ':'), *eol = l + strcspn(l, "\n");
		const char *c2 =
			c1 && c1 < eol ? memchr(c1 + 1, ':', (size_t)(eol - c1 - 1)) : NULL;
		if (!c2 || c2[1] != '/')
			continue;
		bool match = version == 2 ? c2 == c1 + 1 && c1 == l + 1 && *l == '0'
					  : has_word(c1 + 1, (size_t)(c2 - c1 - 1), "memory", ',');
		if (!match || (size_t)(eol - c2 - 1) >= len)
			continue;
		memcpy(path, c2 + 1, (size_t)(eol - c2 - 1));
		path[eol - c2 - 1] = '\0';
		return 0;
	}
	return -1;
}
