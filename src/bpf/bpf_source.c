#include "bpf_source.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "bpf_concern.h"
#include "bpf_log.h"
#include "bpf_pins.h"
#include "fds.h"
#include "hidepid.h"
#include "kbtf.h"
#include "kmsg.h"
#include "oom_merge.h"
#include "pidns.h"
#include "util.h"

#define BPF_CONCERN_ENTRY(c) &c,
static const struct bpf_concern *const concerns[] = {BPF_CONCERNS(BPF_CONCERN_ENTRY)};

#define NCONCERNS (sizeof(concerns) / sizeof(concerns[0]))
_Static_assert(NCONCERNS <= MT_BPF_CONCERNS, "more concerns than a snapshot holds");

#define BPF_CONCERN_NAME(c) #c,
static const char *const concern_names[] = {BPF_CONCERNS(BPF_CONCERN_NAME)};

struct bpf_source {
	struct {
		void *state; /* NULL: off */
		int err;
		char why[96];		/* why it is off; empty when on */
		struct memtop_bpf *own; /* its own object, when the shared one failed to load */
		bool loaded;		/* its programs loaded (started or not) */
		bool no_fds;		/* left out: the descriptors are too few */
	} c[NCONCERNS];
	struct memtop_bpf *shared; /* every concern's programs, loaded once */
	struct bpf_pins *pins;	   /* a service's programs used, or this one's pinned */
	char pins_say[128];	   /* what became of pins: a line of the reason, or "" */
	struct oom_merge *oom;	   /* kills from the kernel log, and from before start */
	char reason[160];
};

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* When every concern failed: the reason most of them give (the first of those tied). */
static const char *common_why(const struct bpf_source *b)
{
	size_t best = 0, best_n = 0;

	for (size_t i = 0; i < NCONCERNS; i++) {
		size_t n = 0;

		for (size_t j = 0; j < NCONCERNS; j++)
			n += !strcmp(b->c[i].why, b->c[j].why);
		if (n > best_n) {
			best = i;
			best_n = n;
		}
	}
	return b->c[best].why;
}

/* One line: which counters are off and why. */
static void make_reason(struct bpf_source *b, const char *off)
{
	char *r = b->reason;
	size_t len = sizeof(b->reason);
	size_t nfail = 0, ndenied = 0;
	bool log_said = false;

	for (size_t i = 0; i < NCONCERNS; i++) {
		nfail += b->c[i].why[0] != 0;
		ndenied += b->c[i].why[0] && (b->c[i].err == -EPERM || b->c[i].err == -EACCES);
	}
	if (off) {
		append(r, len, "BPF off: %s", off);
	} else if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		append(r, len, "BPF off: kernel without BTF (/sys/kernel/btf/vmlinux)");
	} else if (ndenied == NCONCERNS && geteuid()) {
		append(r, len, "BPF off: not root (");
		for (size_t i = 0; i < NCONCERNS; i++)
			append(r, len, "%s%s", i ? ", " : "", concerns[i]->needs);
		append(r, len, " need root)");
	} else if (ndenied == NCONCERNS) {
		append(r, len, "BPF off: permission denied loading programs");
	} else if (nfail == NCONCERNS) {
		append(r, len, "BPF off: %s", common_why(b));
	} else {
		for (size_t i = 0; i < NCONCERNS; i++) {
			if (!b->c[i].why[0])
				continue;
			append(r, len, "%s%s off: %s", r[0] ? "; " : "", concerns[i]->name,
			       b->c[i].why);
			/* what runs instead, next to its cause: the line may be cut */
			if (concerns[i]->oom_kills && oom_merge_following(b->oom) && !log_said) {
				append(r, len, "; OOM kills from the kernel log");
				log_said = true;
			}
		}
	}
	if (b->pins_say[0])
		append(r, len, "%s%s", r[0] ? "; " : "", b->pins_say);
	if (oom_merge_following(b->oom) && !log_said)
		append(r, len, "; OOM kills from the kernel log");
	char hidden[96];
	if (procfs_hidden(hidden, sizeof(hidden))) /* why fewer processes show than run */
		append(r, len, "; %s", hidden);
}

