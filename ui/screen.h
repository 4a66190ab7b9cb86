/* The full-screen view's parts: the little state every screen shares, the screens as
 * rows of one {draw, keys, help} table (each with its own state), the keys common to them,
 * and what a key asks for next. Screens draw on the canvas and change their own state;
 * they read the model and the preferences but never a source, and ask for a preference
 * change rather than make it. */
#ifndef MEMTOP_SCREEN_H
#define MEMTOP_SCREEN_H

#include <curses.h>
#include <stdbool.h>
#include <wchar.h>

#include "act.h"
#include "canvas.h"
#include "cgmodel.h"
#include "model.h"

#define MIN_COLS     50
#define MIN_ROWS     12
#define MAX_ONSCREEN 512

/* What must happen after a key, for the loop to do: a screen never collects, sorts or
 * saves by itself */
enum react {
	REACT_NONE = 0,
	REACT_REDRAW = 1 << 0,	     /* repaint the whole terminal */
	REACT_RESORT = 1 << 1,	     /* sort, order or filter changed: rows again, same selection */
	REACT_COLLECT = 1 << 2,	     /* read the sources now */
	REACT_DELAY = 1 << 3,	     /* the refresh interval changed */
	REACT_PAUSE = 1 << 4,	     /* pause or resume refreshing */
	REACT_SAVE = 1 << 5,	     /* write the settings file */
	REACT_DETAIL_OPEN = 1 << 6,  /* open the drill-down on the selected process */
	REACT_DETAIL_CLOSE = 1 << 7, /* close it */
	REACT_QUIT = 1 << 8,
	/* the processes of the selected cgroup: the process filter set to its path, and
	 * read now (each process's cgroup) */
	REACT_CGROUP_PROCS = 1 << 9,
	REACT_REPLAY = 1 << 10,	   /* a replay's move: ui.rv.req */
	REACT_THEME = 1 << 11,	   /* the next shipped theme (V), loaded and applied now */
	REACT_LEAKS = 1 << 12,	   /* the Leaks tab's request to the leak tracer: ui_leaks_req */
	REACT_TOOL = 1 << 13,	   /* the pager's program started: ui_tool_req */
	REACT_TOOL_STOP = 1 << 14, /* the pager closed: its program stopped */
	/* an action on memory (ui.act, src/act/act.h): prepared, or carried out once
	 * confirmed; the loop says what happened (ui_act_prepared, ui_act_done) */
	REACT_ACT = 1 << 15,
};

/* What the detail screen's Leaks tab asks of the leak tracer */
enum leaks_req { LEAKS_NONE, LEAKS_START, LEAKS_STOP, LEAKS_WINDOW };

/* A replay's moves (keys in replay_bindings) */
enum replay_req {
	RR_NONE,
	RR_BACK,     /* one sample back */
	RR_FORWARD,  /* one sample forward */
	RR_JUMP,     /* to the first sample at or after rv.jump */
	RR_NEXT_OOM, /* to the next sample with an OOM kill */
	RR_PREV_OOM, /* the previous one */
	RR_FIRST,    /* the first sample */
	RR_LAST,     /* the last */
};

/* The replay's place, for the header, and the move asked for */
struct replay_view {
	bool on;
	size_t pos, count; /* the sample shown, of how many */
	enum replay_req req;
	double jump; /* RR_JUMP: wall-clock time */
};

enum screen_id {
	SCREEN_MAIN,
	SCREEN_DETAIL,
	SCREEN_OOM,
	SCREEN_RECLAIM,
	SCREEN_SORT,
	SCREEN_COLUMNS,
	SCREEN_HELP,
	SCREEN_CGROUPS,
	SCREEN_GRAPHS,
	SCREEN_POSTMORTEM,
	SCREEN_SLAB,
	SCREEN_NODES,
	SCREEN_USERS,
	SCREEN_EXITED,
	SCREEN_ACCOUNT,
	SCREEN_PAGER,
	NSCREENS
};

