#include "loop.h"

#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <poll.h>
#include <unistd.h>

#include "act.h"
#include "marks.h"
#include "pidhold.h"
#include "replay.h"
#include "settings.h"
#include "tool.h"
#include "tui.h"
#include "users.h"
#include "util.h"

struct loop {
	struct monitor *mon;
	struct model *m;     /* the monitor's */
	struct prefs *prefs; /* the model's, which the keys change */
	struct ui *u;
	double next; /* the next refresh, CLOCK_MONOTONIC */
	long refreshes;
	bool first;		/* no row was on screen yet: command lines for rows shown */
	bool rest;		/* what the first screen did without was started or read */
	struct theme *theme;	/* main's, loaded again by the V key */
	struct tool tool;	/* the pager's program (lsof, strace), while it runs */
	struct act_where where; /* the cgroups the actions on memory write */
	struct act_log acts;	/* what they did, for the OOM history screen */
};

/* The rows again after a change of order, on the same selection */
static void reorder(struct loop *l)
{
	monitor_reorder(l->mon);
	ui_reselect(l->u);
}

/* The detail screen's process again after a refresh or a move through a replay: on
 * failure it is gone and the screen keeps what it saw last */
static void detail_again(struct loop *l)
{
	int rc = monitor_detail_refresh(l->mon);

	if (rc <= 0)
		ui_detail_update(l->u, rc < 0);
}

/* A replay: the model at sample i */
static void replay_to(struct loop *l, size_t i)
{
	char err[512];

	if (monitor_seek(l->mon, i, err, sizeof(err))) {
		ui_message(l->u, err);
		ui_pause(l->u);
	}
	if (l->mon->at != SIZE_MAX)
		ui_replay_at(l->u, l->mon->at, monitor_samples(l->mon));
	ui_reselect(l->u);
	detail_again(l);
}

/* The sample a replay's key asked for */
static void replay_move(struct loop *l)
{
	static const enum monitor_seek how[] = {
		[RR_BACK] = SEEK_BACK,	       [RR_FORWARD] = SEEK_FORWARD,
		[RR_JUMP] = SEEK_TIME,	       [RR_NEXT_OOM] = SEEK_NEXT_OOM,
		[RR_PREV_OOM] = SEEK_PREV_OOM, [RR_FIRST] = SEEK_FIRST,
		[RR_LAST] = SEEK_LAST};
	double t;
	size_t to;
	enum replay_req r = ui_replay_req(l->u, &t);

	if (r == RR_NONE)
		return;
	const char *none = monitor_seek_target(l->mon, how[r], t, &to);
	if (none)
		ui_message(l->u, none);
	else if (to != l->mon->at)
		replay_to(l, to);
}

/* A replay's next sample, at each refresh while it plays */
static void play(struct loop *l)
{
	size_t at = l->mon->at;

	if (at != SIZE_MAX && at + 1 >= monitor_samples(l->mon)) {
		ui_message(l->u, "the end of the recording");
		ui_pause(l->u);
		return;
	}
	replay_to(l, at == SIZE_MAX ? 0 : at + 1);
}

/* A refresh asked for now (a key, the end of a pause): a replay reads nothing, the rows
 * again */
