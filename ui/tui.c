#include "tui.h"
#include "marks.h"

#include <langinfo.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "act_keys.h"
#include "cgroups.h"
#include "oom_list.h"
#include "common_keys.h"
#include "detail_screen.h"
#include "help.h"
#include "main_view.h"
#include "mouse.h"
#include "pane_screen.h"
#include "parse.h"
#include "pref_req.h"
#include "slab.h"
#include "users_screen.h"
#include "prompt.h"
#include "util.h"

/* The screens, by enum screen_id: {the help's heading for its keys, its keys, draw, act,
 * other keys, its state, the common keys it takes, whether a replay's keys move it, the
 * table of rows a table screen shows, what frees a state that holds memory} */
const struct screen ui_screens[NSCREENS] = {
	[SCREEN_MAIN] = {"Processes", main_keys, main_draw, main_act, NULL, &main_state, CK_ALL,
			 true, &proc_table, NULL, NULL},
	[SCREEN_DETAIL] = {"Process details (Enter)", detail_keys, detail_draw, detail_act, NULL,
			   &detail_view, CK_REDRAWS, false, NULL, detail_done, NULL},
	[SCREEN_OOM] = {"OOM kills (o) and reclaim latency (r)", oom_keys, oom_draw, panes_act,
			oom_other, &panes_state, 0, true, NULL, oom_list_done, NULL},
	/* the same keys (Enter does nothing there); the help lists them once */
	[SCREEN_RECLAIM] = {NULL, oom_keys, reclaim_draw, panes_act, panes_other, &panes_state, 0,
			    true, NULL, NULL, NULL},
	[SCREEN_SORT] = {"Sort column (F6)", sort_keys, sort_draw, sort_act, NULL, &sort_picker, 0,
			 false, NULL, NULL, NULL},
	[SCREEN_COLUMNS] = {"Column picker (f, F2)", column_keys, columns_draw, columns_act, NULL,
			    &columns_state, 0, false, NULL, NULL, NULL},
	[SCREEN_HELP] = {"Help", NULL, help_draw, NULL, help_other, &help_state, 0, false, NULL,
			 NULL, NULL},
	[SCREEN_CGROUPS] = {"Cgroups (C)", cg_keys, cg_draw, cg_act, NULL, &cg_state, CK_ALL, true,
			    &cg_table, cg_done, NULL},
	[SCREEN_GRAPHS] = {"Graphs (g)", graph_keys, graphs_draw, graphs_act, NULL, &graphs_state,
			   CK_REDRAWS, true, NULL, NULL, NULL},
	[SCREEN_POSTMORTEM] = {"OOM kill post-mortem (Enter on a kill)", pm_keys, pm_draw, pm_act,
			       panes_other, &panes_state, CK_REDRAWS, true, NULL, NULL, NULL},
	[SCREEN_SLAB] = {"Slab caches (B)", slab_keys, slab_draw, slab_act, NULL, &slab_state,
			 CK_ALL, false, &slab_table, slab_done, NULL},
	[SCREEN_NODES] = {"NUMA nodes (n)", nodes_keys, nodes_draw, pane_screen_act,
			  pane_screen_other, &nodes_state, CK_ALL, true, NULL, NULL, NULL},
	[SCREEN_USERS] = {"Users (L)", users_keys, users_draw, users_act, NULL, &users_state,
			  CK_ALL, true, &users_table, users_done, NULL},
	[SCREEN_EXITED] = {"Exited processes (X)", exited_keys, exited_draw, pane_screen_act,
			   pane_screen_other, &exited_state, CK_ALL, true, NULL, NULL, NULL},
	[SCREEN_ACCOUNT] = {"Memory account (A)", account_keys, account_draw, pane_screen_act,
			    pane_screen_other, &account_state, CK_ALL, true, NULL, NULL, NULL},
	[SCREEN_PAGER] = {"Pager (l lsof, s strace)", pager_keys, pager_draw, pager_act, NULL, NULL,
			  CK_REDRAWS, false, NULL, pager_done, pager_typing},
};

struct ui_term {
	struct ui u;
	SCREEN *scr;
};

