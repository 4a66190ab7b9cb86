#include "loop.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "growth.h"
#include "replay.h"
#include "guard.h"
#include "settings.h"
#include "tui.h"
#include "util.h"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

struct loop {
	struct sources *src;
	struct model *m;
	struct prefs *prefs; /* the model's, which the keys change */
	struct ui *u;
	bool no_bpf;
	double next; /* the next refresh, CLOCK_MONOTONIC */
	long refreshes;
	bool first;	     /* no row was on screen yet: costly columns for every row */
	struct drill *drill; /* the drill-down's source while the detail screen is open */
	struct detail detail;
	struct cg_model cgm; /* the cgroups, read while their view is open */
	struct replay *rp;   /* --replay: the source instead of src */
	size_t pos;	     /* the sample the model was fed last, SIZE_MAX: none */
	struct theme *theme; /* main's, loaded again by the T key */
};

/* The cgroups again, in the cgroup view's order, after a refresh or a change of order */
static void update_cgroups(struct loop *l, bool read)
{
	struct cg_order o;

	cg_order_of(&l->prefs->cg, &o);
	if (read)
		cgmodel_update(&l->cgm, model_current(l->m), model_previous(l->m), &o);
	else
		cgmodel_order(&l->cgm, &o);
	const struct snapshot *s = model_current(l->m);
	if (s)
		cgmodel_recent_ooms(&l->cgm, l->m->oom, l->m->noom, s->wall);
}

/* The drill-down's source again: on failure the process is gone and the screen keeps
 * what it saw last */
static void collect_detail(struct loop *l)
{
	struct detail nd;

	if (!l->drill)
		return;
	detail_init(&nd);
	if (drill_collect(l->drill, &nd)) {
		detail_clear(&nd);
		drill_close(l->drill);
		l->drill = NULL;
		ui_detail_update(l->u, true);
		return;
	}
	detail_clear(&l->detail);
	l->detail = nd;
	ui_detail_update(l->u, false);
}

static void after_sample(void *arg)
{
	update_cgroups(arg, true);
}

/* A replay: the model fed up to sample i */
static void replay_to(struct loop *l, size_t i)
{
	char err[512];

	if (replay_goto(l->rp, l->m, &l->pos, i, after_sample, l, err, sizeof(err))) {
		ui_message(l->u, err);
		ui_pause(l->u);
	}
	if (l->pos != SIZE_MAX)
		ui_replay_at(l->u, l->pos, replay_count(l->rp));
	ui_reselect(l->u);
	if (l->detail.pid) { /* the detail screen open: the process in this sample */
		int32_t pid = l->detail.pid;
		const struct proc_sample *p = snapshot_find(model_current(l->m), 0, pid);
		if (p) {
			detail_clear(&l->detail);
			detail_from_sample(&l->detail, p);
		}
		ui_detail_update(l->u, !p);
	}
}

/* The sample a replay's key asked for */
static void replay_move(struct loop *l)
{
	double t;
	size_t n = replay_count(l->rp), to = l->pos, i;
	const char *none = NULL;

	switch (ui_replay_req(l->u, &t)) {
	case RR_BACK:
		none = to ? NULL : "the first sample of the recording";
		to = to ? to - 1 : to;
		break;
	case RR_FORWARD:
		none = to + 1 < n ? NULL : "the last sample of the recording";
		to = to + 1 < n ? to + 1 : to;
		break;
	case RR_JUMP:
		i = replay_find(l->rp, t);
		none = i < n ? NULL : "no sample at or after that time";
		to = i < n ? i : to;
		break;
	case RR_NEXT_OOM:
		for (i = to + 1; i < n && !replay_has_oom(l->rp, i); i++)
			;
		none = i < n ? NULL : "no OOM kill after this sample";
		to = i < n ? i : to;
		break;
	case RR_PREV_OOM:
		for (i = to; i-- > 0 && !replay_has_oom(l->rp, i);)
			;
		none = i < n ? NULL : "no OOM kill before this sample";
		to = i < n ? i : to;
		break;
	case RR_NONE:
		return;
	}
	if (none)
		ui_message(l->u, none);
	else if (to != l->pos)
		replay_to(l, to);
}

/* A replay's next sample, at each refresh while it plays */
static void play(struct loop *l)
{
	if (l->pos != SIZE_MAX && l->pos + 1 >= replay_count(l->rp)) {
		ui_message(l->u, "the end of the recording");
		ui_pause(l->u);
		return;
	}
	replay_to(l, l->pos == SIZE_MAX ? 0 : l->pos + 1);
}

