#include "cells.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "procname.h"
#include "text.h"

int tree_prefix(const struct row *r, char *buf, size_t size, bool utf8, int max_cols)
{
	size_t n = 0;
	unsigned from = 1;
	buf[0] = '\0';
	if (!r->depth && r->folded) { /* a root: the fold's mark alone */
		snprintf(buf, size, "+ ");
		return size > 2 ? 2 : 0;
	}
	if (max_cols >= 0 && r->depth * 3 > (unsigned)max_cols)
		from = r->depth - (unsigned)max_cols / 3 + 1; /* 0 levels left: from > depth */
	for (unsigned d = from; d <= r->depth && n < size; d++) {
		const char *s;
		if (d < r->depth)
			s = d <= 64 && r->more >> (d - 1) & 1 ? (utf8 ? "│  " : "|  ") : "   ";
		else
			s = r->folded ? (r->last ? (utf8 ? "└+ " : "`+ ") : (utf8 ? "├+ " : "|+ "))
			    : r->last ? (utf8 ? "└─ " : "`- ")
				      : (utf8 ? "├─ " : "|- ");
		size_t k = strlen(s);
		if (k >= size - n) { /* whole pieces only */
			buf[n] = '\0';
			return (int)(d - from) * 3;
		}
		memcpy(buf + n, s, k + 1);
		n += k;
	}
	return from <= r->depth ? (int)(r->depth - from + 1) * 3 : 0;
}

size_t cmd_cell(const struct row *r, char *buf, size_t size, bool utf8, int width)
{
	char tmp[1024];
	int w = tree_prefix(r, buf, size, utf8, width < 0 ? -1 : width - 8);
	size_t n = strlen(buf);
	/* escaped into buf itself where the whole of tmp would fit there */
	char *cmd = size - n >= sizeof(tmp) ? buf + n : tmp;
	size_t len = escape_display(r->p->cmd ? r->p->cmd : "", cmd, sizeof(tmp), utf8);
	if (width >= 0 && w + (int)len > width) { /* too long: cmd_brief's form */
		char brief[sizeof(tmp)];
		size_t k = cmd_brief(cmd, brief, sizeof(brief));
		return n + fmt_cut(brief, k, buf + n, size - n);
	}
	return n + fmt_cut(cmd, len, buf + n, size - n);
}

void fmt_clock(double wall, char *buf, size_t size)
{
	time_t t = (time_t)wall_held(wall);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, size, "%H:%M:%S", &tm);
}

void fmt_exited_line(const struct exited_proc *e, char *buf, size_t size, bool utf8)
{
	char when[16], comm[MT_COMM_LEN * 10 + 1], user[sizeof(e->user) * 10], rss[16];

	fmt_clock(e->ts, when, sizeof(when));
	escape_display(e->comm, comm, sizeof(comm), utf8);
	escape_display(e->user, user, sizeof(user), utf8);
	fmt_kb(e->last_rss_kb, rss, sizeof(rss));
	snprintf(buf, size, "%s pid %d (%s) %s, last RSS %s", when, e->pid, comm, user, rss);
}

void fmt_oom_line(const struct mt_event *e, char *buf, size_t size, bool utf8)
{
	fmt_oom_line_named(e, e->comm, buf, size, utf8);
}

void fmt_oom_line_named(const struct mt_event *e, const char *name, char *buf, size_t size,
			bool utf8)
{
	char when[16], comm[PROC_NAME_SIZE * 4], tcomm[80], memcg[200], anon[8], file[8], shmem[8];
	fmt_clock(e->ts, when, sizeof(when));
	escape_display(name, comm, sizeof(comm), utf8);
	escape_display(e->trigger_comm, tcomm, sizeof(tcomm), utf8);
	escape_display(e->memcg[0] ? e->memcg : "-", memcg, sizeof(memcg), utf8);
	fmt_kb(e->anon_rss_kb, anon, sizeof(anon));
	fmt_kb(e->file_rss_kb, file, sizeof(file));
	fmt_kb(e->shmem_rss_kb, shmem, sizeof(shmem));
	int n = snprintf(buf, size,
			 "%s%s OOM kill: pid %d (%s) uid %u anon %s file %s shmem %s memcg %s",
			 when, e->earlier ? " (earlier)" : "", e->pid, comm, e->uid, anon, file,
			 shmem, memcg);
	if (e->trigger_pid && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, " by pid %d (%s)", e->trigger_pid, tcomm);
}

const char *swapin_mode_text(const struct bpf_state *b)
{
	if (!strcmp(b->swapin_mode, "bio"))
		return ", swap-ins counted at the block layer";
	if (!strcmp(b->swapin_mode, "memcg"))
		return ", swap-ins counted per fault";
	if (!strcmp(b->swapin_mode, "none"))
		return ", swap-ins per process not counted (swap without bios, no "
		       "count_memcg_events)";
	return "";
}

static void fmt_when(double secs, char *buf, size_t size)
{
	if (secs < 120)
		snprintf(buf, size, "~%.0f s", secs);
	else
		snprintf(buf, size, "~%.0f min", round(secs / 60));
}

size_t fmt_forecast(const struct model *m, char *buf, size_t size, bool utf8)
{
	const struct forecast *f = &m->fc.forecast;
	char when[32], ago[48] = "", comm[PROC_NAME_SIZE * 4], victim[360] = "", path[300];
	char lim[16], use[16];
	int n;

	if (f->state == FC_NONE)
		return fmt_cut("", 0, buf, size);
	fmt_when(f->secs, when, sizeof(when));
	if (f->state == FC_HELD)
		snprintf(ago, sizeof(ago), " (as of %.0f s ago)", f->age);
	escape_display(f->victim_name, comm, sizeof(comm), utf8);
	if (f->cgroup && f->group && f->victim > 0)
		snprintf(victim, sizeof(victim), "; victim: the whole group (%u processes)",
			 f->ntasks);
	else if (f->victim > 0)
		snprintf(victim, sizeof(victim),
			 f->cgroup ? "; victim %d (%s)" : "; next OOM victim: %d (%s)", f->victim,
			 comm);
	if (!f->cgroup) {
		const char *how = f->state == FC_STEADY	     ? "memory steady now"
				  : f->state == FC_SHRINKING ? "memory shrinking slowly"
							     : NULL;
		n = how ? snprintf(buf, size, "%s%s", how, victim)
			: snprintf(buf, size, "memory lasts %s at this rate%s%s", when, ago,
				   victim);
		return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	}
	escape_display(f->path, path, sizeof(path), utf8);
	fmt_kb(f->limit_kb, lim, sizeof(lim));
	fmt_kb(f->usage_kb, use, sizeof(use));
	if (f->state == FC_STEADY || f->state == FC_SHRINKING)
		n = snprintf(buf, size, "%s %s at %s of its %s limit%s", path,
			     f->state == FC_STEADY ? "steady" : "growing slowly", use, lim, victim);
	else
		n = snprintf(buf, size, "%s reaches its %s limit in %s%s%s", path, lim, when, ago,
			     victim);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}
