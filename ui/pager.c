/* The pager: a program's output (lsof -p, strace -p) as lines, escaped as they come and
 * kept up to a bound, shown from a top line, scrolled sideways, searched; the title says
 * what runs, where the view is and how the program ended. */
#include "pager.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mouse.h"
#include "parse.h"
#include "prompt.h"
#include "text.h"
#include "tui.h"
#include "util.h"

struct pager_state {
	char **line; /* escaped, NUL-terminated */
	size_t n, cap, bytes;
	char part[PAGER_LINE_MAX]; /* the line being written, raw */
	size_t npart;
	bool cut;	/* the bound was reached: what came after is not kept */
	bool running;	/* the program runs */
	bool asked;	/* the loop has yet to start it (ui_tool_req) */
	bool follow;	/* the view stays on the last lines as more come (End) */
	char how[64];	/* how it ended */
	char what[200]; /* "strace -p 5 (name)", escaped */
	char prog[16];
	int32_t pid;
	uint64_t start; /* its start time (clock ticks after boot): the process, not the pid */
	size_t top;	/* the first line shown */
	size_t left;	/* columns scrolled to the left */
	struct prompt prompt;
	char search[128];
	size_t match; /* the line the search found; SIZE_MAX: none */
	char note[160];
	enum screen_id back;
	bool utf8;
};

static struct pager_state pager_state = {.match = SIZE_MAX};
static struct pager_state *const st = &pager_state;

enum action {
	PG_UP = 1,
	PG_DOWN,
	PG_PGUP,
	PG_PGDN,
	PG_HOME,
	PG_END,
	PG_LEFT,
	PG_RIGHT,
	PG_SEARCH,
	PG_NEXT,
	PG_BACK,
};

const struct binding pager_keys[] = {
	{PG_UP, {KEY_UP, 0}, "Up", "one line up"},
	{PG_DOWN, {KEY_DOWN, 0}, "Down", "one line down"},
	{PG_PGUP, {KEY_PPAGE, 0}, "PgUp", "one page up"},
	{PG_PGDN, {KEY_NPAGE, ' ', 0}, "PgDn Space", "one page down"},
	{PG_HOME, {KEY_HOME, 0}, "Home", "the first line"},
	{PG_END, {KEY_END, 0}, "End", "the last line, and the new ones as they come"},
	{PG_LEFT, {KEY_LEFT, 0}, "Left", "scroll the lines back"},
	{PG_RIGHT, {KEY_RIGHT, 0}, "Right", "scroll the lines on"},
	{PG_SEARCH, {'/', KEY_F(3), 0}, "/ F3", "search the lines"},
	{PG_NEXT, {'n', 0}, "n", "next match"},
	{PG_BACK, {'q', 27, 0}, "q Esc", "back (strace stopped)"},
	{0, {0}, NULL, NULL},
};

static void clear_lines(void)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->line[i]);
	free(st->line);
	st->line = NULL;
	st->n = st->cap = st->bytes = st->npart = 0;
}

void pager_done(struct ui *u)
{
	(void)u;
	clear_lines();
}

struct reaction pager_open(struct ui *u, const char *prog, int32_t pid, uint64_t start,
			   const char *name)
{
	char esc[80];

	clear_lines();
	escape_display(name, esc, sizeof(esc), u->cv.utf8);
	snprintf(st->what, sizeof(st->what), "%s -p %d (%s)", prog, (int)pid, esc);
	snprintf(st->prog, sizeof(st->prog), "%s", prog);
	st->pid = pid;
	st->start = start;
	st->cut = st->running = false;
	st->asked = true;
	st->follow = !strcmp(prog, "strace"); /* what it traces now, as it comes */
	st->how[0] = st->note[0] = '\0';
	st->top = st->left = 0;
	st->prompt.kind = PROMPT_NONE;
	st->match = SIZE_MAX;
	st->utf8 = u->cv.utf8;
	st->back = u->screen;
	u->screen = SCREEN_PAGER;
	return reacts(REACT_TOOL);
}

bool ui_tool_req(struct ui *u, const char **prog, int32_t *pid, uint64_t *start)
{
	(void)u;
	if (!st->asked)
		return false;
	st->asked = false;
	st->running = true;
	*prog = st->prog;
	*pid = st->pid;
	*start = st->start;
	return true;
}

