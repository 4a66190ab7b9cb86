#include "account_out.h"

#include <inttypes.h>
#include <stdio.h>

#include "text.h"

#define PART_FMT "%c %-22s %8s %7s %10s"

void account_titles(char *buf, size_t size)
{
	snprintf(buf, size, PART_FMT, ' ', "PART", "SIZE", "SHARE%", "CHANGE/min");
}

void account_part_line(const struct account *a, int p, char *buf, size_t size)
{
	char kb[16], share[16], change[16];
	int64_t v = a->kb[p];

	if (!(a->known & (1u << p))) {
		snprintf(buf, size, PART_FMT, account_parts[p].key, account_parts[p].label, "-",
			 "-", "-");
		return;
	}
	if (v < 0) /* other kernel, where the values overlap: shown as it is */
		fmt_skb((double)v, kb, sizeof(kb));
	else
		fmt_kb((uint64_t)v, kb, sizeof(kb));
	snprintf(share, sizeof(share), "%.1f", account_share(a, p));
	if (a->trend & (1u << p))
		fmt_skb(a->per_min[p], change, sizeof(change));
	else
		snprintf(change, sizeof(change), "-");
	snprintf(buf, size, PART_FMT, account_parts[p].key, account_parts[p].label, kb, share,
		 change);
}

void account_sum_line(const struct account *a, char *buf, size_t size)
{
	snprintf(buf, size, "parts sum to %" PRId64 " KiB of MemTotal %" PRIu64 " KiB (%.1f %%)",
		 a->sum_kb, a->total_kb,
		 a->total_kb ? 100.0 * (double)a->sum_kb / (double)a->total_kb : 0.0);
}

void account_cache_line(const struct account *a, char *buf, size_t size)
{
	char d[16] = "-", m[16] = "-";

	if (a->dirty_known)
		fmt_kb(a->dirty_kb, d, sizeof(d));
	if (a->mapped_known)
		fmt_kb(a->mapped_kb, m, sizeof(m));
	snprintf(buf, size,
		 "  page cache: of it dirty %s, mapped %s (Mapped counts mapped shmem too)", d, m);
}

void account_detail_lines(const struct account *a, bool utf8,
			  void (*line)(void *arg, bool heading, const char *text), void *arg)
{
	char t[400], path[300], size[16], used[16], rss[16];

	if (!a->details)
		return;
	fmt_kb(a->tmpfs_used_kb, used, sizeof(used));
	snprintf(t, sizeof(t), "tmpfs mounts: %zu, %s used; the largest:", a->tmpfs_all, used);
	line(arg, true, t);
	for (size_t i = 0; i < a->ntmpfs; i++) {
		const struct tmpfs_mount *m = &a->tmpfs[i];
		escape_display(m->path, path, sizeof(path), utf8);
		fmt_kb(m->used_kb, used, sizeof(used));
		fmt_kb(m->size_kb, size, sizeof(size));
		snprintf(t, sizeof(t), "  %8s of %8s  %s", used, size, path);
		line(arg, false, t);
	}
	if (a->shm_err) {
		snprintf(t, sizeof(t), "SysV shm segments: /proc/sysvipc/shm unread");
		line(arg, true, t);
		return;
	}
	fmt_kb(a->shm_size_kb, size, sizeof(size));
	fmt_kb(a->shm_rss_kb, rss, sizeof(rss));
	snprintf(t, sizeof(t), "SysV shm segments: %zu, %s in size, %s resident%s", a->shm_all,
		 size, rss, a->nshm ? "; the largest:" : "");
	line(arg, true, t);
	for (size_t i = 0; i < a->nshm; i++) {
		const struct shm_segment *g = &a->shm[i];
		fmt_kb(g->size_kb, size, sizeof(size));
		fmt_kb(g->rss_kb, rss, sizeof(rss));
		snprintf(t, sizeof(t),
			 "  shmid %-10d key %-11d %8s size %8s resident %" PRIu64 " attached",
			 g->shmid, g->key, size, rss, g->nattch);
		line(arg, false, t);
	}
}

static void text_line(void *arg, bool heading, const char *text)
{
	(void)heading;
	tbuf_printf(arg, "%s\n", text);
}

