/* The full-screen view as the loop sees it: open the terminal, draw the screen shown,
 * read a key and turn it into what must happen next (enum react). */
#ifndef MEMTOP_TUI_H
#define MEMTOP_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "detail.h"
#include "model.h"
#include "screen.h"
#include "theme.h"

/* The screens, by enum screen_id: their keys for the help and the manual (man/mkman.c) */
extern const struct screen ui_screens[NSCREENS];

/* Takes the terminal; NULL with a one-line reason in err. cgm: the cgroups, which the
 * loop updates at each refresh */
struct ui *ui_open(const struct model *m, const struct cg_model *cgm, struct prefs *prefs,
		   struct theme *theme, char *err, size_t errlen);
/* Gives the terminal back */
void ui_close(struct ui *u);

void ui_draw(struct ui *u);
/* What waiting for a key gave */
enum key_wait {
	KW_NONE,   /* no key in the time */
	KW_KEY,	   /* a key, in *ch */
	KW_HANGUP, /* the terminal is gone: its input ended, hung up or failed */
};

/* Waits up to timeout_ms (< 0: for ever) for a key. A terminal that went away (an ssh
 * connection dropped, a tmux server killed) ends memtop's input: where a wrapper kept
 * SIGHUP from it (setsid, runuser, sudo), that is KW_HANGUP, and the caller ends. */
enum key_wait ui_read_key(struct ui *u, int timeout_ms, wint_t *ch, bool *is_key);
/* A key: the screen shown acts on it; returns enum react bits for the loop */
unsigned ui_key(struct ui *u, wint_t ch, bool is_key);

/* The processes whose rows are on screen: what costly columns must be read for */
size_t ui_onscreen(const struct ui *u, int32_t *pids, size_t max);
/* After the rows changed (a refresh, a new order): the selection on the same process */
void ui_reselect(struct ui *u);
int32_t ui_selected_pid(const struct ui *u);
/* The cgroup columns (CGCOL_BIT) to read at each refresh: those of the cgroup view while
 * it is shown, else 0 */
unsigned ui_cgroup_cols(const struct ui *u);
/* /proc/slabinfo is read at each refresh: while the slab view is shown */
bool ui_slab_wanted(const struct ui *u);
/* Every process's PSS and USS (smaps_rollup) is read at each refresh: while the users
 * view is shown */
bool ui_users_wanted(const struct ui *u);
/* The slab view shown (--slab) */
void ui_show_slab(struct ui *u);
/* The memory account's files are read at each refresh: while its screen is shown */
bool ui_account_wanted(const struct ui *u);
/* The memory account shown (--account) */
void ui_show_account(struct ui *u);
/* The path of the cgroup selected in the cgroup view (raw), or NULL */
const char *ui_selected_cgroup(const struct ui *u);
/* Opens the cgroup view (--cgroups) */
void ui_show_cgroups(struct ui *u);
/* The log of the actions on memory (the loop's, shown by the OOM history screen), and
 * whether they are refused (--read-only) */
void ui_set_actions(struct ui *u, const struct act_log *log, bool read_only);
/* The action a key asked for (REACT_ACT): its stage says whether to prepare it or carry
 * it out; then what came of it: why it cannot be done (NULL: its prompt opens), or the
 * line of what was done */
struct act_req *ui_act_req(struct ui *u);
void ui_act_prepared(struct ui *u, const char *why);
void ui_act_done(struct ui *u, const char *line);
bool ui_detail_shown(const struct ui *u);
bool ui_paused(const struct ui *u);
/* Draws in t's colors from now on (t loaded again, the V key) */
void ui_set_theme(struct ui *u, struct theme *t);
/* Repaints the whole terminal at the next draw (^L) */
void ui_repaint(struct ui *u);
/* A one-line message on the bottom line until the next key */
void ui_message(struct ui *u, const char *msg);

/* A replay: the sample shown (pos, of count), for the header; the first call pauses */
void ui_replay_at(struct ui *u, size_t pos, size_t count);
/* The replay's move a key asked for (REACT_REPLAY), and its time for RR_JUMP; cleared */
enum replay_req ui_replay_req(struct ui *u, double *jump);
void ui_pause(struct ui *u);

/* The detail screen over d (the loop's, filled while the screen is open) */
void ui_detail_open(struct ui *u, const struct detail *d, const char *cmd);
/* d was filled again; gone: the process exited, d is what was seen last */
void ui_detail_update(struct ui *u, bool gone);
/* What the detail screen's Leaks tab asked of the leak tracer, taken (REACT_LEAKS): a window
 * of *secs started, the one running stopped, or its length made *secs */
enum leaks_req ui_leaks_req(struct ui *u, double *secs);

/* The pager's program (l: lsof, s: strace) to start on *pid (REACT_TOOL), taken; false
 * where none is asked for */
bool ui_tool_req(struct ui *u, const char **prog, int32_t *pid, uint64_t *start);
/* n bytes more of its output (stdout and stderr), for the pager; false once the pager
 * keeps no more (its bound): the program is to be stopped */
bool ui_tool_output(struct ui *u, const char *buf, size_t n);
/* It ended (how: "exited 0"), or could not start (failed: the pager closes, how on the
 * message line) */
void ui_tool_end(struct ui *u, const char *how, bool failed);

#endif