/* MEMTOP_BPF_BREAK=NAME (a concern's name, as in MEMTOP_BPF_ONLY) makes the first program
 * of that concern to load return at its first instruction, which the kernel's verifier
 * rejects (the rest unreachable, its result unset), so that the tests see a real failed
 * load leave the other concerns on. The program keeps its length: libbpf relocates its
 * instructions by their places after this. */
static void break_one(struct memtop_bpf *skel, const bool *on)
{
	const char *name = getenv("MEMTOP_BPF_BREAK");

	for (size_t i = 0; name && i < NCONCERNS; i++) {
		struct bpf_program *prog = on[i] && !strcmp(name, concern_names[i])
						   ? bpf_concern_first_loaded(concerns[i], skel)
						   : NULL;
		size_t n = prog ? bpf_program__insn_cnt(prog) : 0;

		if (!n)
			continue;
		struct bpf_insn *copy = xmalloc(n * sizeof(*copy));

		memcpy(copy, bpf_program__insns(prog), n * sizeof(*copy));
		copy[0] = (struct bpf_insn){.code = BPF_JMP | BPF_EXIT};
		bpf_program__set_insns(prog, copy, n);
		free(copy);
	}
}

/* Loads the programs of the concerns for which on[] is set (every other program is
 * left out), having let those concerns configure skel; one whose configure says it
 * cannot run here is left out too, its on[] cleared. The kernel's BTF is parsed once,
 * for the configures, and lent to the load (kbtf_lend), which frees it. Returns 0 or a
 * negative errno. */
static int load_for(struct bpf_source *b, struct memtop_bpf *skel, bool *on)
{
	struct bpf_program *prog;
	struct btf *kernel = kbtf_load();

	PIDNS_CONFIGURE(skel);
	bpf_object__for_each_program(prog, skel->obj) bpf_program__set_autoload(prog, false);
	for (size_t i = 0; i < NCONCERNS; i++) {
		if (!on[i])
			continue;
		/* its programs first: its configure may leave out one it needs not here */
		bpf_concern_autoload(concerns[i], skel, true);
		if (concerns[i]->configure &&
		    (b->c[i].err = concerns[i]->configure(skel, kernel, b->c[i].why,
							  sizeof(b->c[i].why)))) {
			bpf_concern_autoload(concerns[i], skel, false);
			on[i] = false;
		}
	}
	kbtf_lend(kernel);
	break_one(skel, on);
	int err = memtop_bpf__load(skel);
	kbtf_lend_end();
	return err;
}

static void start(struct bpf_source *b, size_t i, struct memtop_bpf *skel, struct bpf_pins *pins)
{
	b->c[i].state = bpf_concern_start(concerns[i], skel, pins, b->c[i].why, sizeof(b->c[i].why),
					  &b->c[i].err);
}

/* Concern i is to load: MEMTOP_BPF_ONLY, a comma-separated list of the concerns' names
 * (bpf_oom, bpf_reclaim, bpf_swapin, bpf_tasks, bpf_cgroup_iter), loads only those, for
 * bench/concerns.sh to measure what each costs to load; unset, all load */
static bool asked_for(struct bpf_source *b, size_t i)
{
	const char *only = getenv("MEMTOP_BPF_ONLY");
	size_t len = strlen(concern_names[i]);

	if (!only)
		return true;
	for (const char *p = only; (p = strstr(p, concern_names[i])); p += len)
		if ((p == only || p[-1] == ',') && (!p[len] || p[len] == ','))
			return true;
	snprintf(b->c[i].why, sizeof(b->c[i].why), "not in MEMTOP_BPF_ONLY");
	return false;
}

/* Descriptors an object holds without its concerns' programs: its maps and its BTF */
#define OBJECT_FDS (sizeof(((struct memtop_bpf *)0)->maps) / sizeof(struct bpf_map *) + 1)
/* Those libbpf opens and closes again while it loads (its probes of the kernel, the
 * kernel's BTF) */
#define LOAD_FDS 3
/* Those opened after the programs are loaded and held: /dev/kmsg */
#define AFTER_FDS 1

/* Whether need descriptors more leave those held after loading and the refresh's reserve
 * (fds.h), and the LOAD_FDS to load them */
static bool fds_for(long need)
{
	long room = fds_free();

	return room < 0 || room >= need + LOAD_FDS + AFTER_FDS + FDS_RESERVE;
}

