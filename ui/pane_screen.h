/* A screen that shows a scrolled pane of lines and nothing else (the NUMA nodes, the
 * exited processes, the memory account): its state is the first line shown, Up, Down,
 * PgUp, PgDn and Home scroll it, Esc, q or its own letter go back to the process table. */
#ifndef MEMTOP_PANE_SCREEN_H
#define MEMTOP_PANE_SCREEN_H

#include "screen.h"

struct pane_screen {
	int top; /* the first line shown */
};

enum { PANE_SCREEN_BACK = 1 };

/* Its key table: back by Esc, q, F10 or letter (names: as the help shows them) */
#define PANE_SCREEN_KEYS(letter, names, help)                                                      \
	{                                                                                          \
		{PANE_SCREEN_BACK, {27, 'q', letter, KEY_F(10)}, names, help},                     \
		{                                                                                  \
			0, {0}, NULL, NULL                                                         \
		}                                                                                  \
	}

extern struct pane_screen nodes_state, exited_state, account_state;

/* The screen shown's act and other (struct screen) */
struct reaction pane_screen_act(struct ui *u, int a);
struct reaction pane_screen_other(struct ui *u, int key);
/* Shows the pane screen id from its first line */
void pane_screen_open(struct ui *u, enum screen_id id);

#endif