/* ---- the lines ---- */

/* The line in part kept, its tabs as spaces to the next multiple of 8 and the rest
 * escaped; false where the bound is reached */
static bool keep_part(void)
{
	char raw[PAGER_LINE_MAX * 2], esc[PAGER_LINE_MAX * 8 + 1];
	size_t n = 0;

	if (st->npart && st->part[st->npart - 1] == '\r')
		st->npart--;
	for (size_t i = 0; i < st->npart && n < sizeof(raw) - 8; i++)
		if (st->part[i] == '\t')
			do
				raw[n++] = ' ';
			while (n % 8);
		else
			raw[n++] = st->part[i] ? st->part[i] : ' ';
	raw[n] = '\0';
	st->npart = 0;
	size_t len = escape_display(raw, esc, sizeof(esc), st->utf8);
	if (st->n >= PAGER_MAX_LINES || st->bytes + len + 1 > PAGER_MAX_BYTES) {
		st->cut = true;
		return false;
	}
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 256;
		st->line = xrealloc(st->line, st->cap * sizeof(*st->line));
	}
	st->line[st->n++] = xstrdup(esc);
	st->bytes += len + 1;
	return true;
}

bool ui_tool_output(struct ui *u, const char *buf, size_t n)
{
	(void)u;
	for (size_t i = 0; i < n && !st->cut; i++) {
		if (buf[i] != '\n') {
			st->part[st->npart++] = buf[i];
			if (st->npart < sizeof(st->part))
				continue;
		}
		keep_part();
	}
	return !st->cut;
}

void ui_tool_end(struct ui *u, const char *how, bool failed)
{
	if (failed) { /* it could not start: back, the reason on the message line */
		if (u->screen == SCREEN_PAGER)
			u->screen = st->back;
		snprintf(u->message, sizeof(u->message), "%s", how);
		clear_lines();
		st->running = false;
		return;
	}
	if (st->npart && !st->cut)
		keep_part(); /* its last line, without a newline */
	st->running = false;
	snprintf(st->how, sizeof(st->how), "%s", how);
}

/* ---- the view ---- */

static size_t room(const struct ui *u)
{
	return u->cv.rows > 2 ? (size_t)u->cv.rows - 2 : 1;
}

static size_t last_top(const struct ui *u)
{
	return st->n > room(u) ? st->n - room(u) : 0;
}