/* One object for all: the kernel's BTF is parsed once. When it fails to load, each
 * concern gets an object of its own with only its programs, so one concern that cannot
 * load on this kernel leaves the others on. */
static void load_all(struct bpf_source *b)
{
	bool on[NCONCERNS];
	int err;

	for (size_t i = 0; i < NCONCERNS; i++)
		on[i] = asked_for(b, i) && !b->c[i].no_fds;
	b->shared = memtop_bpf__open();
	if (!b->shared) {
		err = -errno;
		for (size_t i = 0; i < NCONCERNS; i++) {
			b->c[i].err = err;
			bpf_concern_why(b->c[i].why, sizeof(b->c[i].why), "opening", err);
		}
		return;
	}
	int shared_err = err = load_for(b, b->shared, on);
	if (!err) {
		for (size_t i = 0; i < NCONCERNS; i++)
			if ((b->c[i].loaded = on[i]))
				start(b, i, b->shared, NULL);
		return;
	}
	memtop_bpf__destroy(b->shared);
	b->shared = NULL;
	/* one object per concern, unless the kernel refused BPF itself (not root, locked
	 * down): each would fail alike */
	for (size_t i = 0; i < NCONCERNS; i++) {
		bool only[NCONCERNS] = {false};

		if (shared_err == -EPERM) { /* the reason for all, whatever else each lacks */
			b->c[i].err = shared_err;
			b->c[i].why[0] = '\0';
			bpf_concern_why(b->c[i].why, sizeof(b->c[i].why), "loading", shared_err);
		}
		if (!on[i] || shared_err == -EPERM)
			continue;
		if (!fds_for(OBJECT_FDS + bpf_concern_fds(concerns[i]))) {
			b->c[i].no_fds = true;
			continue;
		}
		only[i] = true;
		b->c[i].own = memtop_bpf__open();
		err = b->c[i].own ? load_for(b, b->c[i].own, only) : -errno;
		if (!err && only[i]) {
			b->c[i].loaded = true;
			start(b, i, b->c[i].own, NULL);
			continue;
		}
		if (err)
			b->c[i].err = err;
		if (err == -EACCES)
			bpf_concern_why(b->c[i].why, sizeof(b->c[i].why),
					"the kernel's verifier rejected its programs", err);
		else
			bpf_concern_why(b->c[i].why, sizeof(b->c[i].why), "loading", err);
		memtop_bpf__destroy(b->c[i].own);
		b->c[i].own = NULL;
	}
}

/* Every concern closed and its programs unloaded, as before load_all; those left out for
 * the descriptors stay so */
static void unload_all(struct bpf_source *b)
{
	for (size_t i = 0; i < NCONCERNS; i++) {
		bpf_concern_close(concerns[i], b->c[i].state);
		memtop_bpf__destroy(b->c[i].own);
		b->c[i].state = NULL;
		b->c[i].own = NULL;
		b->c[i].loaded = false;
		b->c[i].err = 0;
		b->c[i].why[0] = '\0';
	}
	memtop_bpf__destroy(b->shared);
	b->shared = NULL;
}

/* The descriptors the objects loaded and their concerns take at most (bpf_concern_fds),
 * less those open more than before, which they hold: what they will open as they run,
 * owed (fds_owe). True where the descriptors ran out or what is left falls short of the
 * refresh's reserve. */
static bool fds_short(struct bpf_source *b, long before)
{
	long planned = b->shared ? (long)OBJECT_FDS : 0;
	bool ran_out = false;

	for (size_t i = 0; i < NCONCERNS; i++) {
		planned += b->c[i].own ? (long)OBJECT_FDS : 0;
		planned += b->c[i].loaded ? bpf_concern_fds(concerns[i]) : 0;
		ran_out |= b->c[i].err == -EMFILE || b->c[i].err == -ENFILE;
	}
	fds_owe(planned - (fds_open() - before));
	long room = fds_free();
	return ran_out || (room >= 0 && room < AFTER_FDS + FDS_RESERVE);
}

/* The concerns asked for that fit the descriptors in their order, each with what it takes
 * (bpf_concern_fds), the others off for them; loaded, and where more were taken than
 * counted, loaded again without the last one on until the reserve is left (fds.h): /proc
 * keeps what it needs, whatever BPF gets */
