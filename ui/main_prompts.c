/* The main screen's prompts (search, user, refresh interval, signal and its confirmation,
 * a replay's time) and the search that moves the selection as it is typed. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "main_view.h"
#include "parse.h"
#include "pref_req.h"
#include "prompt.h"
#include "replay.h"
#include "tags.h"
#include "text.h"

#define pref react_pref

static struct main_state *const st = &main_state;

/* Moves the selection to the next row, from `from`, whose name or command holds the
 * search text */
void main_search_from(struct ui *u, size_t from)
{
	const struct model *m = u->m;
	if (!st->search[0] || !m->nrows)
		return;
	for (size_t k = 0; k < m->nrows; k++) {
		size_t i = (from + k) % m->nrows;
		const struct proc_sample *p = m->rows[i]->p;
		if (strcasestr(p->comm, st->search) || (p->cmd && strcasestr(p->cmd, st->search))) {
			table_select(&proc_table, u, i);
			return;
		}
	}
	char q[PARSE_QUOTE_SIZE];
	snprintf(u->message, sizeof(u->message), "no match for '%s'",
		 parse_quote(st->search, q, sizeof(q)));
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

/* "5 (sleep) has exited; nothing sent", the process's name escaped */
static void exited(struct ui *u)
{
	char comm[80];

	escape_display(st->kill_comm, comm, sizeof(comm), u->cv.utf8);
	snprintf(u->message, sizeof(u->message), "%d (%s) has exited; nothing sent",
		 (int)st->kill.pid, comm);
}

int main_kill_hold(struct ui *u)
{
	size_t sel = st->tab.sel;

	pid_hold_close(&st->kill);
	if (sel >= u->m->nrows) {
		snprintf(u->message, sizeof(u->message), "no process selected");
		return -1;
	}
	const struct proc_sample *p = u->m->rows[sel]->p;
	snprintf(st->kill_comm, sizeof(st->kill_comm), "%s", p->comm);
	if (pid_hold_open(&st->kill, p->pid, p->start_ticks, true)) {
		exited(u);
		return -1;
	}
	return 0;
}

static struct reaction commit(struct ui *u, enum prompt_kind kind, const char *text)
{
	struct pref_req r = {.op = PO_NONE};

	switch (kind) {
	case PROMPT_USER:
		r.op = PO_USER;
		if (text[0] && parse_user(text, &r.uid, u->message, sizeof(u->message)))
			return reacts(REACT_NONE);
		r.on = text[0] != '\0';
		return pref(REACT_RESORT, r);
	case PROMPT_DELAY: {
		char why[160];
		if (parse_delay(text, &r.delay, why, sizeof(why))) {
			snprintf(u->message, sizeof(u->message), "refresh interval: %s", why);
			return reacts(REACT_NONE);
		}
		r.op = PO_DELAY;
		return pref(REACT_DELAY, r);
	}
	case PROMPT_SIGNAL: {
		int sig = parse_signal(text);
		if (sig < 0) {
			pid_hold_close(&st->kill);
			char q[PARSE_QUOTE_SIZE];
			snprintf(u->message, sizeof(u->message), "no signal '%s'",
				 parse_quote(text, q, sizeof(q)));
			return reacts(REACT_NONE);
		}
		st->kill_sig = sig;
		prompt_open(&u->prompt, PROMPT_CONFIRM, "");
		return reacts(REACT_NONE);
	}
	case PROMPT_JUMP: {
		char why[160];
		const struct snapshot *s = model_current(u->m);
		if (replay_parse_time(text, s ? s->wall : 0, &u->rv.jump, why, sizeof(why))) {
			snprintf(u->message, sizeof(u->message), "jump: %s", why);
			return reacts(REACT_NONE);
		}
		u->rv.req = RR_JUMP;
		return reacts(REACT_REPLAY);
	}
	default:
		return reacts(REACT_NONE);
	}
}

static void confirm_key(struct ui *u, wint_t ch)
{
	u->prompt.kind = PROMPT_NONE;
	if (ch != 'y' && ch != 'Y')
		snprintf(u->message, sizeof(u->message), "not sent");
	else if (st->tags.n)
		tags_kill(&st->tags, st->kill_sig, u->message, sizeof(u->message));
	else if (pid_hold_signal(&st->kill, st->kill_sig) == 0)
		snprintf(u->message, sizeof(u->message), "sent SIG%s to %d",
			 sigabbrev_np(st->kill_sig), (int)st->kill.pid);
	else if (errno == ESRCH)
		exited(u);
	else
		snprintf(u->message, sizeof(u->message), "kill %d: %s", (int)st->kill.pid,
			 strerror(errno));
	pid_hold_close(&st->kill);
}

/* A key while a prompt is open (u->prompt.kind != PROMPT_NONE), but the filter's (the table
 * screen's): the main screen's prompts, and the interval's and a replay's time on any */
struct reaction main_prompt(struct ui *u, wint_t ch, bool is_key)
{
	enum prompt_kind kind = u->prompt.kind;
	char text[128];

	if (kind == PROMPT_CONFIRM) {
		confirm_key(u, is_key ? 0 : ch);
		return reacts(REACT_NONE);
	}
	enum prompt_result r = prompt_edit(&u->prompt, ch, is_key);
	prompt_text(&u->prompt, text, sizeof(text));
	switch (r) {
	case PROMPT_IGNORED:
		return reacts(REACT_NONE);
	case PROMPT_CANCEL:
		if (kind == PROMPT_SIGNAL)
			pid_hold_close(&st->kill);
		return reacts(REACT_NONE);
	case PROMPT_COMMIT:
		return commit(u, kind, text);
	case PROMPT_NEXT:
		if (kind == PROMPT_SEARCH)
			main_search_from(u, st->tab.sel + 1);
		return reacts(REACT_NONE);
	case PROMPT_EDITED:
		break;
	}
	/* as the text is typed, search moves the selection */
	u->message[0] = '\0';
	if (kind == PROMPT_SEARCH) {
		snprintf(st->search, sizeof(st->search), "%s", text);
		main_search_from(u, st->tab.sel);
	}
	return reacts(REACT_NONE);
}

/* The confirmation's line: the signal, and the process or the tagged ones */
void main_confirm_draw(struct ui *u)
{
	const struct canvas *cv = &u->cv;
	char line[300], comm[80];

	escape_display(st->kill_comm, comm, sizeof(comm), cv->utf8);
	if (st->tags.n)
		snprintf(line, sizeof(line), "Send SIG%s (%d) to %zu tagged processes? [y/N] ",
			 sigabbrev_np(st->kill_sig), st->kill_sig, st->tags.n);
	else
		snprintf(line, sizeof(line), "Send SIG%s (%d) to %d (%s)? [y/N] ",
			 sigabbrev_np(st->kill_sig), st->kill_sig, (int)st->kill.pid, comm);
	put_text(cv, cv->rows - 1, 0, cv->cols, ROLE_ALERT, line, true);
	curs_set(0);
}
