/* The one refresh pipeline: source, recorder, model, cgroups; and the moves through a
 * recording, and the drill-down, on top of it. */
#include "monitor.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bpf_pins.h"
#include "guard.h"
#include "marks.h"
#include "replay.h"
#include "stacks.h"
#include "util.h"
#include "warm.h"

struct monitor *monitor_open(const struct monitor_conf *c, char *err, size_t errlen)
{
	malloc_settings();
	struct monitor *mon = xcalloc(1, sizeof(*mon));

	mon->prefs = c->prefs;
	mon->no_bpf = c->no_bpf;
	mon->lock_max = c->lock_max;
	mon->at = SIZE_MAX;
	/* --pin asks for pins: where none can be made, memtop says why and stops */
	if (c->pin && !c->replay && bpf_pins_check(err, errlen)) {
		free(mon);
		return NULL;
	}
	/* --pin: the recording told to other memtops, which run elsewhere */
	const char *rec = c->rec ? (c->rec->file ? c->rec->file : c->rec->dir) : NULL;
	char cwd[4096], rec_abs[4096 + 256] = "";
	if (c->pin && rec && rec[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(rec_abs, sizeof(rec_abs), "%s/%s", cwd, rec);
	else if (c->pin && rec)
		snprintf(rec_abs, sizeof(rec_abs), "%s", rec);
	struct bpf_opts opts = {
		.verbose = c->verbose, .pin = c->pin, .recording = rec_abs, .say_fds = c->say_fds};
	mon->src = c->replay ? sources_replay(c->replay)
			     : sources_open(c->no_bpf ? BPF_NO : c->bpf_when, &opts, err, errlen);
	if (mon->src && c->rec && (c->rec->file || c->rec->dir) &&
	    !(mon->rec = recorder_open(c->rec, err, errlen))) {
		sources_close(mon->src);
		mon->src = NULL;
	}
	if (!mon->src) {
		free(mon);
		return NULL;
	}
	model_init(&mon->m, c->prefs);
	cgmodel_init(&mon->cgm);
	detail_init(&mon->detail);
	/* beside a service that pins its programs and records: its last hour, read with the
	 * BPF object (BPF_LATER: once the first screen is out, monitor_start_bpf) */
	char svc_rec[256];
	if (!c->replay && !c->no_bpf && !c->pin && c->bpf_when != BPF_NEVER && !geteuid() &&
	    bpf_pins_service(svc_rec, sizeof(svc_rec)) && svc_rec[0]) {
		if (c->bpf_when == BPF_LATER)
			mon->warm_later = xstrdup(svc_rec);
		else
			mon->warm = warm_start(svc_rec, c->prefs);
		mon->warm_wait = c->bpf_when == BPF_NOW;
	}
	return mon;
}

void monitor_close(struct monitor *mon)
{
	if (!mon)
		return;
	monitor_detail_close(mon);
	warm_cancel(mon->warm);
	free(mon->warm_later);
	recorder_close(mon->rec);
	cgmodel_free(&mon->cgm);
	model_free(&mon->m);
	sources_close(mon->src);
	free(mon);
}

/* The cgroups in the preferences' order (read: new data, else only ordered again), and
 * those with an OOM kill lately */
static void update_cgroups(struct monitor *mon, bool read)
{
	struct cg_order o;
	const struct snapshot *s = model_current(&mon->m);

	cg_order_of(&mon->prefs->cg, &o);
	if (read)
		cgmodel_update(&mon->cgm, s, model_previous(&mon->m), &o);
	else
		cgmodel_order(&mon->cgm, &o);
	if (s)
		cgmodel_recent_ooms(&mon->cgm, mon->m.oom, mon->m.noom, s->wall);
}

/* The memory freed after a spike of processes (the model's rows at once, their history
 * when it forgets them, HISTORY_KEEP_GONE seconds after they ended) and by the BPF
 * loader's thread once the object is loaded (the kernel's BTF parsed) goes back to the
 * system, which the allocator would keep resident where it is not the heap's top: when
 * what it holds free has grown by 1 MiB since it last gave back */
static void give_back(struct monitor *mon)
{
	size_t held = mallinfo2().fordblks;

	if (held < mon->free_held)
		mon->free_held = held;
	else if (held - mon->free_held >= 1u << 20) {
		malloc_trim(0);
		mon->free_held = mallinfo2().fordblks;
	}
}

int monitor_refresh(struct monitor *mon, const struct pids_request *req, char *err, size_t errlen)
{
	warm_take(&mon->warm, &mon->m, mon->warm_wait);
	struct snapshot *s = model_begin(&mon->m);
	struct replay *rp = monitor_replay(mon);

	if (sources_collect(mon->src, s, req, err, errlen) ||
	    (mon->rec && recorder_append(mon->rec, s, err, errlen)))
		return -1;
	mark("recorder");
	model_step(&mon->m);
	mark("model_step");
	update_cgroups(mon, true);
	mark("cgmodel");
	verdict_update(&mon->m, &mon->cgm);
	mark("verdict");
	give_back(mon);
	if (rp)
		mon->at = replay_last(rp);
	else if (++mon->refreshes == 1)
		guard_drop_code(); /* what start-up alone ran */
	else if (mon->refreshes == 2)
		guard_lock(mon->lock_max); /* steady after two refreshes */
	return 0;
}

void monitor_start_bpf(struct monitor *mon)
{
	if (monitor_replay(mon))
		return;
	sources_start_bpf(mon->src);
	if (mon->warm_later) {
		mon->warm = warm_start(mon->warm_later, mon->prefs);
		free(mon->warm_later);
		mon->warm_later = NULL;
	}
}

void monitor_wait_bpf(struct monitor *mon, double secs)
{
	if (!monitor_replay(mon))
		sources_wait_bpf(mon->src, secs);
}

bool monitor_warming(const struct monitor *mon)
{
	return mon->warm != NULL;
}

bool monitor_warm_ready(const struct monitor *mon)
{
	return mon->warm && warm_done(mon->warm);
}

bool monitor_warning(struct monitor *mon, char *buf, size_t size)
{
	return recorder_warning(mon->rec, buf, size);
}

void monitor_fill(struct monitor *mon, const int32_t *pids, size_t n)
{
	struct pids_request req = {.cols = model_wanted(&mon->m), .row_pids = pids, .nrow_pids = n};

	if (sources_fill(mon->src, model_current_mut(&mon->m), &req))
		model_late_values(&mon->m);
}

void monitor_fill_names(struct monitor *mon)
{
	struct pids_request req = {.cols = COL_BIT(COL_CMD), .rows_all = true};

	sources_fill(mon->src, model_current_mut(&mon->m), &req);
}

void monitor_reorder(struct monitor *mon)
{
	model_refilter(&mon->m);
	update_cgroups(mon, false);
}

struct replay *monitor_replay(const struct monitor *mon)
{
	return sources_recording(mon->src);
}

size_t monitor_samples(const struct monitor *mon)
{
	struct replay *rp = monitor_replay(mon);
	return rp ? replay_count(rp) : 0;
}

const char *monitor_seek_target(const struct monitor *mon, enum monitor_seek how, double t,
				size_t *to)
{
	const struct replay *rp = monitor_replay(mon);
	size_t n = monitor_samples(mon), at = mon->at, i = n;
	const char *none = NULL;

	switch (how) {
	case SEEK_BACK:
		none = at ? NULL : "the first sample of the recording";
		i = at ? at - 1 : n;
		break;
	case SEEK_FORWARD:
		none = at + 1 < n ? NULL : "the last sample of the recording";
		i = at + 1;
		break;
	case SEEK_TIME:
		i = replay_find(rp, t);
		none = i < n ? NULL : "no sample at or after that time";
		break;
	case SEEK_NEXT_OOM:
		for (i = at + 1; i < n && !replay_has_oom(rp, i); i++)
			;
		none = i < n ? NULL : "no OOM kill after this sample";
		break;
	case SEEK_PREV_OOM:
		for (i = at; i-- > 0 && !replay_has_oom(rp, i);)
			;
		none = i < n ? NULL : "no OOM kill before this sample";
		break;
	case SEEK_FIRST:
	case SEEK_LAST:
		i = how == SEEK_FIRST ? 0 : n - 1;
		none = n ? NULL : "no sample in the recording";
		break;
	}
	*to = none ? at : i;
	return none;
}

int monitor_seek(struct monitor *mon, size_t i, char *err, size_t errlen)
{
	struct replay *rp = monitor_replay(mon);

	if (mon->at == SIZE_MAX || i != mon->at + 1) {
		model_free(&mon->m);
		model_init(&mon->m, mon->prefs);
		mon->at = SIZE_MAX;
		replay_rewind(rp, i, MONITOR_SEEK_WINDOW);
	}
	while (mon->at == SIZE_MAX || mon->at < i)
		if (monitor_refresh(mon, NULL, err, errlen))
			return -1;
	return 0;
}

int monitor_detail_open(struct monitor *mon, int32_t pid, const char **title)
{
	const struct proc_sample *p = snapshot_find(model_current(&mon->m), 0, pid);

	*title = !p ? "" : p->cmd && p->cmd[0] ? p->cmd : p->comm;
	detail_clear(&mon->detail);
	if (monitor_replay(mon)) { /* what the recording holds of it, and its graphs */
		if (!p)
			return 1;
		detail_from_sample(&mon->detail, p);
		return 0;
	}
	mon->drill = drill_open(pid, mon->no_bpf, STACKS_DEFAULT_RATE);
	if (mon->drill && drill_collect(mon->drill, &mon->detail)) {
		drill_close(mon->drill);
		mon->drill = NULL;
	}
	return mon->drill ? 0 : -1;
}

int monitor_detail_refresh(struct monitor *mon)
{
	struct detail nd;

	if (monitor_replay(mon)) { /* the process in this sample */
		if (!mon->detail.pid)
			return 1;
		const struct proc_sample *p =
			snapshot_find(model_current(&mon->m), 0, mon->detail.pid);
		if (!p)
			return -1;
		detail_clear(&mon->detail);
		detail_from_sample(&mon->detail, p);
		return 0;
	}
	if (!mon->drill)
		return 1;
	detail_init(&nd);
	if (drill_collect(mon->drill, &nd)) { /* gone: what was seen last stays */
		detail_clear(&nd);
		drill_close(mon->drill);
		mon->drill = NULL;
		return -1;
	}
	detail_clear(&mon->detail);
	mon->detail = nd;
	return 0;
}

void monitor_detail_leaks(struct monitor *mon, double secs, bool window)
{
	if (!mon->drill)
		return;
	if (window)
		drill_leaks_window(mon->drill, secs);
	else
		drill_leaks_start(mon->drill, secs);
}

double monitor_detail_leaks_end(const struct monitor *mon)
{
	return mon->drill ? drill_leaks_end(mon->drill) : 0;
}

void monitor_detail_close(struct monitor *mon)
{
	drill_close(mon->drill);
	mon->drill = NULL;
	detail_clear(&mon->detail);
}