struct ui *ui_open(const struct model *m, const struct cg_model *cgm, struct prefs *prefs,
		   struct theme *theme, char *err, size_t errlen)
{
	const char *term = getenv("TERM");
	char q[PARSE_QUOTE_SIZE];
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		snprintf(err, errlen,
			 "cannot drive terminal type '%s'; use -b or --json for text output",
			 term ? parse_quote(term, q, sizeof(q)) : "(unset)");
		return NULL;
	}
	/* a terminal that cannot move the cursor (TERM=dumb, a printing terminal) would get
	 * one garbled line: refuse it before anything is drawn */
	const char *cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		endwin();
		delscreen(scr);
		snprintf(err, errlen,
			 "terminal type '%s' cannot move the cursor; "
			 "use -b or --json for text output",
			 term ? parse_quote(term, q, sizeof(q)) : "(unset)");
		return NULL;
	}
	struct ui_term *t = xcalloc(1, sizeof(*t));
	struct ui *u = &t->u;
	t->scr = scr;
	set_term(scr);
	set_escdelay(25);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	mouse_start(prefs->mouse);
	theme_apply(theme);
	u->cv.theme = theme;
	u->cv.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	getmaxyx(stdscr, u->cv.rows, u->cv.cols);
	u->m = m;
	u->cgm = cgm;
	u->screens = ui_screens;
	u->prompt_keys = prompt_bindings;
	u->prefs = prefs;
	return u;
}

void ui_close(struct ui *u)
{
	struct ui_term *t = (struct ui_term *)u;
	if (!u)
		return;
	endwin();
	delscreen(t->scr);
	for (int i = 0; i < NSCREENS; i++)
		if (ui_screens[i].done)
			ui_screens[i].done(u);
	free(t);
}

static bool too_small(const struct ui *u)
{
	return u->cv.rows < MIN_ROWS || u->cv.cols < MIN_COLS;
}

static void draw_too_small(struct ui *u)
{
	const struct canvas *cv = &u->cv;
	char line[80];
	snprintf(line, sizeof(line), "Terminal too small: %dx%d", cv->cols, cv->rows);
	put_text(cv, cv->rows / 2 - 1, 0, cv->cols, ROLE_WARNING, line, false);
	snprintf(line, sizeof(line), "memtop needs %dx%d", MIN_COLS, MIN_ROWS);
	put_text(cv, cv->rows / 2, 0, cv->cols, ROLE_LABEL, line, false);
	put_text(cv, cv->rows / 2 + 1, 0, cv->cols, ROLE_LABEL, "q quits", false);
}

void ui_draw(struct ui *u)
{
	getmaxyx(stdscr, u->cv.rows, u->cv.cols);
	map_clear(&u->map);
	erase();
	if (too_small(u))
		draw_too_small(u);
	else
		ui_screens[u->screen].draw(u);
	mark("drawn to curses' window");
	refresh();
}

/* After curses found no key: whether that was the end of the terminal's input (no more
 * will come: it hung up, failed, or reads as the end of the file) */
static bool terminal_gone(void)
{
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
	int queued = 0;

	if (poll(&p, 1, 0) != 1)
		return false;
	if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
		return true;
	/* readable with nothing to read: the end of the input */
	return (p.revents & POLLIN) && ioctl(STDIN_FILENO, FIONREAD, &queued) == 0 && !queued;
}

enum key_wait ui_read_key(struct ui *u, int timeout_ms, wint_t *ch, bool *is_key)
{
	(void)u;
	timeout(timeout_ms);
	int rc = get_wch(ch);
	if (rc == ERR)
		return terminal_gone() ? KW_HANGUP : KW_NONE;
	*is_key = rc == KEY_CODE_YES;
	if (*is_key && *ch == KEY_RESIZE)
		return KW_NONE; /* ui_draw reads the new size */
	return KW_KEY;
}

const struct binding replay_bindings[] = {
	{RR_BACK, {'{', 0}, "{", "one sample back"},
	{RR_FORWARD, {'}', 0}, "}", "one sample on (Z plays)"},
	{RR_JUMP, {'J', 0}, "J", "jump to a time (HH:MM[:SS])"},
	{RR_NEXT_OOM, {'N', 0}, "N", "next OOM kill"},
	{RR_PREV_OOM, {'P', 0}, "P", "previous OOM kill"},
	{RR_FIRST, {'^', 0}, "^", "the first sample"},
	{RR_LAST, {'$', 0}, "$", "the last sample"},
	{0, {0}, NULL, NULL},
};