void account_text(struct tbuf *b, const struct account *a, bool utf8)
{
	char t[300];

	if (!a->valid) {
		tbuf_puts(b, "Account: no MemTotal read\n\n");
		return;
	}
	account_sum_line(a, t, sizeof(t));
	tbuf_printf(b, "Account: %s\n", t);
	account_titles(t, sizeof(t));
	tbuf_printf(b, "%s\n", t);
	for (int p = 0; p < AP_COUNT; p++) {
		account_part_line(a, p, t, sizeof(t));
		tbuf_printf(b, "%s\n", t);
	}
	account_cache_line(a, t, sizeof(t));
	tbuf_printf(b, "%s\n", t);
	account_detail_lines(a, utf8, text_line, b);
	tbuf_putc(b, '\n');
}

static void put_string(struct tbuf *b, const char *s)
{
	b->n += json_quote(s, tbuf_room(b, json_quote_max(s)));
}

/* "key":number with decimals places, or null */
static void put_num(struct tbuf *b, const char *key, bool valid, double v, int decimals)
{
	tbuf_printf(b, "\"%s\":", key);
	if (valid)
		tbuf_printf(b, "%.*f", decimals, v);
	else
		tbuf_puts(b, "null");
}

static void json_details(struct tbuf *b, const struct account *a)
{
	if (!a->details)
		return;
	tbuf_printf(b, ",\"tmpfs_count\":%zu,\"tmpfs_used_kb\":%" PRIu64 ",\"tmpfs\":[",
		    a->tmpfs_all, a->tmpfs_used_kb);
	for (size_t i = 0; i < a->ntmpfs; i++) {
		tbuf_puts(b, i ? ",{\"mount\":" : "{\"mount\":");
		put_string(b, a->tmpfs[i].path);
		tbuf_printf(b, ",\"size_kb\":%" PRIu64 ",\"used_kb\":%" PRIu64 "}",
			    a->tmpfs[i].size_kb, a->tmpfs[i].used_kb);
	}
	tbuf_puts(b, "]");
	if (a->shm_err) {
		tbuf_puts(b, ",\"shm\":null");
		return;
	}
	tbuf_printf(b,
		    ",\"shm_count\":%zu,\"shm_size_kb\":%" PRIu64 ",\"shm_rss_kb\":%" PRIu64
		    ",\"shm\":[",
		    a->shm_all, a->shm_size_kb, a->shm_rss_kb);
	for (size_t i = 0; i < a->nshm; i++) {
		const struct shm_segment *g = &a->shm[i];
		tbuf_printf(b,
			    "%s{\"shmid\":%d,\"key\":%d,\"size_kb\":%" PRIu64 ",\"rss_kb\":%" PRIu64
			    ",\"nattch\":%" PRIu64 "}",
			    i ? "," : "", g->shmid, g->key, g->size_kb, g->rss_kb, g->nattch);
	}
	tbuf_puts(b, "]");
}

void account_json(struct tbuf *b, const struct account *a)
{
	if (!a->valid) {
		tbuf_puts(b, ",\"account\":null");
		return;
	}
	tbuf_printf(b, ",\"account\":{\"total_kb\":%" PRIu64 ",\"sum_kb\":%" PRId64 ",",
		    a->total_kb, a->sum_kb);
	put_num(b, "sum_pct", true, 100.0 * (double)a->sum_kb / (double)a->total_kb, 2);
	for (int p = 0; p < AP_COUNT; p++) {
		bool known = a->known & (1u << p);
		tbuf_printf(b, ",\"%s\":{", account_parts[p].json);
		put_num(b, "size_kb", known, (double)a->kb[p], 0);
		tbuf_putc(b, ',');
		put_num(b, "share_pct", known, account_share(a, p), 2);
		tbuf_putc(b, ',');
		put_num(b, "change_kb_per_min", known && (a->trend & (1u << p)), a->per_min[p], 1);
		if (p == AP_PAGE_CACHE) {
			tbuf_putc(b, ',');
			put_num(b, "dirty_kb", a->dirty_known, (double)a->dirty_kb, 0);
			tbuf_putc(b, ',');
			put_num(b, "mapped_kb", a->mapped_known, (double)a->mapped_kb, 0);
		}
		tbuf_putc(b, '}');
	}
	json_details(b, a);
	tbuf_putc(b, '}');
}