/* One key-binding table per screen: dispatch and the help both read it */
struct binding {
	int act;	   /* the screen's own action number; 0 ends the table */
	int keys[4];	   /* 0 ends the list */
	const char *names; /* as the help shows them */
	const char *help;
};

/* The action of key (a key code, or a character below KEY_MIN) in a table, or 0 */
static inline int binding_act(const struct binding *b, int key)
{
	for (; b && b->act; b++)
		for (int i = 0; i < 4 && b->keys[i]; i++)
			if (b->keys[i] == key)
				return b->act;
	return 0;
}

struct ui;

/* Where the screen shown drew what a click can hit, filled as it draws (ui_draw clears it
 * first): ui/mouse.c maps a click to a column title, a row or a key of the bottom line by
 * it, and never works a layout out again */
#define MAP_TITLES 40
#define MAP_KEYS   16
struct mouse_map {
	int title_y; /* the line of the column titles; -1: none drawn */
	int ntitles;
	struct {
		int x, w;
		int col; /* the screen's column number (enum col_id, enum cgcol_id) */
	} titles[MAP_TITLES];
	int rows_y, nrows; /* the lines the rows are drawn on, from rows_y */
	size_t top;	   /* the screen's index of the row on line rows_y */
	size_t count;	   /* how many rows there are in all */
	int keys_y;	   /* the key bar's line; -1: none drawn */
	int nkeys;
	struct {
		int x, w;
		int key; /* what a click on it runs, as if typed */
	} keys[MAP_KEYS];
};

/* What a mouse event hit, by the map (ui/mouse.c reads it) */
enum mouse_kind {
	MOUSE_NONE,   /* nothing a click can hit, or no event */
	MOUSE_TITLE,  /* a column title: col */
	MOUSE_ROW,    /* a row: row, dbl: by a double click */
	MOUSE_WHEEL,  /* the wheel turned: lines (< 0: up) */
	MOUSE_KEYBAR, /* a key of the key bar: key, as typed (a key code from KEY_MIN) */
};

struct mouse_hit {
	enum mouse_kind kind;
	int col;    /* the screen's column number (enum col_id, enum cgcol_id) */
	size_t row; /* the screen's index of the row */
	int lines;
	int key;
	bool dbl;
};

/* A preference a key asks to change: the screen returns it (struct reaction) and
 * ui_key applies it (ui/pref_req.c), the one place the view writes struct prefs */
enum pref_op {
	PO_NONE,
	PO_SORT,    /* sort by col */
	PO_SORT_BY, /* a click on col's title: sort by it, again: invert the order */
	PO_INVERT,
	PO_TREE,
	PO_FILTER, /* the filter's text (text) */
	PO_KTHREADS,
	PO_USER,     /* one user's processes (on, uid) or all */
	PO_DELAY,    /* the refresh interval (delay) */
	PO_COLS,     /* the columns shown (cols) */
	PO_ORDER,    /* the columns' order on screen (order) */
	PO_GRAPHS,   /* the graph pane on or off */
	PO_CGROUP,   /* the process table's cgroup filter emptied */
	PO_CLEAR,    /* the table's filter text emptied, and the process table's cgroup filter */
	PO_FOLD,     /* the process pid (started at start_ticks) folded (on) or unfolded */
	PO_FOLD_ALL, /* every fold undone; where there was none, every process with children
		      * folded */
};

/* The tables whose order and filter are preferences */
enum table_id {
	TAB_PROCS,   /* prefs->sort, invert, tree, filter.text */
	TAB_CGROUPS, /* prefs->cg */
	TAB_SLABS,   /* prefs->slab */
	TAB_USERS,   /* prefs->users */
};

