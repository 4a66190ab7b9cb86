/* Small helpers shared by every part: allocation that cannot return NULL, file reads, clocks. */
#ifndef MEMTOP_UTIL_H
#define MEMTOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* Exchanges two variables of one type: a list built beside the one before it, and then
 * the two trading places */
#define SWAP(a, b)                                                                                 \
	do {                                                                                       \
		__typeof__(a) swap_tmp_ = (a);                                                     \
		(a) = (b);                                                                         \
		(b) = swap_tmp_;                                                                   \
	} while (0)

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* The allocator's settings for a resident size that follows what memtop holds; call it
 * before a thread allocates (monitor_open, before the BPF loader's). One arena: a
 * thread's own arena keeps the top of its heap (the kernel's BTF, once parsed) resident,
 * and malloc_trim releases only the main arena's. Fixed thresholds rather than glibc's
 * sliding ones, which rise to twice the largest block freed, so the free top of the heap
 * stayed resident: blocks of 256 KiB and more (the snapshots, the rows, the history's
 * arrays) are mappings of their own, grown without a copy and given back when freed, and
 * the heap's free top is given back past 256 KiB. */
void malloc_settings(void);
/* The array p of n elements of size bytes, with room for *cap of them, given room for one
 * more: when full, its room doubles (is first, the first time). */
void *xgrow(void *p, size_t n, size_t *cap, size_t size, size_t first);
char *xstrdup(const char *s);

/* Reads a whole (small) file into buf, NUL-terminated. Returns bytes read or -1 with errno set. */
long read_file(const char *path, char *buf, size_t size);

/* Reads a file a person names (a theme, the settings) as read_file does, if it is a regular
 * file. Anything else is refused at once, never waited on: the file is opened without
 * blocking (a FIFO would wait for a writer) and checked on the descriptor opened, not by
 * its name first. Returns bytes read, or -1 with errno set (EISDIR for a directory, EINVAL
 * for any other file that is not a regular one) and *why saying why in words. */
long read_config(const char *path, char *buf, size_t size, const char **why);

/* Reads /proc/PID/NAME holding one integer (oom_score, oom_score_adj). Returns 0, or -1
 * (errno set; EINVAL for text that is no integer). */
int read_proc_int(int pid, const char *name, int *out);

/* Text put together in memory and written at once: a refresh of the batch text or JSON
 * is one write, not one per line or per 4 KiB. Kept from one refresh to the next, so that
 * its memory is allocated once. */
struct tbuf {
	char *s;
	size_t n, cap;
};

void tbuf_grow(struct tbuf *b, size_t more);
/* Where the next more bytes go; add to n what was written there */
static inline char *tbuf_room(struct tbuf *b, size_t more)
{
	if (b->cap - b->n < more || !b->cap)
		tbuf_grow(b, more);
	return b->s + b->n;
}
static inline void tbuf_put(struct tbuf *b, const char *s, size_t len)
{
	memcpy(tbuf_room(b, len), s, len);
	b->n += len;
}
static inline void tbuf_putc(struct tbuf *b, char c)
{
	*tbuf_room(b, 1) = c;
	b->n++;
}
static inline void tbuf_puts(struct tbuf *b, const char *s)
{
	tbuf_put(b, s, strlen(s));
}
void tbuf_printf(struct tbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes the text to f, with one write(2) where f has a file descriptor (after what f
 * holds), and empties it. Returns 0, or EOF with f's error indicator set. */
int tbuf_write(struct tbuf *b, FILE *f);
/* Whether the output to f failed (f's error indicator, or what f still holds cannot be
 * written): then one line on stderr names it (name: the file's path, or "standard output")
 * and the reason, as errno gave it at the write that failed */
bool output_failed(FILE *f, const char *name);
#define STDOUT_NAME "standard output"

/* Writes the text to f once it holds more than 128 KiB: with many processes a refresh's
 * text need not be held whole (a few MB at 10,000), while a write still carries much */
static inline void tbuf_spill(struct tbuf *b, FILE *f)
{
	if (b->n > 131072)
		tbuf_write(b, f);
}

/* Binary search of name among the n elements (size bytes each) at base, sorted by the
 * string each starts with (a char array first): true with its index in *at, else false with
 * the index where it would go */
bool sorted_name_find(const void *base, size_t n, size_t size, const char *name, size_t *at);

double clock_mono(void);

/* The one way every run stops (the screen, batch, JSON, --record, --serve, a replay,
 * --stacks): INT, TERM and HUP caught (the run ends through its caller's return, which
 * undoes what it changed; the screen catches them after the terminal is taken, in place of
 * the terminal library's handlers), SIGPIPE ignored (a closed pipe is an error of the
 * write); the signal caught, 0 while none */
void stop_signals_catch(void);
int stop_signal_caught(void);
/* Sleeps until CLOCK_MONOTONIC time when, or until a stop signal is caught */
void sleep_until(double when);
double clock_wall(void);
/* What CLOCK_MONOTONIC time is added to for the wall clock (the wall time of monotonic 0):
 * taken once per process, from the closest of eight pairs of reads, and rounded to the
 * millisecond, so that every run during a boot (until the clock is set) converts the
 * kernel's times of an event to the same wall time */
double clock_mono_to_wall(void);

/* Prints "memtop: " and the message to stderr, then exits with status. */
void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#endif