/* The columns of s before at (escaped text: a column a character) */
static size_t cols_to(const char *s, const char *at)
{
	size_t n = 0;

	for (; s < at; s++)
		n += !st->utf8 || ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The search from line from on (wrapping): the view on the first line that holds it */
static void search_from(struct ui *u, size_t from)
{
	st->note[0] = '\0';
	if (!st->search[0] || !st->n)
		return;
	for (size_t k = 0; k < st->n; k++) {
		size_t i = (from + k) % st->n;
		const char *at = strcasestr(st->line[i], st->search);
		if (!at)
			continue;
		st->match = i;
		st->follow = false;
		if (i < st->top || i >= st->top + room(u))
			st->top = i > room(u) / 2 ? i - room(u) / 2 : 0;
		/* the match in view: sideways too, from a multiple of 8 */
		size_t col = cols_to(st->line[i], at), w = (size_t)u->cv.cols;
		size_t len = (size_t)text_cols(st->search, st->utf8);
		if (col < st->left || col + len > st->left + w)
			st->left = col + len > w ? (col + len - w / 2) / 8 * 8 : 0;
		return;
	}
	char q[PARSE_QUOTE_SIZE];
	snprintf(st->note, sizeof(st->note), "no match for '%s'",
		 parse_quote(st->search, q, sizeof(q)));
}

struct reaction pager_act(struct ui *u, int a)
{
	size_t page = room(u);

	st->note[0] = '\0';
	if (a != PG_END && a != PG_LEFT && a != PG_RIGHT && a != PG_SEARCH && a != PG_NEXT)
		st->follow = false;
	switch ((enum action)a) {
	case PG_UP:
		st->top -= st->top > 0;
		break;
	case PG_DOWN:
		st->top++;
		break;
	case PG_PGUP:
		st->top = st->top > page ? st->top - page : 0;
		break;
	case PG_PGDN:
		st->top += page;
		break;
	case PG_HOME:
		st->top = 0;
		break;
	case PG_END:
		st->follow = true;
		break;
	case PG_LEFT:
		st->left = st->left > 8 ? st->left - 8 : 0;
		break;
	case PG_RIGHT:
		st->left += 8;
		break;
	case PG_SEARCH:
		prompt_open(&st->prompt, PROMPT_SEARCH, "");
		break;
	case PG_NEXT:
		if (!st->search[0])
			snprintf(st->note, sizeof(st->note), "no search yet: / searches");
		search_from(u, st->match == SIZE_MAX ? st->top : st->match + 1);
		break;
	case PG_BACK:
		u->screen = st->back;
		clear_lines();
		return reacts(REACT_TOOL_STOP);
	}
	if (st->top > last_top(u))
		st->top = last_top(u);
	return reacts(REACT_NONE);
}

/* The search's prompt, while it is open: it searches as the text is typed */
struct reaction pager_typing(struct ui *u, wint_t ch, bool is_key, bool *taken)
{
	char text[128];

	*taken = st->prompt.kind != PROMPT_NONE;
	if (!*taken)
		return reacts(REACT_NONE);
	enum prompt_result r = prompt_edit(&st->prompt, ch, is_key);
	prompt_text(&st->prompt, text, sizeof(text));
	switch (r) {
	case PROMPT_IGNORED:
	case PROMPT_CANCEL:
	case PROMPT_COMMIT:
		break;
	case PROMPT_NEXT:
		search_from(u, st->match == SIZE_MAX ? st->top : st->match + 1);
		break;
	case PROMPT_EDITED:
		snprintf(st->search, sizeof(st->search), "%s", text);
		st->match = SIZE_MAX;
		search_from(u, st->top);
		break;
	}
	return reacts(REACT_NONE);
}

/* s from its column `cols` on (escaped text: a column a character) */
static const char *from_col(const char *s, size_t cols)
{
	for (; *s && cols; cols--)
		do
			s++;
		while (st->utf8 && ((unsigned char)*s & 0xc0) == 0x80);
	return s;
}

static void draw_title(struct ui *u)
{
	char title[400], state[120];
	size_t last = st->top + room(u) < st->n ? st->top + room(u) : st->n;

	if (st->running)
		snprintf(state, sizeof(state), "running");
	else if (st->how[0])
		snprintf(state, sizeof(state), "%s", st->how);
	else
		state[0] = '\0';
	snprintf(title, sizeof(title), "%s: lines %zu-%zu of %zu%s%s%s", st->what,
		 st->n ? st->top + 1 : 0, last, st->n, state[0] ? ", " : "", state,
		 st->cut ? "; cut: the first lines only are kept" : "");
	put_words(&u->cv, 0, 0, u->cv.cols, ROLE_HELP_TITLE, title, true);
}

void pager_draw(struct ui *u)
{
	static const struct keybar_item keys[] = {
		{"q", "Back", 'q'},
		{"/", "Search", '/'},
		{"n", "Next", 'n'},
		{"End", "Follow", KEY_END},
	};
	const struct canvas *cv = &u->cv;

	if (st->follow || st->top > last_top(u))
		st->top = last_top(u);
	draw_title(u);
	for (size_t i = 0; i < room(u) && st->top + i < st->n; i++) {
		size_t k = st->top + i;
		put_text(cv, 1 + (int)i, 0, cv->cols, k == st->match ? ROLE_SELECTED : ROLE_ROW,
			 from_col(st->line[k], st->left), true);
	}
	int y = cv->rows - 1;
	if (st->prompt.kind != PROMPT_NONE) {
		prompt_draw(cv, &st->prompt, y);
		return;
	}
	curs_set(0);
	if (st->note[0]) {
		put_text(cv, y, 0, cv->cols, ROLE_WARNING, st->note, true);
		return;
	}
	draw_keybar(u, y, keys, (int)ARRAY_SIZE(keys));
}