struct pref_req {
	enum pref_op op;
	enum table_id tab; /* the table whose preferences it changes */
	int col;
	unsigned cols;
	bool on;
	uint32_t uid;
	int32_t pid;
	uint64_t start_ticks;
	double delay;
	char text[128];
	int8_t order[COL_COUNT];
};

/* What a key asks for: enum react bits for the loop, and a preference change */
struct reaction {
	unsigned react;
	struct pref_req pref;
};

static inline struct reaction reacts(unsigned react)
{
	return (struct reaction){.react = react};
}

static inline struct reaction react_pref(unsigned react, struct pref_req r)
{
	return (struct reaction){react, r};
}

/* The keys common to the screens: one table (ui/common_keys.c), handled once by ui_key on
 * the screens whose struct screen's common has their bit */
enum common_act {
	CK_PAUSE = 1,
	CK_DELAY,
	CK_HELP,
	CK_OOM_ACK,
	CK_OOM_PANE,
	CK_REDRAW,
	CK_THEME,
};
#define CK_BIT(a) (1u << (a))
#define CK_ALL                                                                                     \
	(CK_BIT(CK_PAUSE) | CK_BIT(CK_DELAY) | CK_BIT(CK_HELP) | CK_BIT(CK_OOM_ACK) |              \
	 CK_BIT(CK_OOM_PANE) | CK_BIT(CK_REDRAW) | CK_BIT(CK_THEME))
#define CK_REDRAWS CK_BIT(CK_REDRAW)

struct table_kind;

/* A row of the screen table (ui_screens[] in ui/tui.c, by enum screen_id); its parts are
 * its file's */
struct screen {
	const char *title; /* the help's heading for its keys; NULL: listed with another's */
	const struct binding *keys;
	void (*draw)(struct ui *u);
	/* a key of the table: act is its action */
	struct reaction (*act)(struct ui *u, int act);
	/* a key outside the table, or NULL to ignore those */
	struct reaction (*other)(struct ui *u, int key);
	/* its own state: a struct of its file, opaque to the others */
	void *state;
	unsigned common; /* the common keys it takes (CK_BIT()s) */
	bool replay;	 /* it shows the sample: a replay's keys move it */
	/* a table of rows (ui/table_screen.h), or NULL: the mouse on its titles and rows (a
	 * click on a column title sorts by it, again: inverts; one on a row selects it; the
	 * wheel scrolls where rows are drawn, elsewhere and where NULL it runs Up and Down; a
	 * double click on a row runs Enter after it) and its filter prompt. A click on the key
	 * bar runs its key on every screen. */
	const struct table_kind *table;
	void (*done)(struct ui *u); /* frees what its state holds, at ui_close; or NULL */
	/* its own text prompt: while one is open every key goes there first, as read (*taken
	 * false where none is open); NULL: it has none */
	struct reaction (*typing)(struct ui *u, wint_t ch, bool is_key, bool *taken);
};

/* The bottom line's text prompts */
enum prompt_kind {
	PROMPT_NONE,
	PROMPT_SEARCH,
	PROMPT_FILTER,
	PROMPT_USER,
	PROMPT_DELAY,
	PROMPT_SIGNAL,
	PROMPT_CONFIRM,
	PROMPT_JUMP,	    /* a replay's time to jump to */
	PROMPT_OOM_ADJ,	    /* the oom_score_adj menu (ui/act_keys.c) */
	PROMPT_AMOUNT,	    /* an action's amount: memory.high, the limit, a reclaim */
	PROMPT_ACT_CONFIRM, /* an action's confirmation */
};

struct prompt {
	enum prompt_kind kind;
	wchar_t input[128];
	size_t len;
	char title[512]; /* in place of the kind's own title where set (escaped) */
	char err[160];	 /* what was wrong with the text accepted, after it (escaped) */
};

