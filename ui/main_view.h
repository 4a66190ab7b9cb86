/* The process table's state (the main screen's) and what it supplies to the table screen
 * (proc_table): its rows, the rows there is room for, the processes on them. */
#ifndef MEMTOP_MAIN_VIEW_H
#define MEMTOP_MAIN_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "table_screen.h"
#include "tags.h"

struct main_state {
	struct table_view tab;
	char search[128];
	/* the signal prompt's process (held from k on: src/proc/pidhold.h), its name as
	 * the row showed it (raw) and the signal */
	struct pid_hold kill;
	char kill_comm[MT_COMM_LEN + 1];
	int kill_sig;
	bool from_cgroups; /* opened on a cgroup by Enter there: Esc goes back */
	int hscroll;	   /* columns the commands are scrolled to the left (Left, Right) */
	struct tags tags;  /* Space, c, U; k sends to them where there are any */
};

extern struct main_state main_state;
extern const struct table_kind proc_table;

/* The rows of the table the canvas has room for */
int main_table_rows(const struct ui *u);
/* The processes on screen (the rows from the table's top), at most max; returns how many */
size_t main_onscreen(const struct ui *u, int32_t *pids, size_t max);
/* The selected process, or 0 when the table is empty */
int32_t main_selected_pid(const struct ui *u);
/* The search (/, F3): the selection moved to the next row from `from` whose name or
 * command holds its text */
void main_search_from(struct ui *u, size_t from);
/* k on the selected process: holds it for the signal (st->kill, until the prompts close),
 * 0; -1 with a message where none is selected or it has exited */
int main_kill_hold(struct ui *u);
/* The signal's confirmation on the bottom line */
void main_confirm_draw(struct ui *u);
/* Shows the processes of the cgroup selected there (Enter on the cgroup table) */
void main_show_cgroup(struct ui *u);

#endif
