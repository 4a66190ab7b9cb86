/* The memory account screen (A): MemTotal split into parts that sum to it (the model's
 * account, src/model/account.h), as a bar of a letter per part and a table of each part's
 * size, share and change per minute, the sum, then the largest tmpfs mounts and the System
 * V shm segments. Its details are read while it is open. */
#include <stdio.h>

#include "account_out.h"
#include "canvas.h"
#include "draw_header.h"
#include "help.h"
#include "pane_screen.h"

#define ACCOUNT_KEYS "Esc/q back  Up/Down/PgUp/PgDn scroll"

const struct binding account_keys[] = PANE_SCREEN_KEYS('A', "Esc q A", "back to the table");

/* The bar's colors, a part's by its number */
static const enum role bar_roles[] = {ROLE_METER_USED, ROLE_METER_BUFFERS, ROLE_METER_CACHE,
				      ROLE_METER_SWAP, ROLE_GRAPH1,	   ROLE_GRAPH2,
				      ROLE_GRAPH3,     ROLE_GRAPH4};

static void add_line(void *arg, bool heading, const char *text)
{
	pane_add(arg, heading ? ROLE_LABEL : ROLE_ROW, "%s", text);
}

/* The bar at line y: each part's letter over its share (a negative part draws nothing) */
static void bar(struct ui *u, const struct account *a, int y)
{
	struct segment seg[AP_COUNT];
	static char glyphs[AP_COUNT][2];

	for (int p = 0; p < AP_COUNT; p++) {
		glyphs[p][0] = account_parts[p].key;
		seg[p] = (struct segment){a->kb[p] > 0 ? (uint64_t)a->kb[p] : 0,
					  bar_roles[p % (sizeof(bar_roles) / sizeof(bar_roles[0]))],
					  glyphs[p], account_parts[p].key};
	}
	meter(u, y, "Mem", seg, AP_COUNT, a->total_kb, "");
}

void account_draw(struct ui *u)
{
	static struct pane p;
	const struct account *a = &u->m->acct;
	char t[300];

	p.n = 0;
	if (!a->valid) {
		pane_add(&p, ROLE_WARNING, "No MemTotal read: no account");
		pane_show(&u->cv, "Memory account", &p, &account_state.top, ACCOUNT_KEYS);
		return;
	}
	pane_add(&p, ROLE_ROW, "%s", ""); /* the bar's line */
	account_sum_line(a, t, sizeof(t));
	pane_add(&p, ROLE_VALUE, "%s", t);
	account_titles(t, sizeof(t));
	pane_add(&p, ROLE_TABLE_HEADER, "%s", t);
	for (int i = 0; i < AP_COUNT; i++) {
		account_part_line(a, i, t, sizeof(t));
		pane_add(&p, i == AP_OTHER_KERNEL ? ROLE_VALUE : ROLE_ROW, "%s", t);
	}
	account_cache_line(a, t, sizeof(t));
	pane_add(&p, ROLE_ROW_DIM, "%s", t);
	account_detail_lines(a, u->cv.utf8, add_line, &p);
	pane_show(&u->cv, "Memory account: MemTotal in parts (formulas: man memtop)", &p,
		  &account_state.top, ACCOUNT_KEYS);
	if (account_state.top == 0 && u->cv.rows > 2)
		bar(u, a, 1);
}
