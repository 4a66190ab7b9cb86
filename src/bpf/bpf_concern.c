#include "bpf_concern.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf_pins.h"
#include "util.h"

/* The program at place at of skel (SKEL_PROG) */
static struct bpf_program *prog_at(struct memtop_bpf *skel, size_t at)
{
	struct bpf_program *prog;

	memcpy(&prog, (const char *)skel + at, sizeof(prog));
	return prog;
}

void bpf_concern_autoload(const struct bpf_concern *c, struct memtop_bpf *skel, bool on)
{
	for (size_t i = 0; i < BPF_CONCERN_PROGS && c->progs[i]; i++)
		bpf_program__set_autoload(prog_at(skel, c->progs[i]), on);
	for (size_t i = 0; i < BPF_CONCERN_PROGS && c->later[i]; i++)
		bpf_program__set_autoload(prog_at(skel, c->later[i]), on);
}

int bpf_concern_fds(const struct bpf_concern *c)
{
	int progs = 0, later = 0;

	while (progs < BPF_CONCERN_PROGS && c->progs[progs])
		progs++;
	while (later < BPF_CONCERN_PROGS && c->later[later])
		later++;
	if (c->one_of && progs) /* one of them loads, and is attached */
		progs = 1;
	return 2 * progs + later + c->fds;
}

struct bpf_program *bpf_concern_first_loaded(const struct bpf_concern *c, struct memtop_bpf *skel)
{
	for (size_t i = 0; i < BPF_CONCERN_PROGS && c->progs[i]; i++)
		if (bpf_program__autoload(prog_at(skel, c->progs[i])))
			return prog_at(skel, c->progs[i]);
	for (size_t i = 0; i < BPF_CONCERN_PROGS && c->later[i]; i++)
		if (bpf_program__autoload(prog_at(skel, c->later[i])))
			return prog_at(skel, c->later[i]);
	return NULL;
}

/* Attaches each of c's progs by its section name (of alternatives, the one loaded or
 * pinned); on failure names the tracepoint (or the iterator) in why and returns a
 * negative errno, the others left to close. */
static int attach(const struct bpf_concern *c, struct bpf_concern_state *st, char *why, size_t len)
{
	for (size_t i = 0; i < BPF_CONCERN_PROGS && c->progs[i]; i++) {
		struct bpf_program *prog = prog_at(st->skel, c->progs[i]);
		const char *sec = bpf_program__section_name(prog);
		const char *tp = strchr(sec, '/') ? strchr(sec, '/') + 1 : sec;
		struct bpf_link *link;
		int err;

		if (c->one_of && !st->pins && !bpf_program__autoload(prog))
			continue;
		link = st->pins ? bpf_pins_link(st->pins, bpf_program__name(prog))
				: bpf_program__attach(prog);
		err = -errno;
		if (link) {
			st->link_at[st->nlinks] = c->progs[i];
			st->link[st->nlinks++] = link;
			continue;
		}
		if (c->one_of && st->pins && err == -ENOENT)
			continue;
		if (st->pins)
			snprintf(why, len, "the pinned link of %s: %s", bpf_program__name(prog),
				 strerror(-err));
		else if (!strncmp(sec, "iter/", 5))
			snprintf(why, len, "attaching the %s iterator: %s", tp, strerror(-err));
		else if (err == -ENOENT)
			snprintf(why, len, "no tracepoint %s", tp);
		else
			snprintf(why, len, "attaching %s: %s", tp, strerror(-err));
		return err;
	}
	if (!st->nlinks && c->progs[0]) {
		snprintf(why, len, "none of its programs %s", st->pins ? "pinned" : "loaded");
		return -ENOENT;
	}
	return 0;
}

void *bpf_concern_start(const struct bpf_concern *c, struct memtop_bpf *skel, struct bpf_pins *pins,
			char *why, size_t len, int *err)
{
	struct bpf_concern_state *st = xcalloc(1, c->state_size);

	st->skel = skel;
	st->pins = pins;
	*err = attach(c, st, why, len);
	if (!*err && c->start)
		*err = c->start(st, why, len);
	if (!*err)
		return st;
	bpf_concern_close(c, st);
	return NULL;
}

int bpf_concern_prog_fd(const struct bpf_concern_state *st, size_t at)
{
	struct bpf_program *prog = prog_at(st->skel, at);

	return st->pins ? bpf_pins_prog_fd(st->pins, bpf_program__name(prog))
			: bpf_program__fd(prog);
}

int bpf_concern_pin(const struct bpf_concern *c, const void *state, struct bpf_pins *pins)
{
	const struct bpf_concern_state *st = state;
	int err = 0;

	for (int i = 0; i < st->nlinks && !err; i++)
		err = bpf_pins_add_link(pins, bpf_program__name(prog_at(st->skel, st->link_at[i])),
					st->link[i]);
	for (size_t i = 0; i < BPF_CONCERN_PROGS && c->later[i] && !err; i++) {
		struct bpf_program *prog = prog_at(st->skel, c->later[i]);
		if (!strncmp(bpf_program__section_name(prog), "iter/", 5))
			err = bpf_pins_add_prog(pins, prog);
	}
	return err;
}

int bpf_concern_links(const struct bpf_concern *c, const void *state)
{
	const struct bpf_concern_state *st = state;

	return st->nlinks + (c->links ? c->links(state) : 0);
}

void bpf_concern_close(const struct bpf_concern *c, void *state)
{
	struct bpf_concern_state *st = state;

	if (!st)
		return;
	if (c->stop)
		c->stop(st);
	while (st->nlinks > 0)
		bpf_link__destroy(st->link[--st->nlinks]);
	free(st);
}

void bpf_concern_why(char *why, size_t len, const char *what, int err)
{
	if (!why[0])
		snprintf(why, len, "%s: %s", what, strerror(-err));
}
