/* The OOM banner of the header: the newest live OOM kill until it is acknowledged. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "cgcolumns.h"
#include "draw_header.h"
#include "text.h"

/* The OOM banner: the newest live kill and its keys at the right end. Where the line is
 * short, the kill in fewer words (its pid, name and anonymous RSS last) and the keys in
 * shorter ones: the first of the kill's forms that fits with the longest keys that do */
void oom_banner(struct ui *u, int y)
{
	static const char *const hints[] = {"  [y: acknowledge, o: history]",
					    "  [y: acknowledge, o: kills]", "  [y ack, o kills]"};
	const struct model *m = u->m;
	const struct mt_event *e = &m->oom[m->noom - 1];
	char forms[4][512], comm[PROC_NAME_SIZE * 4], memcg[200], anon[8], when[16], more[32] = "";
	uint64_t unseen = m->oom_live - u->oom_acked;
	int cols = u->cv.cols;

	if (unseen > 1)
		snprintf(more, sizeof(more), " (%" PRIu64 " new)", unseen);
	const char *name = oom_victim_name(m, m->noom - 1);
	fmt_oom_line_named(e, name, forms[0], sizeof(forms[0]), u->cv.utf8);
	escape_display(name, comm, sizeof(comm), u->cv.utf8);
	/* the cgroup's container by name, where memtop named it; else its path, cut */
	const struct cg_sample *cg = snapshot_cgroup(model_current(m), 0, e->memcg);
	char shown[CG_NAME_MAX];
	cg_display_name(cg ? cg->name : NULL, e->memcg[0] ? e->memcg : "-", shown, sizeof(shown),
			48);
	escape_display(shown, memcg, sizeof(memcg), u->cv.utf8);
	fmt_kb(e->anon_rss_kb, anon, sizeof(anon));
	fmt_clock(e->ts, when, sizeof(when));
	snprintf(forms[1], sizeof(forms[1]), "%s OOM kill: pid %d (%s) anon %s memcg %s", when,
		 e->pid, comm, anon, memcg);
	snprintf(forms[2], sizeof(forms[2]), "%s OOM kill: pid %d (%s) anon %s", when, e->pid, comm,
		 anon);
	snprintf(forms[3], sizeof(forms[3]), "OOM kill: pid %d (%s)", e->pid, comm);
	for (int f = 0; f < 4; f++)
		strncat(forms[f], more, sizeof(forms[f]) - strlen(forms[f]) - 1);
	int form = 0, hint = 0;
	for (;; hint++) {
		if (hint == 3) {
			hint = 0;
			form++;
		}
		if (form == 3 ||
		    text_cols(forms[form], u->cv.utf8) + (int)strlen(hints[hint]) <= cols)
			break;
	}
	while (form == 3 && hint < 2 &&
	       text_cols(forms[3], u->cv.utf8) + (int)strlen(hints[hint]) > cols)
		hint++;
	int hw = (int)strlen(hints[hint]);
	put_text(&u->cv, y, 0, cols, ROLE_ALERT, "", true);
	put_words(&u->cv, y, 0, cols - hw, ROLE_ALERT, forms[form], false);
	put_text(&u->cv, y, cols - hw, hw, ROLE_ALERT, hints[hint], false);
}
