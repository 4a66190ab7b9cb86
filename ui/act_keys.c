/* The actions on memory as the screen asks for them (act_keys.h): the request a key makes,
 * the prompts that fill it in (the oom_score_adj menu, an amount with the cgroup's current
 * value and forecast beside it) and the confirmation; the loop carries it out. */
#include "act_keys.h"

#include <stdio.h>
#include <string.h>

#include "cgroup_table.h"
#include "cgroups.h"
#include "parse.h"
#include "prompt.h"
#include "text.h"

/* The oom_score_adj menu: its keys and values */
static const struct {
	char key;
	int adj;
	const char *what;
} adj_menu[] = {
	{'1', -1000, "protect -1000"}, {'2', -500, "protect -500"},	{'3', 0, "normal 0"},
	{'4', 500, "offer 500"},       {'5', 1000, "offer first 1000"},
};
#define ADJ_MENU ((int)(sizeof(adj_menu) / sizeof(adj_menu[0])))

/* The forecast beside an amount's prompt, from the row the cgroup was asked on */
static char note[160];

/* Whether actions are refused here: a line says why */
static bool refused(struct ui *u)
{
	if (u->read_only)
		snprintf(u->message, sizeof(u->message),
			 "read-only (--read-only): memtop changes nothing from this screen");
	else if (u->rv.on)
		snprintf(u->message, sizeof(u->message),
			 "a replay's processes and cgroups are not live: nothing to act on");
	else
		return false;
	return true;
}

/* The forecast of the cgroup c: its usage, growth, time to its limit and victim */
static void forecast_note(const struct cg_sample *c)
{
	char use[16], grow[16], in[16];
	int n = 0;

	note[0] = '\0';
	if (c->valid & CGCOL_BIT(CGCOL_USAGE)) {
		fmt_kb(c->v[CGCOL_USAGE], use, sizeof(use));
		n += snprintf(note + n, sizeof(note) - (size_t)n, "usage %s", use);
	}
	if (c->trend & CGCOL_BIT(CGCOL_GROWTH)) {
		fmt_skb(c->growth_kb_min, grow, sizeof(grow));
		n += snprintf(note + n, sizeof(note) - (size_t)n, "%s%s/min", n ? ", " : "", grow);
	}
	if ((c->trend & CGCOL_BIT(CGCOL_LIMIT_IN)) && (size_t)n < sizeof(note)) {
		fmt_secs(c->limit_in_s, in, sizeof(in));
		n += snprintf(note + n, sizeof(note) - (size_t)n, "%sat its limit in ~%s",
			      n ? ", " : "", in);
	}
	if ((c->trend & CGCOL_BIT(CGCOL_VICTIM)) && c->victim && (size_t)n < sizeof(note))
		snprintf(note + n, sizeof(note) - (size_t)n, "%svictim %d", n ? ", " : "",
			 (int)c->victim);
}

struct reaction act_ask_proc(struct ui *u, const struct proc_sample *p)
{
	if (refused(u) || !p)
		return reacts(REACT_NONE);
	pid_hold_close(&u->act.hold);
	u->act = (struct act_req){.op = AO_OOM_ADJ,
				  .stage = AS_PREPARE,
				  .pid = p->pid,
				  .start = p->start_ticks,
				  .hold = {.fd = -1}};
	snprintf(u->act.comm, sizeof(u->act.comm), "%s", p->comm);
	return reacts(REACT_ACT);
}

struct reaction act_ask_cgroup(struct ui *u, enum act_op op, const struct cg_row *r)
{
	if (refused(u))
		return reacts(REACT_NONE);
	if (!r) {
		snprintf(u->message, sizeof(u->message), "no cgroup selected");
		return reacts(REACT_NONE);
	}
	pid_hold_close(&u->act.hold);
	u->act = (struct act_req){
		.op = op, .stage = AS_PREPARE, .cgid = r->c->id, .hold = {.fd = -1}};
	snprintf(u->act.path, sizeof(u->act.path), "%s", r->c->path);
	cg_display_name(r->c->name, r->c->path, u->act.shown, sizeof(u->act.shown), 40);
	forecast_note(r->c);
	return reacts(REACT_ACT);
}

struct reaction act_ask_undo(struct ui *u, size_t since)
{
	const struct act_log *log = u->acts;
	char was[16], to[16], shown[120];

	if (refused(u))
		return reacts(REACT_NONE);
	if (!log || !log->undo_seq || log->undo_seq <= since) {
		snprintf(u->message, sizeof(u->message),
			 "no limit changed since this screen opened");
		return reacts(REACT_NONE);
	}
	pid_hold_close(&u->act.hold);
	u->act = log->last;
	u->act.undo = true;
	u->act.stage = AS_DO;
	act_amount(u->act.now, was, sizeof(was));
	act_amount(u->act.bytes, to, sizeof(to));
	escape_display(u->act.shown, shown, sizeof(shown), u->cv.utf8);
	prompt_open(&u->prompt, PROMPT_ACT_CONFIRM, "");
	snprintf(u->prompt.title, sizeof(u->prompt.title), "Undo: %s of %s %s -> %s? [y/N] ",
		 u->act.file, shown, was, to);
	return reacts(REACT_NONE);
}