static void collect(struct loop *l)
{
	if (l->rp) { /* a replay reads nothing: the rows again */
		model_refilter(l->m);
		update_cgroups(l, false);
		ui_reselect(l->u);
		return;
	}
	char err[256];
	int32_t onscreen[MAX_ONSCREEN];
	/* costly columns are read for the rows on screen; for all rows when the table is
	 * sorted by one of them, and on the first refresh, before any row was shown. The
	 * cgroup tree only while its view is shown; memtop's own cgroup at every refresh, not
	 * only once the first read found a limit: a limit may be set or changed while it runs
	 * (docker update, systemctl set-property), and it costs /proc/self/cgroup and two
	 * small files a level up to the hierarchy's root */
	struct pids_request req = {
		.cols = model_wanted(l->m),
		.rows_all = l->first || (columns[l->prefs->sort].needs & NEED_COSTLY),
		.row_pids = onscreen,
		.nrow_pids = ui_onscreen(l->u, onscreen, MAX_ONSCREEN),
		.only_pids = l->prefs->filter.pids,
		.nonly_pids = l->prefs->filter.npids,
		.cg_cols = ui_cgroup_cols(l->u),
		.cg_self = true,
		.victims = PIDS_VICTIMS,
	};
	if (sources_collect(l->src, model_begin(l->m), &req, err, sizeof(err))) {
		ui_message(l->u, err);
		return;
	}
	l->first = false;
	model_step(l->m);
	update_cgroups(l, true);
	ui_reselect(l->u);
	l->refreshes++;
	if (l->refreshes == 2)
		guard_lock(); /* steady after two refreshes */
	collect_detail(l);
}

/* Rows that came into view since the refresh (scrolling, a search, a filter, a column
 * shown) get their costly columns now, not a '-' until the next refresh */
static void collect_onscreen(struct loop *l)
{
	unsigned costly = model_wanted(l->m) & columns_with_need(NEED_COSTLY);
	int32_t onscreen[MAX_ONSCREEN], missing[MAX_ONSCREEN];
	size_t n = costly && !l->rp ? ui_onscreen(l->u, onscreen, MAX_ONSCREEN) : 0, k = 0;
	const struct snapshot *s = model_current(l->m);

	for (size_t j = 0; j < n; j++) {
		const struct proc_sample *p = snapshot_find(s, 0, onscreen[j]);
		if (p && (costly & ~p->tried))
			missing[k++] = onscreen[j];
	}
	if (!k)
		return;
	struct pids_request req = {.cols = model_wanted(l->m), .row_pids = missing, .nrow_pids = k};
	sources_fill(l->src, model_current_mut(l->m), &req);
	model_late_values(l->m);
}

static void open_detail(struct loop *l)
{
	int32_t pid = ui_selected_pid(l->u);
	char msg[64];
	const char *cmd = "";

	if (l->rp) { /* what the recording holds of it, and its recorded graphs */
		const struct proc_sample *p = snapshot_find(model_current(l->m), 0, pid);
		detail_clear(&l->detail);
		if (!p)
			return;
		detail_from_sample(&l->detail, p);
		ui_detail_open(l->u, &l->detail, p->cmd && p->cmd[0] ? p->cmd : p->comm);
		return;
	}
	for (size_t i = 0; i < l->m->nrows; i++)
		if (l->m->rows[i]->p->pid == pid)
			cmd = l->m->rows[i]->p->cmd && l->m->rows[i]->p->cmd[0]
				      ? l->m->rows[i]->p->cmd
				      : l->m->rows[i]->p->comm;
	detail_clear(&l->detail);
	l->drill = drill_open(pid, l->no_bpf, STACKS_DEFAULT_RATE);
	if (l->drill && drill_collect(l->drill, &l->detail)) {
		drill_close(l->drill);
		l->drill = NULL;
	}
	if (!l->drill) {
		snprintf(msg, sizeof(msg), "process %d is gone", pid);
		ui_message(l->u, msg);
		return;
	}
	ui_detail_open(l->u, &l->detail, cmd);
}

static void close_detail(struct loop *l)
{
	drill_close(l->drill);
	l->drill = NULL;
	detail_clear(&l->detail);
}

static void save(struct loop *l)
{
	char msg[512];

	settings_save(l->prefs, msg, sizeof(msg));
	ui_message(l->u, msg);
}

