#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "text.h"
#include "parse.h"
#include "tui_int.h"
#include "util.h"

static const char *const prompt_titles[] = {
	[PROMPT_SEARCH] = "Search: ",
	[PROMPT_FILTER] = "Filter: ",
	[PROMPT_USER] = "Show user (empty: all): ",
	[PROMPT_DELAY] = "Refresh interval in seconds: ",
	[PROMPT_SIGNAL] = "Signal to send (number or name): ",
	[PROMPT_CONFIRM] = "",
};

void input_utf8(const struct tui *t, char *out, size_t size)
{
	wchar_t w[128];
	wmemcpy(w, t->input, t->input_len);
	w[t->input_len] = 0;
	if (wcstombs(out, w, size) == (size_t)-1)
		out[0] = '\0';
	out[size - 1] = '\0';
}

void prompt_open(struct tui *t, enum prompt_kind kind, const char *initial)
{
	t->prompt = kind;
	size_t n = mbstowcs(t->input, initial, ARRAY_SIZE(t->input) - 1);
	t->input_len = n == (size_t)-1 ? 0 : n;
}

/* Moves the selection to the next row, from `from`, whose name or command holds text. */
static void search_from(struct tui *t, size_t from)
{
	const struct model *m = t->m;
	if (!t->search[0] || !m->nrows)
		return;
	for (size_t k = 0; k < m->nrows; k++) {
		size_t i = (from + k) % m->nrows;
		const struct proc_sample *p = m->rows[i].p;
		if (strcasestr(p->comm, t->search) || strcasestr(p->cmd, t->search)) {
			t->sel = i;
			t->sel_pid = p->pid;
			tui_select_pid(t);
			return;
		}
	}
	snprintf(t->message, sizeof(t->message), "no match for '%s'", t->search);
}

static void live_update(struct tui *t)
{
	char text[128];
	input_utf8(t, text, sizeof(text));
	t->message[0] = '\0';
	if (t->prompt == PROMPT_SEARCH) {
		snprintf(t->search, sizeof(t->search), "%s", text);
		search_from(t, t->sel);
	} else if (t->prompt == PROMPT_FILTER) {
		snprintf(t->m->filter.text, sizeof(t->m->filter.text), "%s", text);
		tui_reorder(t);
	}
}

static int parse_signal(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s && !*end)
		return v > 0 && v < NSIG ? (int)v : -1;
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (int i = 1; i < NSIG; i++) {
		const char *name = sigabbrev_np(i);
		if (name && !strcasecmp(name, s))
			return i;
	}
	return -1;
}

static const char *selected_comm(const struct tui *t, int32_t pid)
{
	for (size_t i = 0; i < t->m->nrows; i++)
		if (t->m->rows[i].p->pid == pid)
			return t->m->rows[i].p->comm;
	return "?";
}

static void commit(struct tui *t)
{
	char text[128];
	input_utf8(t, text, sizeof(text));
	enum prompt_kind kind = t->prompt;
	t->prompt = PROMPT_NONE;
	switch (kind) {
	case PROMPT_USER: {
		uint32_t uid;
		if (!text[0]) {
			t->m->filter.by_user = false;
		} else if (parse_user(text, &uid, t->message, sizeof(t->message))) {
			return;
		} else {
			t->m->filter.by_user = true;
			t->m->filter.uid = uid;
		}
		tui_reorder(t);
		break;
	}
	case PROMPT_DELAY: {
		char why[160];
		double d;
		if (parse_delay(text, &d, why, sizeof(why))) {
			snprintf(t->message, sizeof(t->message), "refresh interval: %s", why);
			return;
		}
		t->delay = d;
		t->next_refresh = clock_mono() + d;
		break;
	}
	case PROMPT_SIGNAL: {
		int sig = parse_signal(text);
		if (sig < 0) {
			snprintf(t->message, sizeof(t->message), "no signal '%s'", text);
			return;
		}
		t->kill_sig = sig;
		t->prompt = PROMPT_CONFIRM;
		t->input_len = 0;
		break;
	}
	default:
		break;
	}
}