/* A replay's key, on the screens that show the sample; *taken: it was one */
static struct reaction replay_key(struct ui *u, int key, bool *taken)
{
	int a = u->rv.on && ui_screens[u->screen].replay ? binding_act(replay_bindings, key) : 0;

	*taken = a != 0;
	if (a == RR_JUMP) {
		if (u->screen != SCREEN_CGROUPS)
			u->screen = SCREEN_MAIN; /* whose bottom line has the prompt */
		prompt_open(&u->prompt, PROMPT_JUMP, "");
		return reacts(REACT_NONE);
	}
	u->rv.req = (enum replay_req)a;
	return reacts(a ? REACT_REPLAY : REACT_NONE);
}

/* What r asks of the view done (its preference change), and what is left for the loop */
static unsigned apply(struct ui *u, struct reaction r)
{
	if (pref_req_apply(u, &r.pref))
		ui_reselect(u); /* the table's rows changed */
	return r.react;
}

/* The wheel as Up or Down, as many times */
static unsigned wheel_keys(struct ui *u, int lines)
{
	unsigned r = REACT_NONE;

	for (int i = 0; i < (lines < 0 ? -lines : lines); i++)
		r |= ui_key(u, lines < 0 ? KEY_UP : KEY_DOWN, true);
	return r;
}

/* KEY_MOUSE: the screen shown takes what was hit on its table (the wheel where it drew
 * rows, else as Up and Down), the key bar runs its key */
static unsigned mouse_key(struct ui *u)
{
	const struct screen *s = &ui_screens[u->screen];
	struct mouse_hit h;
	unsigned r;

	mouse_read(u->prefs->mouse, &u->map, &h);
	if (u->prompt.kind != PROMPT_NONE)
		return REACT_NONE;
	switch (h.kind) {
	case MOUSE_KEYBAR:
		return ui_key(u, (wint_t)h.key, h.key >= KEY_MIN);
	case MOUSE_WHEEL:
		return s->table && u->map.nrows > 0 ? apply(u, table_mouse(s->table, u, &h))
						    : wheel_keys(u, h.lines);
	case MOUSE_TITLE:
	case MOUSE_ROW:
		if (!s->table)
			return REACT_NONE;
		r = apply(u, table_mouse(s->table, u, &h));
		/* then what Enter does there (the detail of a process, the processes of a
		 * cgroup) */
		return h.dbl ? r | ui_key(u, '\n', false) : r;
	default:
		return REACT_NONE;
	}
}

/* A key no table of the screen shown binds: said on the message line */
static struct reaction unknown_key(struct ui *u, int key)
{
	char name[16];

	if (key == KEY_RESIZE || key == KEY_MOUSE || !key)
		return reacts(REACT_NONE);
	if (key > ' ' && key < 0x7f)
		snprintf(name, sizeof(name), "%c", key);
	else if (key == ' ')
		snprintf(name, sizeof(name), "Space");
	else if (key >= KEY_F(1) && key <= KEY_F(63))
		snprintf(name, sizeof(name), "F%d", key - KEY_F(0));
	else
		snprintf(name, sizeof(name), "%s", keyname(key) ? keyname(key) : "?");
	snprintf(u->message, sizeof(u->message), "unknown key %s, h for help", name);
	return reacts(REACT_NONE);
}

/* The key's reaction, by the screen shown: its prompt, a replay's key, a common key, its
 * own */
static struct reaction screen_key(struct ui *u, wint_t ch, bool is_key)
{
	const struct screen *s = &ui_screens[u->screen];
	/* a key code, or a character (those beyond Latin-1 mean nothing outside a prompt) */
	int key = is_key ? (int)ch : (ch < 0x100 ? (int)ch : 0);
	bool taken;
	int a;

