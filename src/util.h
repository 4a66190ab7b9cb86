/* Small helpers shared by every part: allocation that cannot return NULL, file reads, clocks. */
#ifndef MEMTOP_UTIL_H
#define MEMTOP_UTIL_H

#include <stddef.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
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

double clock_mono(void);
double clock_wall(void);

/* Prints "memtop: " and the message to stderr, then exits with status. */
void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#endif
