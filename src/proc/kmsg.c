#include "kmsg.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define KMSG_TEXT_MAX 2048

/* /dev/kmsg writes bytes outside printable ASCII and the backslash as \xNN. */
static size_t unescape(const char *s, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n && s[i] != '\n' && o + 1 < outlen; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' &&
		    isxdigit((unsigned char)s[i + 2]) && isxdigit((unsigned char)s[i + 3])) {
			char hex[3] = {s[i + 2], s[i + 3], '\0'};
			char c = (char)strtoul(hex, NULL, 16);

			out[o++] = c ? c : '?';
			i += 3;
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = '\0';
	return o;
}

static void copy_str(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static const char *find_last(const char *s, const char *end, const char *needle)
{
	const char *last = NULL;
	size_t nlen = strlen(needle);

	for (const char *q = strstr(s, needle); q && q + nlen <= end; q = strstr(q + 1, needle))
		last = q;
	return last;
}

static unsigned long long field(const char *s, const char *key)
{
	const char *q = strstr(s, key);

	return q ? strtoull(q + strlen(key), NULL, 10) : 0;
}

/* oom-kill:constraint=...,oom_memcg=/a,task_memcg=/a/b,task=comm,pid=N,uid=N */
static void parse_oom_kill(struct kmsg_parser *p, const char *t)
{
	const char *end = t + strlen(t);
	const char *pid = find_last(t, end, ",pid=");
	const char *cg = strstr(t, ",task_memcg=");

	p->memcg_pid = pid ? atoi(pid + 5) : 0;
	p->memcg[0] = '\0';
	if (!pid || !cg || cg > pid)
		return;
	cg += strlen(",task_memcg=");
	const char *task = find_last(cg, pid, ",task=");

	if (task)
		copy_str(p->memcg, sizeof(p->memcg), cg, task - cg);
}

/* "...: Killed process PID (COMM) total-vm:NkB, anon-rss:NkB, file-rss:NkB, shmem-rss:NkB,
 * UID:N pgtables:NkB oom_score_adj:N" */
static int parse_killed(struct kmsg_parser *p, const char *t, struct mt_event *ev)
{
	const char *q = strstr(t, "Killed process ");
	const char *end = t + strlen(t);
	char *after;

	if (!q)
		return 0;
	q += strlen("Killed process ");
	long pid = strtol(q, &after, 10);
	if (after == q || pid <= 0 || strncmp(after, " (", 2) != 0)
		return 0;
	const char *comm = after + 2;
	const char *close = find_last(comm, end, ") total-vm:");
	if (!close)
		return 0;

	memset(ev, 0, sizeof(*ev));
	ev->type = MT_EV_OOM_KILL;
	ev->pid = (int32_t)pid;
	copy_str(ev->comm, sizeof(ev->comm), comm, close - comm);
	ev->total_vm_kb = field(close, "total-vm:");
	ev->anon_rss_kb = field(close, "anon-rss:");
	ev->file_rss_kb = field(close, "file-rss:");
	ev->shmem_rss_kb = field(close, "shmem-rss:");
	ev->uid = (uint32_t)field(close, "UID:");
	if (p->memcg_pid == ev->pid)
		copy_str(ev->memcg, sizeof(ev->memcg), p->memcg, strlen(p->memcg));
	if (p->in_report) {
		ev->trigger_pid = p->trigger_pid;
		copy_str(ev->trigger_comm, sizeof(ev->trigger_comm), p->trigger_comm,
			 strlen(p->trigger_comm));
	}
	p->in_report = false;
	p->memcg_pid = 0;
	return 1;
}

int kmsg_parse_record(struct kmsg_parser *p, const char *rec, size_t len, double mono_to_wall,
		      struct mt_event *ev)
{
	char text[KMSG_TEXT_MAX];
	const char *semi = memchr(rec, ';', len);
	const char *q;
	unsigned long long ts_us;
	char *end;

	if (!semi)
		return 0;
	/* PRI,SEQ,TS_US,FLAGS */
	q = memchr(rec, ',', semi - rec);
	if (!q || !(q = memchr(q + 1, ',', semi - q - 1)))
		return 0;
	ts_us = strtoull(q + 1, &end, 10);
	if (end == q + 1)
		return 0;
	unescape(semi + 1, len - (semi + 1 - rec), text, sizeof(text));

	if ((q = strstr(text, " invoked oom-killer:"))) {
		copy_str(p->trigger_comm, sizeof(p->trigger_comm), text, q - text);
		p->trigger_pid = 0;
		p->in_report = true;
		p->memcg_pid = 0;
		return 0;
	}
	if (p->in_report && !p->trigger_pid && !strncmp(text, "CPU: ", 5) &&
	    (q = strstr(text, " PID: "))) {
		p->trigger_pid = atoi(q + 6);
		return 0;
	}
	if (!strncmp(text, "oom-kill:", 9)) {
		parse_oom_kill(p, text);
		return 0;
	}
	if (!parse_killed(p, text, ev))
		return 0;
	ev->ts = ts_us / 1e6 + mono_to_wall;
	return 1;
}

struct kmsg_reader {
	int fd;
	struct kmsg_parser parser;
	char buf[16384]; /* a record is at most 8 KiB (CONSOLE_EXT_LOG_MAX) */
};

struct kmsg_reader *kmsg_open(void)
{
	return kmsg_open_fd(open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC));
}

struct kmsg_reader *kmsg_open_fd(int fd)
{
	if (fd < 0)
		return NULL;
	struct kmsg_reader *k = xcalloc(1, sizeof(*k));
	k->fd = fd;
	return k;
}

void kmsg_read(struct kmsg_reader *k, void (*fn)(void *arg, const struct mt_event *ev), void *arg)
{
	double mono_to_wall = clock_mono_to_wall();
	struct mt_event ev;

	if (!k)
		return;
	for (;;) {
		ssize_t n = read(k->fd, k->buf, sizeof(k->buf) - 1);

		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue; /* EPIPE: records were overwritten; go on with the next */
		if (n <= 0)
			return;
		k->buf[n] = '\0';
		if (kmsg_parse_record(&k->parser, k->buf, n, mono_to_wall, &ev))
			fn(arg, &ev);
	}
}

void kmsg_close(struct kmsg_reader *k)
{
	if (!k)
		return;
	close(k->fd);
	free(k);
}