static void load_within_fds(struct bpf_source *b)
{
	long before = fds_open(), room = fds_free();
	long left = room - (long)OBJECT_FDS - LOAD_FDS - AFTER_FDS - FDS_RESERVE;
	bool any = false;

	for (size_t i = 0; i < NCONCERNS; i++) {
		long need = bpf_concern_fds(concerns[i]);
		if (!asked_for(b, i) || room < 0)
			continue;
		b->c[i].no_fds = need > left;
		left -= b->c[i].no_fds ? 0 : need;
	}
	for (size_t i = 0; i < NCONCERNS; i++)
		any |= asked_for(b, i) && !b->c[i].no_fds;
	while (any) {
		load_all(b);
		if (!fds_short(b, before))
			break;
		size_t last = NCONCERNS;
		for (size_t i = 0; i < NCONCERNS; i++)
			if (b->c[i].loaded || b->c[i].err == -EMFILE || b->c[i].err == -ENFILE)
				last = i;
		unload_all(b);
		fds_owe(0);
		if (last == NCONCERNS)
			break;
		b->c[last].no_fds = true;
	}
	for (size_t i = 0; i < NCONCERNS; i++)
		if (b->c[i].no_fds)
			snprintf(b->c[i].why, sizeof(b->c[i].why),
				 "too few file descriptors (ulimit -n %ld)", fds_limit());
}

/* The concerns off for the descriptors, in one line on stderr: "memtop: <name>, <name>
 * off: too few ...", or "memtop: BPF off: too few ..." where none is on */
static void say_no_fds(const struct bpf_source *b)
{
	char line[256] = "";
	const char *why = NULL;
	bool all = true;

	for (size_t i = 0; i < NCONCERNS; i++) {
		all &= !b->c[i].state;
		if (!b->c[i].no_fds)
			continue;
		append(line, sizeof(line), "%s%s", why ? ", " : "", concerns[i]->name);
		why = b->c[i].why;
	}
	if (why)
		fprintf(stderr, "memtop: %s off: %s\n", all ? "BPF" : line, why);
}

/* Every concern from the programs a service pinned (bpf_pins.h), those it has on; 0, or
 * -1 with nothing of them kept (the pins then closed, why said in pins_say) */
static int use_pins(struct bpf_source *b, struct bpf_pins *p)
{
	unsigned on = bpf_pins_concerns(p);
	char why[96] = "";
	size_t i;

	if (!(b->shared = memtop_bpf__open()))
		bpf_concern_why(why, sizeof(why), "opening", -errno);
	else if (!bpf_pins_reuse(p, b->shared, why, sizeof(why)))
		for (i = 0; i < NCONCERNS; i++) {
			if (!asked_for(b, i))
				continue;
			if (!(on & 1u << i)) {
				snprintf(b->c[i].why, sizeof(b->c[i].why),
					 "not on in memtop %d's programs", bpf_pins_owner(p));
				continue;
			}
			start(b, i, b->shared, p);
			if (!b->c[i].state) { /* the service removing them, say */
				snprintf(why, sizeof(why), "%s", b->c[i].why);
				break;
			}
		}
	if (!why[0]) {
		b->pins = p;
		snprintf(b->pins_say, sizeof(b->pins_say), "BPF programs of memtop %d",
			 bpf_pins_owner(p));
		return 0;
	}
	snprintf(b->pins_say, sizeof(b->pins_say), "BPF pins of memtop %d not used: %s",
		 bpf_pins_owner(p), why);
	for (i = 0; i < NCONCERNS; i++) {
		bpf_concern_close(concerns[i], b->c[i].state);
		b->c[i].state = NULL;
		b->c[i].why[0] = '\0';
	}
	memtop_bpf__destroy(b->shared);
	b->shared = NULL;
	bpf_pins_close(p);
	return -1;
}

