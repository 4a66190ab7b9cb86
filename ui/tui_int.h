/* State shared by the parts of the full-screen view. */
#ifndef MEMTOP_TUI_INT_H
#define MEMTOP_TUI_INT_H

#include <curses.h>
#include <stdbool.h>

#include "model.h"
#include "sources.h"
#include "theme.h"

#define MIN_COLS     50
#define MIN_ROWS     12
#define HEADER_ROWS  6
#define MAX_ONSCREEN 512

enum screen_id {
	SCREEN_MAIN,
	SCREEN_HELP,
	SCREEN_SORT,
	SCREEN_OOM,
	SCREEN_RECLAIM,
	SCREEN_DETAIL,
	SCREEN_COLUMNS
};

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_SEARCH,
	PROMPT_FILTER,
	PROMPT_USER,
	PROMPT_DELAY,
	PROMPT_SIGNAL,
	PROMPT_CONFIRM,
};

enum action {
	ACT_NONE,
	ACT_UP,
	ACT_DOWN,
	ACT_PGUP,
	ACT_PGDN,
	ACT_HOME,
	ACT_END,
	ACT_SORT_PREV,
	ACT_SORT_NEXT,
	ACT_SORT_MENU,
	ACT_COLUMNS,
	ACT_SORT_RSS,
	ACT_INVERT,
	ACT_TREE,
	ACT_KTHREADS,
	ACT_SAVE,
	ACT_SEARCH,
	ACT_FILTER,
	ACT_USER,
	ACT_KILL,
	ACT_PAUSE,
	ACT_DELAY,
	ACT_HELP,
	ACT_OOM_ACK,
	ACT_OOM_PANE,
	ACT_RECLAIM_PANE,
	ACT_REDRAW,
	ACT_DETAIL,
	ACT_QUIT,
};

struct binding {
	enum action act;
	int keys[4];	   /* 0 ends the list */
	const char *names; /* as the help screen shows them */
	const char *help;
};

extern const struct binding bindings[];
enum action action_for_key(int key);

struct tui {
	struct sources *src;
	struct model *m;
	struct theme *theme;
	double delay;
	double next_refresh;
	long refreshes;
	long max_refreshes;
	bool paused;
	bool quit;
	bool utf8;
	int rows, cols;
	enum screen_id screen;
	size_t sel;
	size_t top;
	int32_t sel_pid;
	int sort_menu_sel;
	int col_menu_sel;
	enum prompt_kind prompt;
	wchar_t input[128];
	size_t input_len;
	char search[128];
	int32_t kill_pid;
	int kill_sig;
	char message[200];
	enum col_id shown[COL_COUNT];
	int nshown;
	int32_t onscreen[MAX_ONSCREEN];
	size_t nonscreen;
	bool swap_all_once;
	uint64_t oom_acked;	    /* live OOM kills the user has acknowledged */
	int pane_top;		    /* scroll offset in the OOM and reclaim screens */
	struct detail_view *detail; /* the drill-down screen (ui/detail.c) */
};

/* tui.c */
void tui_collect(struct tui *t);
void tui_select_pid(struct tui *t);
/* After a change of sort, order or filter: the rows again, the same process selected */
void tui_reorder(struct tui *t);
int table_rows(const struct tui *t);

/* keys.c */
void handle_key(struct tui *t, int key);

/* prompt.c */
void prompt_open(struct tui *t, enum prompt_kind kind, const char *initial);
void prompt_key(struct tui *t, wint_t ch, bool is_key);
void draw_bottom(struct tui *t);
void input_utf8(const struct tui *t, char *out, size_t size);

/* draw_header.c, draw_table.c, help.c */
void draw_header(struct tui *t);
void layout_columns(struct tui *t);
void draw_table(struct tui *t, int y);
void draw_help(struct tui *t);
void help_key(struct tui *t, int key);
void draw_sort_menu(struct tui *t);
void sort_menu_key(struct tui *t, int key);

/* columns_menu.c: the column picker */
void draw_columns_menu(struct tui *t);
void columns_menu_key(struct tui *t, int key);

/* panes.c: the OOM history and reclaim latency screens, and the scrolled text screens
 * they and help are made of: lines with roles, shown from pane_top */
#define PANE_LINES 256
struct pane {
	char text[PANE_LINES][256];
	enum role role[PANE_LINES];
	int n;
};
void pane_add(struct pane *p, enum role r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Title on line 0, then the lines from pane_top, then keys on the last line */
void pane_show(struct tui *t, const char *title, const struct pane *p, const char *keys);
/* Up, Down, PgUp, PgDn, Home move pane_top; false for any other key */
bool pane_scroll_key(struct tui *t, int key);
void draw_oom_banner(struct tui *t, int y);
void draw_oom_pane(struct tui *t);
void draw_reclaim_pane(struct tui *t);
void pane_key(struct tui *t, int key);

/* detail.c: the drill-down into the selected process; its sampler is attached only
 * while the screen is open */
struct detail_view *detail_view_new(bool no_bpf);
void detail_view_free(struct detail_view *v);
void detail_open(struct tui *t);
void detail_close(struct tui *t);
void detail_refresh(struct tui *t);
void draw_detail(struct tui *t);
void detail_key(struct tui *t, int key);

/* Puts s at y, x with role r, cut to width w (padding with spaces when pad). */
void put_text(struct tui *t, int y, int x, int w, enum role r, const char *s, bool pad);

#endif