static void collect(struct loop *l)
{
	if (monitor_replay(l->mon)) {
		reorder(l);
		return;
	}
	char err[256];
	int32_t onscreen[MAX_ONSCREEN];
	/* costly columns are read for the rows on screen (on the first refresh, before any
	 * row was shown, collect_onscreen reads them for those it shows), for all rows when
	 * the table is sorted by one of them; the first refresh reads the command lines of
	 * those it shows only, the rest after the first screen is drawn (but where they sort
	 * or filter the rows). The
	 * cgroup tree's figures only while its view is shown, but the usage and limits the
	 * forecasts need at every refresh (forecast.h); memtop's own cgroup at every refresh, not
	 * only once the first read found a limit: a limit may be set or changed while it runs
	 * (docker update, systemctl set-property), and it costs /proc/self/cgroup and two
	 * small files a level up to the hierarchy's root */
	bool users = ui_users_wanted(l->u); /* the totals per user sum every process's */
	struct pids_request req = {
		.cols = model_wanted(l->m) | (users ? USER_TOTALS_COLS : 0),
		.rows_all = users || (columns[l->prefs->sort].needs & NEED_COSTLY),
		.names_asked = l->first && !(columns[l->prefs->sort].needs & NEED_CMDLINE) &&
			       !l->prefs->filter.text[0],
		.row_pids = onscreen,
		.nrow_pids = ui_onscreen(l->u, onscreen, MAX_ONSCREEN),
		.only_pids = l->prefs->filter.pids,
		.nonly_pids = l->prefs->filter.npids,
		.cg_cols = ui_cgroup_cols(l->u) | cg_columns_forecast(),
		.cg_self = true,
		.victims = PIDS_VICTIMS,
		.slab = ui_slab_wanted(l->u),
		.account = ui_account_wanted(l->u),
	};
	if (monitor_refresh(l->mon, &req, err, sizeof(err))) {
		ui_message(l->u, err);
		return;
	}
	l->first = false;
	ui_reselect(l->u);
	l->refreshes++;
	detail_again(l);
}

/* The refresh the interval brings: a replay plays its next sample. The second waits for
 * the BPF programs loading since the first screen, a delay at most (monitor_wait_bpf) */
static void refresh_due(struct loop *l)
{
	if (monitor_replay(l->mon)) {
		play(l);
		return;
	}
	if (l->refreshes == 1)
		monitor_wait_bpf(l->mon, l->prefs->delay);
	collect(l);
}

/* Rows that came into view since the refresh (scrolling, a search, a filter, a column
 * shown) get their costly columns now, not a '-' until the next refresh; and the rows of
 * the first screen their command lines */
static void collect_onscreen(struct loop *l)
{
	unsigned costly = model_wanted(l->m) & columns_with_need(NEED_COSTLY);
	int32_t onscreen[MAX_ONSCREEN], missing[MAX_ONSCREEN];
	size_t n = costly || !l->rest ? ui_onscreen(l->u, onscreen, MAX_ONSCREEN) : 0, k = 0;
	const struct snapshot *s = model_current(l->m);

	for (size_t j = 0; j < n; j++) {
		const struct proc_sample *p = snapshot_find(s, 0, onscreen[j]);
		if (p && ((costly & ~p->tried) || !p->cmd))
			missing[k++] = onscreen[j];
	}
	if (k)
		monitor_fill(l->mon, missing, k);
}

static void open_detail(struct loop *l)
{
	int32_t pid = ui_selected_pid(l->u);
	const char *title;
	char msg[64];
	int rc = monitor_detail_open(l->mon, pid, &title);

	if (rc < 0) {
		snprintf(msg, sizeof(msg), "process %d is gone", pid);
		ui_message(l->u, msg);
	} else if (rc == 0) {
		ui_detail_open(l->u, &l->mon->detail, title);
	}
}

static void save(struct loop *l)
{
	char msg[512];

	settings_save(l->prefs, msg, sizeof(msg));
	ui_message(l->u, msg);
}

/* What the Leaks tab asked of the leak tracer, then the detail again */
static void leaks_req(struct loop *l)
{
	double secs;
	enum leaks_req r = ui_leaks_req(l->u, &secs);

	if (r == LEAKS_NONE)
		return;
	monitor_detail_leaks(l->mon, r == LEAKS_STOP ? 0 : secs, r == LEAKS_WINDOW);
	detail_again(l);
}

/* The V key: the next shipped theme, kept in the preferences for W */
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

/* The program the pager asked for, started (one at a time) on the process selected, held
 * by a pidfd from before the start to after it: a pid another process took meanwhile is
 * not traced */
