/* --replay: a recording (record.h) as a source. It fills snapshots from the file, as the
 * live sources fill them from /proc and BPF, for the same model and views. */
#ifndef MEMTOP_REPLAY_H
#define MEMTOP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

struct replay;

/* A recording, or a directory of them (--record-dir). NULL with a one-line reason in
 * err. */
struct replay *replay_open(const char *path, char *err, size_t errlen);
/* Only its samples from wall-clock time begin to end (inclusive; 0: from the first, to
 * the last); -1 when none is (the range is then unchanged) */
int replay_select(struct replay *r, double begin, double end);
/* A time given as HH:MM[:SS] (on the day of wall-clock time ref) or YYYY-MM-DD
 * HH:MM[:SS], local time; -1 with a one-line reason in err */
int replay_parse_time(const char *s, double ref, double *out, char *err, size_t errlen);
/* Whether s is such a time, with a month from 1 to 12, a day of that month (February 29
 * in leap years), an hour from 0 to 23, a minute and a second from 0 to 59: 0, or -1 with
 * a one-line reason naming the bad field in err */
int replay_check_time(const char *s, char *err, size_t errlen);
void replay_close(struct replay *r);

/* Samples in the range; the wall-clock time of sample i; whether it holds an OOM kill */
size_t replay_count(const struct replay *r);
double replay_wall(const struct replay *r, size_t i);
bool replay_has_oom(const struct replay *r, size_t i);
/* Whether sample i is a keyframe: read alone, it decodes without those before it */
bool replay_keyframe(const struct replay *r, size_t i);
/* The first sample at or after wall-clock time t (replay_count when none) */
size_t replay_find(const struct replay *r, double t);
/* The recorder's columns */
unsigned replay_cols(const struct replay *r);

/* What ended the samples early or left some out: lines naming the file and offset ("the
 * last sample is cut short...", "damaged block at offset N: checksum mismatch; the samples
 * after T left out up to the keyframe at offset M (T2)"), or "" */
const char *replay_warnings(const struct replay *r);
/* Whether damage (not a cut last sample) left samples out */
bool replay_damaged(const struct replay *r);

/* Decodes sample i into s (cleared). Returns 0, or -1 with a one-line reason in err;
 * then the samples end before i. */
int replay_read(struct replay *r, size_t i, struct snapshot *s, char *err, size_t errlen);

/* The replay as a source, as the live sources are one: the sample at the cursor (the
 * range's first after replay_open and replay_select) decoded into s (cleared), and the
 * cursor moved to the next. Returns 0, or -1 with a one-line reason in err (the cursor
 * stays; the samples then end before it). */
int replay_collect(struct replay *r, struct snapshot *s, char *err, size_t errlen);
/* The sample of the range replay_collect read last: SIZE_MAX when it read none yet, or
 * one before the range, which only feeds the model the figures before it */
size_t replay_last(const struct replay *r);
/* Moves the cursor back from sample i of the range to the sample before it and those
 * before that at most window seconds before i, before the range too: the samples up to i
 * feed the model their rates, growth and history, as the live run had them when it
 * printed i */
void replay_rewind(struct replay *r, size_t i, double window);

#endif
