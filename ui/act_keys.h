/* The actions on memory as the screen asks for them (src/act/act.h): a key makes the
 * request (ui.act) and returns REACT_ACT; the loop prepares it and hands it back
 * (act_prepared), which opens its prompt (the oom_score_adj menu, an amount beside the
 * cgroup's current value and forecast) and then its confirmation; y returns REACT_ACT
 * again and the loop carries it out (act_done says what happened). Nothing is asked for
 * with --read-only or in a replay: the key says why. */
#ifndef MEMTOP_ACT_KEYS_H
#define MEMTOP_ACT_KEYS_H

#include <stdbool.h>
#include <wchar.h>

#include "cgmodel.h"
#include "screen.h"

/* O on the main screen: p's oom_score_adj (NULL: none selected, said already) */
struct reaction act_ask_proc(struct ui *u, const struct proc_sample *p);
/* H, L, R, k on the cgroup screen: op on the cgroup of row r (NULL: none selected) */
struct reaction act_ask_cgroup(struct ui *u, enum act_op op, const struct cg_row *r);
/* u on the cgroup screen: the last limit change set back, where it was made after the
 * log's entry since (the screen opened then); its confirmation opened */
struct reaction act_ask_undo(struct ui *u, size_t since);
/* The loop prepared u->act: why it cannot be done (NULL: it can, its prompt opens) */
void act_prepared(struct ui *u, const char *why);
/* The loop carried it out: line says what happened (raw) */
void act_done(struct ui *u, const char *line);
/* Whether one of the actions' prompts is open; a key there */
bool act_prompt_open(const struct ui *u);
struct reaction act_prompt_key(struct ui *u, wint_t ch, bool is_key);

#endif
