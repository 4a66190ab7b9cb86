#include "bpf_source.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bpf_concern.h"
#include "kmsg.h"
#include "oom_merge.h"
#include "util.h"

#define BPF_CONCERN_ENTRY(c) &c,
static const struct bpf_concern *const concerns[] = {BPF_CONCERNS(BPF_CONCERN_ENTRY)};

#define NCONCERNS (sizeof(concerns) / sizeof(concerns[0]))

struct bpf_source {
	struct {
		void *state; /* NULL: off */
		int err;
		char why[96]; /* why it is off; empty when on */
	} c[NCONCERNS];
	struct oom_merge *oom; /* kills from the kernel log, and from before start */
	char reason[160];
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int print_stderr(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

/* MEMTOP_DEBUG set, and not to 0 */
static bool debug_env(void)
{
	const char *v = getenv("MEMTOP_DEBUG");

	return v && v[0] && strcmp(v, "0");
}

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
static void make_reason(struct bpf_source *b, bool disabled)
{
	char *r = b->reason;
	size_t len = sizeof(b->reason);
	size_t nfail = 0, ndenied = 0;

	for (size_t i = 0; i < NCONCERNS; i++) {
		nfail += b->c[i].why[0] != 0;
		ndenied += b->c[i].why[0] && (b->c[i].err == -EPERM || b->c[i].err == -EACCES);
	}
	if (disabled) {
		append(r, len, "BPF off: --no-bpf");
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
		for (size_t i = 0; i < NCONCERNS; i++)
			if (b->c[i].why[0])
				append(r, len, "%s%s off: %s", r[0] ? "; " : "", concerns[i]->name,
				       b->c[i].why);
	}
	if (oom_merge_following(b->oom))
		append(r, len, "; OOM kills from the kernel log");
}

struct bpf_source *bpf_source_open(bool disabled, bool verbose)
{
	struct bpf_source *b = xcalloc(1, sizeof(*b));
	bool kills = false;

	/* libbpf's messages, a verifier's log among them, while loading only: then the
	 * full-screen view owns the terminal */
	libbpf_set_print(verbose || debug_env() ? print_stderr : quiet);
	if (!disabled && access("/sys/kernel/btf/vmlinux", R_OK) == 0) {
		for (size_t i = 0; i < NCONCERNS; i++) {
			b->c[i].err =
				concerns[i]->load(&b->c[i].state, b->c[i].why, sizeof(b->c[i].why));
			kills |= b->c[i].state && concerns[i]->oom_kills;
		}
	}
	libbpf_set_print(quiet);
	/* after attaching, so a kill is either in the log now or reported by BPF */
	b->oom = oom_merge_open(kmsg_open(), !kills);
	make_reason(b, disabled);
	return b;
}

void bpf_source_collect(struct bpf_source *b, struct snapshot *s)
{
	struct bpf_state *st = &s->bpf;
	size_t first_new = s->nevents;

	memset(st, 0, sizeof(*st));
	snprintf(st->reason, sizeof(st->reason), "%s", b->reason);
	for (size_t i = 0; i < NCONCERNS; i++) {
		if (!b->c[i].state)
			continue;
		concerns[i]->collect(b->c[i].state, s);
		st->programs += concerns[i]->links(b->c[i].state);
		st->enabled = true;
	}
	oom_merge_collect(b->oom, s, first_new);
}

void bpf_source_close(struct bpf_source *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < NCONCERNS; i++)
		concerns[i]->close(b->c[i].state);
	oom_merge_close(b->oom);
	free(b);
}