/* The confirmation of u->act, its amount or value set */
static void confirm(struct ui *u)
{
	struct act_req *a = &u->act;
	char shown[120], now[16], to[16];
	char *t = u->prompt.title;
	size_t n = sizeof(u->prompt.title);

	escape_display(a->op == AO_OOM_ADJ ? a->comm : a->shown, shown, sizeof(shown), u->cv.utf8);
	act_amount(a->now, now, sizeof(now));
	act_amount(a->bytes, to, sizeof(to));
	a->stage = AS_DO;
	prompt_open(&u->prompt, PROMPT_ACT_CONFIRM, "");
	switch (a->op) {
	case AO_OOM_ADJ:
		snprintf(t, n, "Set oom_score_adj of %d (%s) %d -> %d? [y/N] ", (int)a->pid, shown,
			 a->adj_now, a->adj);
		break;
	case AO_CG_HIGH:
	case AO_CG_MAX:
		snprintf(t, n, "Set %s of %s %s -> %s? [y/N] ", a->file, shown, now, to);
		break;
	case AO_CG_RECLAIM:
		snprintf(t, n, "Reclaim %s from %s (memory.reclaim)? [y/N] ", to, shown);
		break;
	case AO_CG_KILL:
		snprintf(t, n, "Kill %s: %d processes%s? [y/N] ", shown, a->nprocs,
			 a->whole ? " (cgroup.kill, its subtree too)"
				  : " (SIGKILL each, by pidfd)");
		break;
	default:
		u->prompt.kind = PROMPT_NONE;
	}
}

void act_prepared(struct ui *u, const char *why)
{
	struct act_req *a = &u->act;
	char shown[120], now[16];

	if (why) {
		escape_display(why, u->message, sizeof(u->message), u->cv.utf8);
		a->stage = AS_NONE;
		return;
	}
	if (a->op == AO_OOM_ADJ) {
		int at = 0;
		char *t = u->prompt.title;
		size_t n = sizeof(u->prompt.title);
		escape_display(a->comm, shown, sizeof(shown), u->cv.utf8);
		prompt_open(&u->prompt, PROMPT_OOM_ADJ, "");
		at = snprintf(t, n, "oom_score_adj of %d (%s), now %d:", (int)a->pid, shown,
			      a->adj_now);
		for (int i = 0; i < ADJ_MENU && at < (int)n; i++)
			at += snprintf(t + at, n - (size_t)at, "  %c %s", adj_menu[i].key,
				       adj_menu[i].what);
		if (at < (int)n)
			snprintf(t + at, n - (size_t)at, "  Esc");
		return;
	}
	if (a->op == AO_CG_KILL) {
		confirm(u);
		return;
	}
	escape_display(a->shown, shown, sizeof(shown), u->cv.utf8);
	prompt_open(&u->prompt, PROMPT_AMOUNT, "");
	act_amount(a->now, now, sizeof(now));
	if (a->op == AO_CG_RECLAIM)
		snprintf(u->prompt.title, sizeof(u->prompt.title),
			 "Reclaim from %s (%s) how much (K, M, G): ", shown, note);
	else
		snprintf(u->prompt.title, sizeof(u->prompt.title),
			 "%s of %s, now %s (%s); new (K, M, G or max): ", a->file, shown, now,
			 note);
}

void act_done(struct ui *u, const char *line)
{
	escape_display(line, u->message, sizeof(u->message), u->cv.utf8);
	u->act.stage = AS_NONE;
}

/* Esc, or an answer other than y: nothing is done */
static struct reaction cancel(struct ui *u)
{
	u->prompt.kind = PROMPT_NONE;
	pid_hold_close(&u->act.hold);
	u->act.stage = AS_NONE;
	snprintf(u->message, sizeof(u->message), "nothing changed");
	return reacts(REACT_NONE);
}

struct reaction act_prompt_key(struct ui *u, wint_t ch, bool is_key)
{
	struct act_req *a = &u->act;
	char text[128];

	switch (u->prompt.kind) {
	case PROMPT_ACT_CONFIRM:
		if (is_key || (ch != 'y' && ch != 'Y'))
			return cancel(u);
		u->prompt.kind = PROMPT_NONE;
		return reacts(REACT_ACT);
	case PROMPT_OOM_ADJ:
		for (int i = 0; i < ADJ_MENU && !is_key; i++)
			if ((wint_t)adj_menu[i].key == ch) {
				a->adj = adj_menu[i].adj;
				confirm(u);
				return reacts(REACT_NONE);
			}
		return ch == 27 || is_key ? cancel(u) : reacts(REACT_NONE);
	default:
		break;
	}
	/* PROMPT_AMOUNT */
	enum prompt_result r = prompt_edit(&u->prompt, ch, is_key);
	if (r == PROMPT_CANCEL)
		return cancel(u);
	if (r == PROMPT_EDITED)
		u->prompt.err[0] = '\0';
	if (r != PROMPT_COMMIT)
		return reacts(REACT_NONE);
	prompt_text(&u->prompt, text, sizeof(text));
	char why[160];
	if (parse_amount(text, a->op != AO_CG_RECLAIM, &a->bytes, why, sizeof(why))) {
		u->prompt.kind = PROMPT_AMOUNT; /* open again, the text kept, the reason after */
		snprintf(u->prompt.err, sizeof(u->prompt.err), "%s", why);
		return reacts(REACT_NONE);
	}
	confirm(u);
	return reacts(REACT_NONE);
}

bool act_prompt_open(const struct ui *u)
{
	return u->prompt.kind == PROMPT_OOM_ADJ || u->prompt.kind == PROMPT_AMOUNT ||
	       u->prompt.kind == PROMPT_ACT_CONFIRM;
}