static void tool_begin(struct loop *l)
{
	const char *prog;
	int32_t pid;
	uint64_t start;
	struct pid_hold h;
	char msg[200];

	if (!ui_tool_req(l->u, &prog, &pid, &start))
		return;
	tool_stop(&l->tool, NULL, 0);
	if (pid_hold_open(&h, pid, start, true)) {
		snprintf(msg, sizeof(msg), "process %d has exited", (int)pid);
		ui_tool_end(l->u, msg, true);
		return;
	}
	if (tool_start(&l->tool, prog, pid, msg, sizeof(msg)))
		ui_tool_end(l->u, msg, true);
	else if (pid_hold_signal(&h, 0)) {
		tool_stop(&l->tool, NULL, 0);
		snprintf(msg, sizeof(msg), "process %d has exited", (int)pid);
		ui_tool_end(l->u, msg, true);
	}
	pid_hold_close(&h);
}

/* What the pager's program wrote, for the pager (a megabyte at a time, so that keys and
 * refreshes go on under a flood); at the end of its output, or where the pager keeps no
 * more, it is stopped and the pager told how it ended */
static void tool_drain(struct loop *l)
{
	char buf[65536], how[64];
	size_t total = 0;
	ssize_t n = -1;
	bool more = true;

	while (more && total < (1u << 20) && (n = tool_read(&l->tool, buf, sizeof(buf))) > 0) {
		more = ui_tool_output(l->u, buf, (size_t)n);
		total += (size_t)n;
	}
	if (n == 0 || !more) {
		tool_stop(&l->tool, how, sizeof(how));
		ui_tool_end(l->u, how, false);
	}
}

/* A key, as ui_read_key waits for it; while the pager's program runs its output too (then
 * KW_NONE: drawn at once) */
static enum key_wait wait_input(struct loop *l, int ms, wint_t *ch, bool *is_key)
{
	if (l->tool.fd < 0)
		return ui_read_key(l->u, ms, ch, is_key);
	enum key_wait w = ui_read_key(l->u, 0, ch, is_key); /* one curses holds already */
	if (w != KW_NONE)
		return w;
	struct pollfd p[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
			      {.fd = l->tool.fd, .events = POLLIN}};
	if (poll(p, 2, ms) <= 0)
		return KW_NONE;
	if (p[1].revents)
		tool_drain(l);
	return p[0].revents ? ui_read_key(l->u, 0, ch, is_key) : KW_NONE;
}

/* An action on memory a key asked for: prepared (the right, the file, the value now)
 * for its prompt, or carried out once confirmed; true where something may have changed */
static bool act(struct loop *l)
{
	struct act_req *q = ui_act_req(l->u);
	char line[ACT_LINE_MAX];

	if (q->stage == AS_PREPARE) {
		if (!l->where.version && q->op != AO_OOM_ADJ)
			act_where_find(&l->where);
		int rc = act_prepare(&l->where, q, line, sizeof(line));
		ui_act_prepared(l->u, rc ? line : NULL);
		return false;
	}
	if (q->stage != AS_DO)
		return false;
	act_do(&l->where, q, &l->acts, clock_wall(), line, sizeof(line));
	ui_act_done(l->u, line);
	return true;
}

/* What a key asked for */
static bool react(struct loop *l, unsigned r)
{
	if ((r & REACT_ACT) && act(l))
		r |= REACT_COLLECT; /* the figures it changed, read now */
	if (r & REACT_REDRAW)
		ui_repaint(l->u);
	if (r & REACT_RESORT)
		reorder(l);
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
	if (r & REACT_LEAKS)
		leaks_req(l);
	if (r & REACT_TOOL_STOP)
		tool_stop(&l->tool, NULL, 0);
	if (r & REACT_TOOL)
		tool_begin(l);
	if (r & REACT_DETAIL_CLOSE)
		monitor_detail_close(l->mon);
	if (r & REACT_DETAIL_OPEN)
		open_detail(l);
	return !(r & REACT_QUIT);
}

/* What the recording lost (a cut last sample, damage left out), on the message line: its
 * first line without the file's path; the rest as -b --replay prints them */