static void confirm_key(struct tui *t, wint_t ch)
{
	t->prompt = PROMPT_NONE;
	if (ch != 'y' && ch != 'Y') {
		snprintf(t->message, sizeof(t->message), "not sent");
		return;
	}
	if (kill(t->kill_pid, t->kill_sig) == 0)
		snprintf(t->message, sizeof(t->message), "sent SIG%s to %d",
			 sigabbrev_np(t->kill_sig), t->kill_pid);
	else
		snprintf(t->message, sizeof(t->message), "kill %d: %s", t->kill_pid,
			 strerror(errno));
}

void prompt_key(struct tui *t, wint_t ch, bool is_key)
{
	if (t->prompt == PROMPT_CONFIRM) {
		confirm_key(t, is_key ? 0 : ch);
		return;
	}
	if ((!is_key && ch == 27) || (is_key && ch == KEY_F(10))) { /* Esc: cancel */
		if (t->prompt == PROMPT_FILTER) {
			t->m->filter.text[0] = '\0';
			tui_reorder(t);
		}
		t->prompt = PROMPT_NONE;
		return;
	}
	if ((!is_key && (ch == '\n' || ch == '\r')) || (is_key && ch == KEY_ENTER)) {
		commit(t);
		return;
	}
	if (is_key && ch == KEY_F(3) && t->prompt == PROMPT_SEARCH) {
		search_from(t, t->sel + 1);
		return;
	}
	if ((is_key && ch == KEY_BACKSPACE) || (!is_key && (ch == 127 || ch == 8))) {
		if (t->input_len)
			t->input_len--;
	} else if (!is_key && ch == 21) { /* ^U: clear the line */
		t->input_len = 0;
	} else if (!is_key && ch >= 32 && t->input_len + 1 < ARRAY_SIZE(t->input)) {
		t->input[t->input_len++] = (wchar_t)ch;
	} else {
		return;
	}
	live_update(t);
}

static void draw_fkeys(struct tui *t, int y)
{
	static const char *const keys[][2] = {
		{"F1", "Help"}, {"F2", "Columns"}, {"F3", "Search"}, {"F4", "Filter"},
		{"F5", "Tree"}, {"F6", "SortBy"},  {"F9", "Kill"},   {"F10", "Quit"},
	};
	int x = 0;
	for (size_t i = 0; i < ARRAY_SIZE(keys) && x < t->cols; i++) {
		int kw = (int)strlen(keys[i][0]), lw = (int)strlen(keys[i][1]);
		put_text(t, y, x, t->cols - x, ROLE_KEY, keys[i][0], false);
		put_text(t, y, x + kw, t->cols - x - kw, ROLE_STATUS, keys[i][1], false);
		x += kw + lw + 1;
	}
	if (t->m->filter.text[0] && x < t->cols) {
		char f[160], esc[140];
		escape_display(t->m->filter.text, esc, sizeof(esc), t->utf8);
		snprintf(f, sizeof(f), " filter: %s", esc);
		put_text(t, y, x, t->cols - x, ROLE_WARNING, f, false);
	}
}

void draw_bottom(struct tui *t)
{
	int y = t->rows - 1;
	char line[300], text[128], esc[200];
	if (t->prompt == PROMPT_CONFIRM) {
		char comm[80];
		escape_display(selected_comm(t, t->kill_pid), comm, sizeof(comm), t->utf8);
		snprintf(line, sizeof(line), "Send SIG%s (%d) to %d (%s)? [y/N] ",
			 sigabbrev_np(t->kill_sig), t->kill_sig, t->kill_pid, comm);
		put_text(t, y, 0, t->cols, ROLE_ALERT, line, true);
	} else if (t->prompt != PROMPT_NONE) {
		input_utf8(t, text, sizeof(text));
		escape_display(text, esc, sizeof(esc), t->utf8);
		snprintf(line, sizeof(line), "%s%s", prompt_titles[t->prompt], esc);
		put_text(t, y, 0, t->cols, ROLE_STATUS, line, true);
		curs_set(1);
		move(y, (int)strlen(line) < t->cols ? (int)strlen(line) : t->cols - 1);
		return;
	} else if (t->message[0]) {
		put_text(t, y, 0, t->cols, ROLE_WARNING, t->message, true);
	} else {
		draw_fkeys(t, y);
	}
	curs_set(0);
}
