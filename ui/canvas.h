/* The floor every screen draws on: text in a role's colors at a place, and panes of
 * lines that scroll. It calls no other part of ui/. */
#ifndef MEMTOP_CANVAS_H
#define MEMTOP_CANVAS_H

#include <stdbool.h>

#include "theme.h"

struct canvas {
	int rows, cols;
	bool utf8; /* the terminal takes UTF-8; else ASCII only */
	const struct theme *theme;
};

/* Puts s at y, x with role r, cut to width w (padding with spaces when pad). s is
 * escaped text: it stops at the first invalid sequence. */
void put_text(const struct canvas *cv, int y, int x, int w, enum role r, const char *s, bool pad);

/* The columns s takes (escaped text: a column a character) */
int text_cols(const char *s, bool utf8);
/* The bytes of s's longest start that takes w columns at most and ends where a word does:
 * before a clause (", ", "; ", ": ", " (", " - ", "  ") outside parentheses where that
 * keeps two thirds of what a cut at a space outside them would, else at such a space,
 * else at any space; 0 where no word fits. All of s where it fits. */
size_t words_fit(const char *s, int w, bool utf8);
/* s at y, x in at most w columns, cut where words_fit says (padding with spaces when pad);
 * returns the columns it took */
int put_words(const struct canvas *cv, int y, int x, int w, enum role r, const char *s, bool pad);

/* "label value" at y, x: the label in ROLE_LABEL, the value in ROLE_VALUE; returns the x
 * after it and two spaces. */
int put_pair(const struct canvas *cv, int y, int x, const char *label, const char *value);

/* Scrolled text screens: lines with roles, shown from a top line */
#define PANE_LINES 512
struct pane {
	char text[PANE_LINES][256];
	enum role role[PANE_LINES];
	int n;
};
void pane_add(struct pane *p, enum role r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* text as lines of at most cols columns, cut between words: the first after head (a
 * column of indent columns), the others after indent spaces */
void pane_wrap(struct pane *p, enum role r, int cols, int indent, const char *head,
	       const char *text);
/* Title on line 0, then the lines from *top (kept in range), then keys on the last line
 * (the title and the keys cut between words) */
void pane_show(const struct canvas *cv, const char *title, const struct pane *p, int *top,
	       const char *keys);
/* Up, Down, PgUp, PgDn, Home move *top; false for any other key */
bool pane_scroll(const struct canvas *cv, int *top, int key);
/* A list's selection sel moved by delta, kept on one of its n lines (0 where none) */
int list_step(int sel, int delta, int n);

#endif
