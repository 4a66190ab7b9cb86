/* Totals per user, as smem -u gives them: how many processes, and the sum of their swap,
 * USS, PSS and RSS (the columns of usercolumns.h). PSS and USS are summed over the
 * processes whose smaps_rollup was read (the runner asks for it for every process while
 * the totals are wanted); and their order for a view. */
#ifndef MEMTOP_USERS_H
#define MEMTOP_USERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"
#include "usercolumns.h"

/* The columns the totals sum, which the collector must read for every process */
#define USER_TOTALS_COLS                                                                           \
	(COL_BIT(COL_RSS) | COL_BIT(COL_SWAP) | COL_BIT(COL_PSS) | COL_BIT(COL_USS))

struct user_totals {
	struct user_total *u; /* by PSS, the largest first; ties by uid */
	size_t n, cap;
};

/* The totals of the processes of s */
void user_totals_make(struct user_totals *t, const struct snapshot *s);
void user_totals_free(struct user_totals *t);
/* Of all users, the processes whose PSS and USS could not be read */
size_t user_totals_unread(const struct user_totals *t);

/* How a view orders the users: by column sort (its natural direction, invert: the other),
 * only those whose name holds filter (any case; "" or NULL: all); ties by uid */
struct user_order {
	int sort;
	bool invert;
	const char *filter;
};
/* The indices of the users shown, in order, into out (room for t->n); returns how many */
size_t user_totals_order(const struct user_totals *t, const struct user_order *o, size_t *out);

#endif
