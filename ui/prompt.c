#include "prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

enum { PK_CANCEL = 1, PK_COMMIT, PK_NEXT, PK_ERASE, PK_CLEAR };

const struct binding prompt_bindings[] = {
	{PK_COMMIT, {'\n', '\r', KEY_ENTER, 0}, "Enter", "accept"},
	{PK_CANCEL, {27, KEY_F(10), 0}, "Esc", "cancel, clear a filter"},
	{PK_NEXT, {KEY_F(3), 0}, "F3", "search: next match"},
	{PK_ERASE, {KEY_BACKSPACE, 127, 8, 0}, "Backspace", "erase a character"},
	{PK_CLEAR, {21, 0}, "^U", "empty the line"},
	{0, {0}, NULL, NULL},
};

static const char *const titles[] = {
	[PROMPT_SEARCH] = "Search: ",
	[PROMPT_FILTER] = "Filter: ",
	[PROMPT_USER] = "Show user (empty: all): ",
	[PROMPT_DELAY] = "Refresh interval in seconds: ",
	[PROMPT_SIGNAL] = "Signal to send (number or name): ",
	[PROMPT_CONFIRM] = "",
	[PROMPT_JUMP] = "Jump to (HH:MM[:SS] or YYYY-MM-DD HH:MM[:SS]): ",
	[PROMPT_OOM_ADJ] = "",
	[PROMPT_AMOUNT] = "Amount: ",
	[PROMPT_ACT_CONFIRM] = "",
};

void prompt_open(struct prompt *p, enum prompt_kind kind, const char *initial)
{
	p->kind = kind;
	p->title[0] = p->err[0] = '\0';
	size_t n = mbstowcs(p->input, initial, ARRAY_SIZE(p->input) - 1);
	p->len = n == (size_t)-1 ? 0 : n;
}

void prompt_text(const struct prompt *p, char *out, size_t size)
{
	wchar_t w[128];
	wmemcpy(w, p->input, p->len);
	w[p->len] = 0;
	if (wcstombs(out, w, size) == (size_t)-1)
		out[0] = '\0';
	out[size - 1] = '\0';
}

enum prompt_result prompt_edit(struct prompt *p, wint_t ch, bool is_key)
{
	/* a character from KEY_MIN up would read as a key code: it is only text */
	switch (binding_act(prompt_bindings, is_key ? (int)ch : ch < KEY_MIN ? (int)ch : -1)) {
	case PK_CANCEL:
		p->kind = PROMPT_NONE;
		return PROMPT_CANCEL;
	case PK_COMMIT:
		p->kind = PROMPT_NONE;
		return PROMPT_COMMIT;
	case PK_NEXT:
		return PROMPT_NEXT;
	case PK_ERASE:
		if (p->len)
			p->len--;
		return PROMPT_EDITED;
	case PK_CLEAR:
		p->len = 0;
		return PROMPT_EDITED;
	}
	if (is_key || ch < 32 || p->len + 1 >= ARRAY_SIZE(p->input))
		return PROMPT_IGNORED;
	p->input[p->len++] = (wchar_t)ch;
	return PROMPT_EDITED;
}

void prompt_draw(const struct canvas *cv, const struct prompt *p, int y)
{
	char line[600], text[128], esc[200];
	const char *title = p->title[0] ? p->title : titles[p->kind];

	if (p->kind == PROMPT_OOM_ADJ || p->kind == PROMPT_ACT_CONFIRM) { /* a key answers */
		put_text(cv, y, 0, cv->cols, ROLE_ALERT, title, true);
		curs_set(0);
		return;
	}
	prompt_text(p, text, sizeof(text));
	escape_display(text, esc, sizeof(esc), cv->utf8);
	int at = snprintf(line, sizeof(line), "%s%s", title, esc);
	if (p->err[0])
		snprintf(line + at, sizeof(line) - (size_t)at, "  %s", p->err);
	put_text(cv, y, 0, cv->cols, p->err[0] ? ROLE_WARNING : ROLE_STATUS, line, true);
	curs_set(1);
	at = at < (int)sizeof(line) ? at : (int)sizeof(line) - 1;
	move(y, at < cv->cols ? at : cv->cols - 1);
}