struct ui {
	struct canvas cv;
	const struct model *m;
	const struct cg_model *cgm; /* the cgroups, read while their view is open */
	/* what the keys change (columns, sort, filter, delay): read by the screens, written
	 * only by ui_key from a struct reaction's pref_req */
	struct prefs *prefs;
	const struct screen *screens;	   /* by enum screen_id */
	const struct binding *prompt_keys; /* for the help */
	enum screen_id screen;
	bool paused;
	char message[200];
	struct prompt prompt; /* the bottom line's, opened by the table screens */
	uint64_t oom_acked;   /* live OOM kills the user has acknowledged */
	struct replay_view rv;
	struct mouse_map map; /* what the last draw put where */
	/* the action on memory being asked for (ui/act_keys.c; the loop carries it out), the
	 * log of those done (the loop's), and --read-only, which refuses them */
	struct act_req act;
	const struct act_log *acts;
	bool read_only;
};

/* The replay's keys, on every screen but prompts, menus, the help and the detail screen */
extern const struct binding replay_bindings[];
/* The keys common to the screens (struct screen's common), for the help and the manual */
extern const struct binding common_bindings[];
extern const char common_title[];

/* The screens' parts (ui_screens[] in ui/tui.c is their table), each from its file:
 * their keys, drawing, actions and state */
extern const struct binding main_keys[], detail_keys[], oom_keys[], sort_keys[], column_keys[],
	cg_keys[], graph_keys[], pm_keys[], slab_keys[], nodes_keys[], users_keys[], exited_keys[],
	account_keys[], pager_keys[];
extern struct main_state main_state;	   /* main_view.c */
extern struct detail_view detail_view;	   /* detail.c */
extern struct panes_state panes_state;	   /* panes.c, postmortem.c */
extern struct sort_picker sort_picker;	   /* table_screen.c */
extern struct columns_state columns_state; /* column_picker.c */
extern struct help_state help_state;	   /* help.c */
extern struct cg_state cg_state;	   /* cgroups.c */
extern struct graphs_state graphs_state;   /* graphs.c */
extern struct slab_state slab_state;	   /* slab.c */
extern struct users_state users_state;	   /* users_screen.c */
/* (the pane screens' states, of the NUMA nodes, the exited processes and the memory
 * account: pane_screen.h) */

/* The screens that draw and act on their keys: name_draw and name_act */
#define SCREENS_THAT_ACT(X)                                                                        \
	X(main) X(detail) X(sort) X(columns) X(cg) X(graphs) X(pm) X(slab) X(users) X(pager)
#define SCREEN_DRAW_ACT(name)                                                                      \
	void name##_draw(struct ui *u);                                                            \
	struct reaction name##_act(struct ui *u, int a);
SCREENS_THAT_ACT(SCREEN_DRAW_ACT)
#undef SCREEN_DRAW_ACT
/* The others' drawing; the pane screens' act and other are pane_screen.h's */
void oom_draw(struct ui *u), reclaim_draw(struct ui *u), help_draw(struct ui *u),
	nodes_draw(struct ui *u), exited_draw(struct ui *u), account_draw(struct ui *u);
/* What frees the table screens' states */
void cg_done(struct ui *u), slab_done(struct ui *u), users_done(struct ui *u),
	pager_done(struct ui *u);
/* The pager's search prompt (ui/pager.c) */
struct reaction pager_typing(struct ui *u, wint_t ch, bool is_key, bool *taken);
/* The column menu (column_picker.c) of table tab (the processes' or the cgroups'), and the
 * table it is open on */
void columns_open(struct ui *u, enum table_id tab);
enum table_id columns_table(void);
void detail_done(struct ui *u);
/* A key while a prompt other than the filter is open, on any screen */
struct reaction main_prompt(struct ui *u, wint_t ch, bool is_key);
struct reaction panes_act(struct ui *u, int a);
struct reaction oom_other(struct ui *u, int key);
struct reaction panes_other(struct ui *u, int key); /* Up, Down, PgUp, PgDn, Home scroll */
struct reaction help_other(struct ui *u, int key);

#endif
