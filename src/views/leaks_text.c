/* The leak tracer's report lines, shared by memtop --leaks and the Leaks tab. */
#include "leaks_text.h"

#include <stdio.h>

#include "text.h"

void leaks_title_text(char *buf, size_t size, int32_t pid, const char *comm, double secs,
		      double bytes, bool utf8)
{
	char c[256];

	escape_display(comm, c, sizeof(c), utf8);
	snprintf(buf, size,
		 "Outstanding allocations of process %d (%s) after %.1f s: %.0f bytes, %.0f/s", pid,
		 c, secs, bytes, secs > 0 ? bytes / secs : 0);
}

void leaks_traced_text(char *buf, size_t size, const char *libc, const char *note, bool utf8)
{
	char l[2048];

	if (!libc[0]) {
		snprintf(buf, size, "traced: mmap, munmap only (%s)", note);
		return;
	}
	escape_display(libc, l, sizeof(l), utf8);
	snprintf(buf, size,
		 "traced: malloc, calloc, realloc, posix_memalign, aligned_alloc, free (uprobes on "
		 "%s); mmap, munmap",
		 l);
}

void leaks_sampled_text(char *buf, size_t size)
{
	snprintf(buf, size,
		 "sampled: an allocation under %d bytes is recorded with probability size/%d;"
		 " ~ marks counts scaled from samples",
		 LEAKS_SAMPLE_BYTES, LEAKS_SAMPLE_BYTES);
}

void leaks_seen_text(char *buf, size_t size, const struct leaks_totals *t)
{
	snprintf(buf, size,
		 "seen: %llu allocations (%llu bytes), %llu recorded; %llu frees, %llu of them"
		 " recorded ones",
		 (unsigned long long)t->allocs, (unsigned long long)t->alloc_bytes,
		 (unsigned long long)t->sampled, (unsigned long long)t->frees,
		 (unsigned long long)t->freed);
}

void leaks_lost_text(char *buf, size_t size, const struct leaks_totals *t)
{
	if (!t->lost_stacks && !t->full) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, size, "lost: %llu stacks not taken, %llu allocations not recorded (map full)",
		 (unsigned long long)t->lost_stacks, (unsigned long long)t->full);
}

void leaks_stack_text(char *buf, size_t size, size_t i, const struct leak_stack *s, double secs,
		      double all)
{
	snprintf(buf, size,
		 "#%zu %s: %s%.0f bytes (%.0f/s, %.1f%%) in %s%.0f allocations, oldest %.1f s",
		 i + 1, leak_kind_names[s->kind], s->estimated ? "~" : "", s->bytes,
		 secs > 0 ? s->bytes / secs : 0, all > 0 ? 100 * s->bytes / all : 0,
		 s->estimated ? "~" : "", s->count, s->oldest);
}

void leaks_frame_text(char *buf, size_t size, bool found, const char *symbol, uint64_t offset,
		      uint64_t ip, const char *module, bool utf8)
{
	char sym[1024], mod[2048];

	escape_display(symbol, sym, sizeof(sym), utf8);
	escape_display(module, mod, sizeof(mod), utf8);
	if (found)
		snprintf(buf, size, "      %s+0x%llx%s%s%s", sym, (unsigned long long)offset,
			 mod[0] ? " (" : "", mod, mod[0] ? ")" : "");
	else
		snprintf(buf, size, "      0x%llx%s%s%s", (unsigned long long)ip,
			 mod[0] ? " (" : "", mod, mod[0] ? ")" : "");
}

void leaks_more_text(char *buf, size_t size, size_t n, double bytes)
{
	snprintf(buf, size, "%zu more stacks (%.0f bytes)", n, bytes);
}