/* A service's programs pinned for other memtops; what fails is said in one line */
static void pin(struct bpf_source *b, const char *recording)
{
	unsigned on = 0;
	int err = 0;
	struct bpf_pins *p = bpf_pins_create(b->pins_say, sizeof(b->pins_say));

	if (!p)
		return;
	for (size_t i = 0; i < NCONCERNS && !err; i++)
		if (b->c[i].state) {
			on |= 1u << i;
			err = bpf_concern_pin(concerns[i], b->c[i].state, p);
		}
	if (err)
		snprintf(b->pins_say, sizeof(b->pins_say),
			 "BPF programs not shared: pinning in %s: %s", BPF_PINS_DIR,
			 strerror(-err));
	else
		err = bpf_pins_publish(p, b->shared, on, recording, b->pins_say,
				       sizeof(b->pins_say));
	if (err)
		bpf_pins_close(p);
	else
		b->pins = p;
}

struct bpf_source *bpf_source_open(const struct bpf_opts *o)
{
	struct bpf_source *b = xcalloc(1, sizeof(*b));
	bool kills = false;

	bpf_log_loading(o->verbose); /* while loading only */
	if (o->pins_only && (o->off || access("/sys/kernel/btf/vmlinux", R_OK))) {
		free(b);
		return NULL;
	}
	if (!o->off && access("/sys/kernel/btf/vmlinux", R_OK) == 0) {
		struct bpf_pins *p = bpf_pins_find(b->pins_say, sizeof(b->pins_say));
		if (o->pins_only && (!p || use_pins(b, p))) {
			bpf_log_quiet();
			free(b);
			return NULL;
		}
		if (!o->pins_only && (!p || use_pins(b, p))) {
			load_within_fds(b);
			if (o->pin && b->shared)
				pin(b, o->recording);
			else if (o->pin)
				snprintf(
					b->pins_say, sizeof(b->pins_say),
					"BPF programs not shared: they did not load as one object");
		}
		for (size_t i = 0; i < NCONCERNS; i++)
			kills |= b->c[i].state && concerns[i]->oom_kills;
	}
	bpf_log_quiet();
	if (o->say_fds)
		say_no_fds(b);
	/* after attaching, so a kill is either in the log now or reported by BPF */
	b->oom = oom_merge_open(kmsg_open(), !kills);
	make_reason(b, o->off);
	return b;
}

int bpf_source_walk(struct bpf_source *b, struct snapshot *s)
{
	for (size_t i = 0; b && i < NCONCERNS; i++)
		if (b->c[i].state && concerns[i]->walk && concerns[i]->walk(b->c[i].state, s) == 0)
			return 0;
	return -1;
}

void bpf_source_collect(struct bpf_source *b, struct snapshot *s)
{
	struct bpf_state *st = &s->bpf;
	size_t first_new = s->nevents;

	memset(st, 0, sizeof(*st));
	if (!b) { /* still loading: nothing of it known yet */
		st->loading = true;
		snprintf(st->reason, sizeof(st->reason), "BPF loading");
		return;
	}
	snprintf(st->reason, sizeof(st->reason), "%s", b->reason);
	for (size_t i = 0; i < NCONCERNS; i++) {
		st->concern[i].on = b->c[i].state != NULL;
		snprintf(st->concern[i].name, sizeof(st->concern[i].name), "%s",
			 concern_names[i] + strlen("bpf_"));
		snprintf(st->concern[i].why, sizeof(st->concern[i].why), "%s",
			 b->c[i].state	  ? ""
			 : b->c[i].why[0] ? b->c[i].why
					  : "off");
		st->nconcerns = (int)i + 1;
		if (!b->c[i].state)
			continue;
		if (concerns[i]->collect)
			concerns[i]->collect(b->c[i].state, s);
		st->programs += bpf_concern_links(concerns[i], b->c[i].state);
		st->enabled = true;
	}
	oom_merge_collect(b->oom, s, first_new);
}

struct cg_iter *bpf_source_cgroups(struct bpf_source *b)
{
	for (size_t i = 0; b && i < NCONCERNS; i++)
		if (concerns[i] == &bpf_cgroup_iter)
			return b->c[i].state;
	return NULL;
}

void bpf_source_close(struct bpf_source *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < NCONCERNS; i++) {
		bpf_concern_close(concerns[i], b->c[i].state);
		memtop_bpf__destroy(b->c[i].own);
	}
	memtop_bpf__destroy(b->shared);
	bpf_pins_close(b->pins); /* a service's pins removed */
	oom_merge_close(b->oom);
	free(b);
}