static void note_warnings(struct loop *l)
{
	const struct replay *rp = monitor_replay(l->mon);
	const char *w = rp ? replay_warnings(rp) : "", *p = strstr(w, ": ");
	char line[256];
	bool more = strlen(w) - strcspn(w, "\n") > 1;

	if (!*w)
		return;
	w = p ? p + 2 : w;
	snprintf(line, sizeof(line), "recording: %.*s%s", (int)strcspn(w, "\n"), w,
		 more ? " (more: memtop -b --replay)" : "");
	ui_message(l->u, line);
}

/* Beside a service, while its last hour is read, a look each WARM_LOOK_S whether it is
 * done: the refresh after that takes it, at once rather than a delay later */
#define WARM_LOOK_S 0.25

/* Until the next refresh, or the end of the leak tracer's window if sooner (it ends then,
 * paused or not), or the next look at the service's hour being read */
static int wait_ms(const struct loop *l)
{
	double end = monitor_detail_leaks_end(l->mon), at = ui_paused(l->u) ? 0 : l->next;

	if (end && (!at || end < at))
		at = end;
	if (at && monitor_warming(l->mon) && clock_mono() + WARM_LOOK_S < at)
		at = clock_mono() + WARM_LOOK_S;
	if (!at)
		return -1;
	double left = at - clock_mono();
	return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

int loop_run(struct monitor *mon, struct prefs *prefs, const struct options *o, struct theme *theme)
{
	struct loop l = {.mon = mon,
			 .m = &mon->m,
			 .prefs = prefs,
			 .first = true,
			 .theme = theme,
			 .tool = TOOL_NONE};
	char err[256];

	l.u = ui_open(l.m, &mon->cgm, prefs, theme, err, sizeof(err));
	if (!l.u) {
		fprintf(stderr, "memtop: %s\n", err);
		return 1;
	}
	mark("ui_open (curses)");
	ui_set_actions(l.u, &l.acts, o->read_only);
	if (o->cgroups)
		ui_show_cgroups(l.u);
	if (o->slab)
		ui_show_slab(l.u);
	if (o->account)
		ui_show_account(l.u);
	stop_signals_catch(); /* after the terminal's own handlers, in place of them */
	note_warnings(&l);
	refresh_due(&l);
	l.next = clock_mono() + l.prefs->delay;
	bool hung_up = false;
	for (bool run = true; run && !stop_signal_caught();) {
		collect_onscreen(&l);
		mark("costly files on screen");
		ui_draw(l.u);
		mark_done("drawn");
		/* once the first screen is out; with -n 1 too, so that a run of N refreshes
		 * costs that of one and N - 1 refreshes (its exit waits for the load) */
		if (!l.rest) {
			monitor_start_bpf(mon);
			monitor_fill_names(mon);
			l.rest = true;
		}
		if (o->iterations && l.refreshes >= o->iterations)
			break; /* -n N: the Nth refresh was drawn */
		wint_t ch;
		bool is_key;
		enum key_wait w = wait_input(&l, wait_ms(&l), &ch, &is_key);
		if (w == KW_HANGUP) {
			hung_up = true; /* as SIGHUP would have: nothing is left to draw on */
			break;
		}
		if (w == KW_KEY) {
			run = react(&l, ui_key(l.u, ch, is_key));
		} else if (!ui_paused(l.u) && clock_mono() >= l.next) {
			refresh_due(&l);
			l.next += l.prefs->delay;
			if (l.next < clock_mono())
				l.next = clock_mono() + l.prefs->delay;
		} else if (!ui_paused(l.u) && monitor_warm_ready(mon)) {
			refresh_due(&l); /* the service's hour, taken now */
			l.next = clock_mono() + l.prefs->delay;
		} else if (monitor_detail_leaks_end(mon) &&
			   clock_mono() >= monitor_detail_leaks_end(mon)) {
			detail_again(&l); /* the window ends: what stands then */
		}
	}
	tool_stop(&l.tool, NULL, 0);
	monitor_detail_close(mon);
	ui_close(l.u);
	if (hung_up)
		return 128 + SIGHUP;
	return stop_signal_caught() ? 128 + stop_signal_caught() : 0;
}
