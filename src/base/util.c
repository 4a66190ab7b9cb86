#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void oom_exit(void)
{
	fputs("memtop: out of memory\n", stderr);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom_exit();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom_exit();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom_exit();
	return p;
}

void malloc_settings(void)
{
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 256 << 10);
	mallopt(M_TRIM_THRESHOLD, 256 << 10);
}

void *xgrow(void *p, size_t n, size_t *cap, size_t size, size_t first)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : first;
	return xrealloc(p, *cap * size);
}

char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d)
		oom_exit();
	return d;
}

/* Reads fd to its end into buf, NUL-terminated, and closes it. */
static long read_fd(int fd, char *buf, size_t size)
{
	size_t off = 0;
	while (off + 1 < size) {
		ssize_t n = read(fd, buf + off, size - 1 - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		off += (size_t)n;
	}
	buf[off] = '\0';
	close(fd);
	return (long)off;
}

long read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	return read_fd(fd, buf, size);
}

long read_config(const char *path, char *buf, size_t size, const char **why)
{
	/* O_NOCTTY: a terminal named by mistake must not become memtop's controlling one */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;

	if (fd >= 0 && fstat(fd, &st)) {
		int e = errno;
		close(fd);
		errno = e;
		fd = -1;
	}
	if (fd >= 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		*why = errno == EISDIR ? strerror(errno) : "not a regular file";
		return -1;
	}
	long n = fd < 0 ? -1 : read_fd(fd, buf, size);
	if (n < 0)
		*why = strerror(errno);
	return n;
}

int read_proc_int(int pid, const char *name, int *out)
{
	char path[64], buf[32], *end;
	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || v < INT_MIN || v > INT_MAX) {
		errno = EINVAL;
		return -1;
	}
	*out = (int)v;
	return 0;
}

void tbuf_grow(struct tbuf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	while (cap - b->n < more)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void tbuf_printf(struct tbuf *b, const char *fmt, ...)
{
	va_list ap;
	tbuf_room(b, 256);
	va_start(ap, fmt);
	int n = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->n) {
		tbuf_room(b, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
	}
	b->n += (size_t)n;
}

/* Why the last write of tbuf_write that failed did, for output_failed to say */
static int write_errno;

int tbuf_write(struct tbuf *b, FILE *f)
{
	const char *p = b->s;
	size_t left = b->n;
	int fd = fileno(f);

	b->n = 0;
	if (fd >= 0 && fflush(f) == 0) {
		while (left) {
			ssize_t k = write(fd, p, left);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				break; /* stdio tries the rest, and keeps the error */
			p += k;
			left -= (size_t)k;
		}
	}
	if ((left && fwrite(p, 1, left, f) != left) || fflush(f)) {
		write_errno = errno;
		return EOF;
	}
	return 0;
}

bool output_failed(FILE *f, const char *name)
{
	errno = 0;
	if (fflush(f) && errno)
		write_errno = errno;
	if (!ferror(f))
		return false;
	fprintf(stderr, "memtop: %s: %s\n", name, strerror(write_errno ? write_errno : EIO));
	return true;
}

static double clock_sec(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double clock_mono(void)
{
	return clock_sec(CLOCK_MONOTONIC);
}

double clock_wall(void)
{
	return clock_sec(CLOCK_REALTIME);
}

double clock_mono_to_wall(void)
{
	static double offset;
	static bool done;

	if (done)
		return offset;
	double gap = INFINITY;
	for (int i = 0; i < 8; i++) {
		double m1 = clock_mono(), w = clock_wall(), m2 = clock_mono();
		if (m2 - m1 < gap) {
			gap = m2 - m1;
			offset = w - (m1 + m2) / 2;
		}
	}
	offset = round(offset * 1e3) / 1e3;
	done = true;
	return offset;
}

void die(int status, const char *fmt, ...)
{
	va_list ap;
	fputs("memtop: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

void stop_signals_catch(void)
{
	struct sigaction sa = {.sa_handler = on_stop};

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int stop_signal_caught(void)
{
	return stop_signal;
}

void sleep_until(double when)
{
	double left = when - clock_mono();
	if (left <= 0)
		return;
	struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
	while (nanosleep(&ts, &ts) && errno == EINTR && !stop_signal)
		;
}

bool sorted_name_find(const void *base, size_t n, size_t size, const char *name, size_t *at)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, (const char *)base + mid * size);
		if (!c) {
			*at = mid;
			return true;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	*at = lo;
	return false;
}