/* The T key: the next shipped theme, kept in the preferences for W */
static void next_theme(struct loop *l)
{
	const char *next = theme_next(theme_chosen(l->prefs->theme));
	char err[512], msg[600];

	if (theme_replace(l->theme, next, err, sizeof(err))) {
		ui_message(l->u, err);
		return;
	}
	snprintf(l->prefs->theme, sizeof(l->prefs->theme), "%s", next);
	ui_set_theme(l->u, l->theme);
	snprintf(msg, sizeof(msg), "theme %s (W saves it)", next);
	ui_message(l->u, msg);
}

/* What a key asked for */
static bool react(struct loop *l, unsigned r)
{
	if (r & REACT_REDRAW)
		ui_repaint(l->u);
	if (r & REACT_RESORT) {
		model_refilter(l->m);
		update_cgroups(l, false);
		ui_reselect(l->u);
	}
	if (r & REACT_CGROUP_PROCS) {
		const char *path = ui_selected_cgroup(l->u);
		snprintf(l->prefs->filter.cgroup, sizeof(l->prefs->filter.cgroup), "%s",
			 path ? path : "");
		r |= REACT_COLLECT; /* each process's cgroup, read now */
	}
	if (r & REACT_DELAY)
		l->next = clock_mono() + l->prefs->delay;
	if ((r & REACT_COLLECT) || ((r & REACT_PAUSE) && !ui_paused(l->u))) {
		collect(l);
		l->next = clock_mono() + l->prefs->delay;
	}
	if (r & REACT_REPLAY)
		replay_move(l);
	if (r & REACT_THEME)
		next_theme(l);
	if (r & REACT_SAVE)
		save(l);
	if (r & REACT_DETAIL_CLOSE)
		close_detail(l);
	if (r & REACT_DETAIL_OPEN)
		open_detail(l);
	return !(r & REACT_QUIT);
}

/* What the recording lost (a cut last sample, damage left out), on the message line: its
 * first line without the file's path; the rest as -b --replay prints them */
static void note_warnings(struct loop *l)
{
	const char *w = replay_warnings(l->rp), *p = strstr(w, ": ");
	char line[256];
	bool more = strlen(w) - strcspn(w, "\n") > 1;

	if (!*w)
		return;
	w = p ? p + 2 : w;
	snprintf(line, sizeof(line), "recording: %.*s%s", (int)strcspn(w, "\n"), w,
		 more ? " (more: memtop -b --replay)" : "");
	ui_message(l->u, line);
}

static int wait_ms(const struct loop *l)
{
	if (ui_paused(l->u))
		return -1;
	double left = l->next - clock_mono();
	return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

int loop_run(struct sources *src, struct replay *rp, struct model *m, struct prefs *prefs,
	     const struct options *o, struct theme *theme)
{
	struct loop l = {.src = src,
			 .rp = rp,
			 .pos = SIZE_MAX,
			 .m = m,
			 .prefs = prefs,
			 .no_bpf = o->no_bpf,
			 .first = true,
			 .theme = theme};
	char err[256];

	cgmodel_init(&l.cgm);
	l.u = ui_open(m, &l.cgm, prefs, theme, err, sizeof(err));
	if (!l.u) {
		fprintf(stderr, "memtop: %s\n", err);
		cgmodel_free(&l.cgm);
		return 1;
	}
	if (o->cgroups)
		ui_show_cgroups(l.u);
	struct sigaction sa = {.sa_handler = on_stop};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	detail_init(&l.detail);
	if (rp) {
		note_warnings(&l);
		play(&l);
	} else
		collect(&l);
	l.next = clock_mono() + l.prefs->delay;
	for (bool run = true; run && !stop_signal;) {
		collect_onscreen(&l);
		ui_draw(l.u);
		if (o->iterations && l.refreshes >= o->iterations)
			break; /* -n N: the Nth refresh was drawn */
		wint_t ch;
		bool is_key;
		if (ui_read_key(l.u, wait_ms(&l), &ch, &is_key)) {
			run = react(&l, ui_key(l.u, ch, is_key));
		} else if (!ui_paused(l.u) && clock_mono() >= l.next) {
			if (rp)
				play(&l);
			else
				collect(&l);
			l.next += l.prefs->delay;
			if (l.next < clock_mono())
				l.next = clock_mono() + l.prefs->delay;
		}
	}
	close_detail(&l);
	ui_close(l.u);
	cgmodel_free(&l.cgm);
	return stop_signal ? 128 + stop_signal : 0;
}