	if (u->prompt.kind == PROMPT_FILTER)
		return table_filter_key(s->table ? s->table : &proc_table, u, ch, is_key);
	if (act_prompt_open(u))
		return act_prompt_key(u, ch, is_key);
	if (u->prompt.kind != PROMPT_NONE)
		return main_prompt(u, ch, is_key);
	if (too_small(u))
		return reacts(key == 'q' || key == 'Q' || key == KEY_F(10) ? REACT_QUIT
									   : REACT_NONE);
	struct reaction r = s->typing ? s->typing(u, ch, is_key, &taken) : reacts(REACT_NONE);
	if (s->typing && taken)
		return r;
	r = replay_key(u, key, &taken);
	if (taken)
		return r;
	if ((a = common_key(u, key)))
		return common_act(u, a);
	if ((a = binding_act(s->keys, key)))
		return s->act(u, a);
	if (s->other)
		return s->other(u, key);
	/* said on the screens whose bottom line shows messages: the tables */
	return s->common == CK_ALL ? unknown_key(u, key) : reacts(REACT_NONE);
}

unsigned ui_key(struct ui *u, wint_t ch, bool is_key)
{
	if (is_key && ch == KEY_MOUSE)
		return mouse_key(u);
	return apply(u, screen_key(u, ch, is_key));
}

size_t ui_onscreen(const struct ui *u, int32_t *pids, size_t max)
{
	return u->screen == SCREEN_MAIN && !too_small(u) ? main_onscreen(u, pids, max) : 0;
}

void ui_reselect(struct ui *u)
{
	table_reselect(&proc_table, u);
	cgroups_reselect(u);
}

unsigned ui_cgroup_cols(const struct ui *u)
{
	return cgroups_wanted(u);
}

bool ui_slab_wanted(const struct ui *u)
{
	return screen_wanted(u, SCREEN_SLAB);
}

bool ui_users_wanted(const struct ui *u)
{
	return screen_wanted(u, SCREEN_USERS);
}

void ui_show_slab(struct ui *u)
{
	u->screen = SCREEN_SLAB;
}

bool ui_account_wanted(const struct ui *u)
{
	return screen_wanted(u, SCREEN_ACCOUNT);
}

void ui_show_account(struct ui *u)
{
	pane_screen_open(u, SCREEN_ACCOUNT);
}

const char *ui_selected_cgroup(const struct ui *u)
{
	return cgroups_selected(u);
}

void ui_show_cgroups(struct ui *u)
{
	cgroups_open(u);
}

void ui_set_actions(struct ui *u, const struct act_log *log, bool read_only)
{
	u->acts = log;
	u->read_only = read_only;
	u->act.hold.fd = -1;
}

struct act_req *ui_act_req(struct ui *u)
{
	return &u->act;
}

void ui_act_prepared(struct ui *u, const char *why)
{
	act_prepared(u, why);
}

void ui_act_done(struct ui *u, const char *line)
{
	act_done(u, line);
}

int32_t ui_selected_pid(const struct ui *u)
{
	return main_selected_pid(u);
}

bool ui_detail_shown(const struct ui *u)
{
	return u->screen == SCREEN_DETAIL;
}

bool ui_paused(const struct ui *u)
{
	return u->paused;
}

void ui_set_theme(struct ui *u, struct theme *t)
{
	theme_apply(t);
	u->cv.theme = t;
	clearok(curscr, TRUE);
}

void ui_repaint(struct ui *u)
{
	(void)u;
	clearok(curscr, TRUE);
}

void ui_message(struct ui *u, const char *msg)
{
	snprintf(u->message, sizeof(u->message), "%.190s", msg);
}

void ui_replay_at(struct ui *u, size_t pos, size_t count)
{
	if (!u->rv.on)
		u->paused = true; /* a replay starts still: keys move it, Z plays it */
	u->rv.on = true;
	u->rv.pos = pos;
	u->rv.count = count;
	oom_list_keep(u); /* the kills of this sample, for the OOM pane after a move back */
}

enum replay_req ui_replay_req(struct ui *u, double *jump)
{
	enum replay_req r = u->rv.req;
	*jump = u->rv.jump;
	u->rv.req = RR_NONE;
	return r;
}

void ui_pause(struct ui *u)
{
	u->paused = true;
}

void ui_detail_open(struct ui *u, const struct detail *d, const char *cmd)
{
	const struct snapshot *s = model_current(u->m);
	const struct proc_sample *p = s ? snapshot_find(s, 0, d->pid) : NULL;

	detail_view_open(d, cmd, p ? p->start_ticks : 0);
	u->screen = SCREEN_DETAIL;
}

void ui_detail_update(struct ui *u, bool gone)
{
	(void)u;
	detail_view_update(gone);
}
