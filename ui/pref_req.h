/* The one place the view changes struct prefs: what a key asked for (struct pref_req). */
#ifndef MEMTOP_PREF_REQ_H
#define MEMTOP_PREF_REQ_H

#include "screen.h"

/* Applies r to u->prefs; true where the tables' rows must be chosen again (the graph pane
 * took or gave back lines) */
bool pref_req_apply(struct ui *u, const struct pref_req *r);

/* The requests the screens make */
struct pref_req pref_sort(bool cg, int col);
struct pref_req pref_op(bool cg, enum pref_op op);
struct pref_req pref_text(bool cg, const char *text);

#endif
