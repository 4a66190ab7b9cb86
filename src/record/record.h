/* --record: each refresh's snapshot appended to a file (recfmt.h), or to one file a day
 * in a directory; bounded in size and days. */
#ifndef MEMTOP_RECORD_H
#define MEMTOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

struct record_opts {
	const char *file; /* --record FILE */
	const char *dir;  /* --record-dir DIR: DIR/memtop-YYYYMMDD.rec */
	uint64_t max;	  /* --record-max: bytes on disk at most (0: no bound) */
	int keep;	  /* --keep DAYS: days of files kept in dir (0: all) */
	unsigned cols;	  /* the columns recorded (the recorder's, prefs.cols) */
};

/* A day's length: 86400 s, or MEMTOP_RECORD_DAY_SECS (for tests) */
double record_day_secs(void);
/* DIR's file for the day of wall (name only) */
void record_day_name(double wall, char *buf, size_t size);

/* A recording of --record-dir's, by its name: memtop-*.rec, or memtop-*.rec.1 (one moved
 * aside past --record-max) */
bool record_file_ours(const char *name);

/* The days of month (1 to 12) of year, leap years' February 29 counted; 0 for no month */
int record_month_days(int year, int month);
/* The length of the day in a file name as memtop names a day's file, "memtop-DAY.rec" or
 * "memtop-DAY.rec.1" with DAY a real date, YYYYMMDD (with a test's short day,
 * YYYYMMDD-HHMMSS); 0 for any other name. --keep and --record-max remove only those. */
size_t record_day_key(const char *name);

struct recorder;

/* NULL with a one-line reason in err */
struct recorder *recorder_open(const struct record_opts *o, char *err, size_t errlen);
/* Appends s as one block. Returns 0, or -1 with a one-line reason in err. */
int recorder_append(struct recorder *r, const struct snapshot *s, char *err, size_t errlen);
/* What opening a file found and the recording went on past (damage in an existing file),
 * once: true with a line to say in buf */
bool recorder_warning(struct recorder *r, char *buf, size_t size);
void recorder_close(struct recorder *r);

#endif
