#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "account_out.h"
#include "groups.h"
#include "oom_cgroup.h"
#include "slab_text.h"
#include "sysfig.h"
#include "text.h"
#include "util.h"
#include "views.h"

/* The text of a refresh, put together here and written at once */
static struct tbuf out;

static void hist(struct tbuf *b, const char *name, const struct mt_hist *h)
{
	tbuf_printf(b, "\"%s\":{\"count\":%" PRIu64 ",\"total_us\":%" PRIu64 ",\"buckets\":[", name,
		    h->count, h->total_us);
	bool first = true;
	for (int i = 0; i < MT_HIST_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		uint64_t lo = i == 0 ? 0 : 1ull << i, hi = (1ull << (i + 1)) - 1;
		tbuf_printf(b,
			    "%s{\"lo_us\":%" PRIu64 ",\"hi_us\":%" PRIu64 ",\"count\":%" PRIu64 "}",
			    first ? "" : ",", lo, hi, h->slots[i]);
		first = false;
	}
	tbuf_puts(b, "]}");
}

static void put_string(struct tbuf *b, const char *s)
{
	b->n += json_quote(s, tbuf_room(b, json_quote_max(s)));
}

static void put_fixed(struct tbuf *b, double v, int decimals);

static void tops(struct tbuf *b, const struct oom_top *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		tbuf_printf(b, "%s{\"pid\":%d,\"comm\":", i ? "," : "", t[i].pid);
		put_string(b, t[i].comm);
		tbuf_printf(b, ",\"rss_kb\":%" PRIu64 ",\"growth_kb_per_min\":", t[i].rss_kb);
		if (isnan(t[i].growth_kb_per_min))
			tbuf_puts(b, "null");
		else
			put_fixed(b, t[i].growth_kb_per_min, 2);
		tbuf_putc(b, '}');
	}
}

static void count_or_null(struct tbuf *b, const char *key, int64_t v)
{
	if (v < 0)
		tbuf_printf(b, "\"%s\":null", key);
	else
		tbuf_printf(b, "\"%s\":%" PRId64, key, v);
}

/* The limited cgroup the kill was in, as it stood before */
static void before_cgroup(struct tbuf *b, const struct oom_cgroup *cg)
{
	tbuf_puts(b, ",\"cgroup\":{\"path\":");
	put_string(b, cg->path);
	tbuf_puts(b, ",\"name\":");
	if (cg->name[0])
		put_string(b, cg->name);
	else
		tbuf_puts(b, "null");
	tbuf_printf(b, ",\"limit_kb\":%" PRIu64 ",\"usage_kb\":%" PRIu64 ",\"usage_curve\":[",
		    cg->limit_kb, cg->usage_kb);
	for (size_t i = 0; i < cg->n; i++)
		tbuf_printf(b, "%s[%.3f,%.0f]", i ? "," : "", cg->t[i], cg->usage_kb_at[i]);
	tbuf_printf(b, "],\"process_count\":%zu,\"processes\":[", cg->ntasks);
	tops(b, cg->procs, cg->nprocs);
	tbuf_puts(b, "],\"oom_kills_kernel\":{");
	count_or_null(b, "before", cg->oom_kills_before);
	tbuf_putc(b, ',');
	count_or_null(b, "after", cg->oom_kills_after);
	tbuf_puts(b, "},\"verdict\":");
	if (cg->verdict[0])
		put_string(b, cg->verdict);
	else
		tbuf_puts(b, "null");
	tbuf_putc(b, '}');
}

/* What memtop saw at its last refresh before the kill: the ten largest, the memory left,
 * the limited cgroup it was in (none: no "cgroup") */
static void before(struct tbuf *b, const struct oom_before *ob)
{
	if (!ob || !ob->valid) {
		tbuf_puts(b, ",\"before\":null");
		return;
	}
	tbuf_printf(b, ",\"before\":{\"ts\":%.3f,\"top\":[", ob->wall);
	tops(b, ob->top, ob->ntop);
	tbuf_printf(b, "],\"mem_available_kb\":%" PRIu64 ",\"swap_free_kb\":%" PRIu64,
		    ob->mem_available_kb, ob->swap_free_kb);
	if (ob->cg)
		before_cgroup(b, ob->cg);
	tbuf_putc(b, '}');
}

static void event(struct tbuf *b, const struct mt_event *e, const struct oom_before *ob)
{
	tbuf_printf(b,
		    "{\"type\":\"oom_kill\",\"ts\":%.3f,\"earlier\":%s,\"pid\":%d,\"comm\":", e->ts,
		    e->earlier ? "true" : "false", e->pid);
	put_string(b, e->comm);
	tbuf_printf(b,
		    ",\"uid\":%u,\"total_vm_kb\":%" PRIu64 ",\"anon_rss_kb\":%" PRIu64
		    ",\"file_rss_kb\":%" PRIu64 ",\"shmem_rss_kb\":%" PRIu64 ",\"memcg\":",
		    e->uid, e->total_vm_kb, e->anon_rss_kb, e->file_rss_kb, e->shmem_rss_kb);
	if (e->memcg[0])
		put_string(b, e->memcg);
	else /* not known: the kernel's report lost it, and memtop had not seen the victim */
		tbuf_puts(b, "null");
	tbuf_printf(b, ",\"trigger_pid\":%d,\"trigger_comm\":", e->trigger_pid);
	put_string(b, e->trigger_comm);
	before(b, ob);
	tbuf_putc(b, '}');
}

/* decimals places; a zero (most rates) as 0 */
static void put_fixed(struct tbuf *b, double v, int decimals)
{
	if (v == 0)
		tbuf_putc(b, '0');
	else
		b->n += fmt_fixed(v, decimals, tbuf_room(b, 400), 400); /* 1e308: 309 digits */
}

/* The columns a table's JSON objects carry, each with its key as written: "\"rss_kb\":"
 * after a comma */
struct keys {
	const struct column *cols;
	int n;
	int col[32];
	char text[32][48];
	size_t len[32];
};

/* The keys of the columns of cols (ncols of them) in set */
static void keys_of(struct keys *k, const struct column *cols, int ncols, unsigned set)
{
	k->cols = cols;
	k->n = 0;
	for (int c = 0; c < ncols; c++) {
		if (!(set & TABLE_BIT(c)))
			continue;
		int len = snprintf(k->text[k->n], sizeof(k->text[0]), ",\"%s\":", cols[c].json);
		k->len[k->n] =
			(size_t)len < sizeof(k->text[0]) ? (size_t)len : sizeof(k->text[0]) - 1;
		k->col[k->n++] = c;
	}
}

/* The last labels escaped (a user, a cgroup: the same for many rows), kept with their
 * escaped text so that a thousand processes of one cgroup escape its path once */
#define MEMO_N	 8
#define MEMO_RAW 128
static struct memo {
	char raw[MEMO_RAW];
	char esc[MEMO_RAW * 6 + 2]; /* quoted; \u escapes at the most */
	size_t raw_len, len;
} memo[MEMO_N];
static unsigned memo_next;

static void put_label(struct tbuf *b, const char *t)
{
	size_t n = strlen(t);
	struct memo *e;

	if (n >= MEMO_RAW) {
		put_string(b, t);
		return;
	}
	for (e = memo; e < memo + MEMO_N; e++)
		if (e->len && e->raw_len == n && e->raw[0] == t[0] && !memcmp(e->raw, t, n)) {
			tbuf_put(b, e->esc, e->len);
			return;
		}
	e = &memo[memo_next++ % MEMO_N];
	memcpy(e->raw, t, n + 1);
	e->raw_len = n;
	e->len = json_quote(t, e->esc);
	tbuf_put(b, e->esc, e->len);
}

/* One column's value, in the unit its key names; null where the row has none (its
 * collector did not read it, a rate before two reads) and for a limit of "max" */
static void value(struct tbuf *b, const struct column *cols, int c, const struct table_row *r)
{
	const struct column *col = &cols[c];
	const char *t = table_text(col, r);

	if (t && col->label)
		put_label(b, t);
	else if (t)
		put_string(b, t);
	else if (col->kind == KIND_TEXT || !(r->valid & TABLE_BIT(c)) ||
		 table_unlimited(cols, c, r))
		tbuf_put(b, "null", 4);
	else if (col->kind == KIND_SAMPLE && !col->scale) /* exact, and cheaper than a double */
		b->n += fmt_u64(table_sample(cols, c, r), tbuf_room(b, 20));
	else
		put_fixed(b, table_number(cols, c, r), col->unit == UNIT_US_RATE ? 1 : 2);
}

/* A row's object, without its closing brace: a key per column of k, the counter beside
 * each rate */
static void row_object(struct tbuf *b, const struct keys *k, const struct table_row *r)
{
	tbuf_putc(b, '{');
	for (int i = 0; i < k->n; i++) {
		const struct column *col = &k->cols[k->col[i]];
		/* the first key without its comma; copied whole, the length counted */
		memcpy(tbuf_room(b, sizeof(k->text[0])), k->text[i] + !i, sizeof(k->text[0]) - 1);
		b->n += k->len[i] - !i;
		value(b, k->cols, k->col[i], r);
		if (col->total && (r->read & TABLE_BIT(k->col[i]))) {
			tbuf_puts(b, ",\"");
			tbuf_puts(b, col->total);
			tbuf_puts(b, "\":");
			b->n += fmt_u64(table_figure(r, k->col[i]), tbuf_room(b, 20));
		}
	}
}

/* Every column read for every process, and the costly ones shown */
static void process(struct tbuf *b, const struct keys *k, const struct row *r)
{
	struct table_row v = proc_row_view(r);

	row_object(b, k, &v);
	if (r->leak)
		tbuf_puts(b, ",\"leak_suspect\":true");
	if (r->rate_since > 0) { /* its rates span its life so far, not interval_s */
		tbuf_puts(b, ",\"rate_since_s\":");
		put_fixed(b, r->rate_since, 2);
	}
	tbuf_putc(b, '}');
}

/* The figures of the table whose group writes to object obj; comma: one goes before the
 * first */
static void figures(struct tbuf *b, const struct model *m, const char *obj, bool comma)
{
	for (size_t i = 0; i < n_sys_figures; i++) {
		const struct sys_figure *fig = &sys_figures[i];

		if (strcmp(sf_groups[fig->group].json, obj))
			continue;
		bool valid = sys_figure_valid(fig, m);
		if (!valid && !fig->json_null)
			continue;
		tbuf_printf(b, "%s\"%s\":", comma ? "," : "", fig->json);
		comma = true;
		if (!valid)
			tbuf_put(b, "null", 4);
		else if (fig->unit == SF_RATE || fig->unit == SF_AVG || fig->unit == SF_MS)
			tbuf_printf(b, "%.2f", fig->get(m));
		else
			tbuf_printf(b, "%.0f", fig->get(m));
	}
}

/* Row v as the i-th object of an array, left open for the caller's last keys */
static void array_row(struct tbuf *b, const struct keys *k, const struct table_row *v, size_t i)
{
	if (i)
		tbuf_putc(b, ',');
	row_object(b, k, v);
}

/* One object per cgroup, a key per column of the cgroup column table, the counter beside
 * each rate, and whether it was removed */
static void cgroups(struct tbuf *b, const struct cg_model *cgm)
{
	struct keys k;

	keys_of(&k, cg_columns, CGCOL_COUNT, ~0u);
	tbuf_puts(b, ",\"cgroups\":[");
	for (size_t i = 0; i < cgm->nrows; i++) {
		struct table_row v = cg_row_view(&cgm->rows[i]);
		array_row(b, &k, &v, i);
		tbuf_puts(b,
			  cgm->rows[i].c->removed ? ",\"removed\":true}" : ",\"removed\":false}");
	}
	tbuf_putc(b, ']');
}

/* --groups: one object per group named so far, a key per column of the group table and
 * the counter beside each rate */
static void groups(struct tbuf *b, const struct groups *gs)
{
	struct keys k;

	keys_of(&k, group_columns, GROUPCOL_COUNT, ~0u);
	tbuf_puts(b, ",\"groups\":[");
	for (size_t i = 0; i < gs->n; i++) {
		struct table_row v = group_row_view(&gs->g[i]);
		array_row(b, &k, &v, i);
		tbuf_putc(b, '}');
	}
	tbuf_putc(b, ']');
}

/* The processes that exited over the last minute, oldest first */
static void exited(struct tbuf *b, const struct exited_list *x)
{
	tbuf_puts(b, ",\"exited\":[");
	for (size_t i = 0; i < x->n; i++) {
		const struct exited_proc *e = &x->p[i];
		tbuf_printf(b, "%s{\"pid\":%d,\"comm\":", i ? "," : "", e->pid);
		put_string(b, e->comm);
		tbuf_puts(b, ",\"user\":");
		put_string(b, e->user);
		tbuf_printf(b, ",\"uid\":%u,\"last_rss_kb\":%" PRIu64 ",\"exited_ts\":%.3f}",
			    e->uid, e->last_rss_kb, e->ts);
	}
	tbuf_putc(b, ']');
}

/* The totals per user, as smem -u */
static void users(struct tbuf *b, const struct user_totals *t)
{
	tbuf_puts(b, ",\"users\":[");
	for (size_t i = 0; i < t->n; i++) {
		const struct user_total *u = &t->u[i];
		tbuf_puts(b, i ? ",{\"user\":" : "{\"user\":");
		put_string(b, u->name ? u->name : "");
		tbuf_printf(b,
			    ",\"uid\":%u,\"count\":%" PRIu64 ",\"swap_kb\":%" PRIu64
			    ",\"uss_kb\":%" PRIu64 ",\"pss_kb\":%" PRIu64 ",\"rss_kb\":%" PRIu64
			    ",\"unread\":%zu}",
			    u->uid, u->v[USERCOL_NPROCS], u->v[USERCOL_SWAP], u->v[USERCOL_USS],
			    u->v[USERCOL_PSS], u->v[USERCOL_RSS], u->unread);
	}
	tbuf_putc(b, ']');
}

/* One object per slab cache, largest first: a key per column but RECLAIM, which is
 * "reclaimable" (true, false, null where sysfs does not say); slabs null, and slabs_error
 * why, where /proc/slabinfo cannot be read */
static void slabs(struct tbuf *b, const struct slab_model *sm)
{
	char why[160];
	struct keys k;
	size_t n;

	if (slabmodel_why(sm, why, sizeof(why))) {
		tbuf_puts(b, ",\"slabs\":null,\"slabs_error\":");
		put_string(b, why);
		return;
	}
	const size_t *order = slabs_by_size(sm, &n);
	keys_of(&k, slab_columns, SLABCOL_COUNT, ~TABLE_BIT(SLABCOL_RECLAIM));
	tbuf_puts(b, ",\"slabs\":[");
	for (size_t i = 0; i < n; i++) {
		const struct slab_row *r = &sm->rows[order[i]];
		struct table_row v = slab_row_view(r);
		array_row(b, &k, &v, i);
		tbuf_puts(b, r->c->reclaim < 0 ? ",\"reclaimable\":null}"
			     : r->c->reclaim   ? ",\"reclaimable\":true}"
					       : ",\"reclaimable\":false}");
	}
	tbuf_putc(b, ']');
}

/* system.cgroup: the memory cgroup memtop runs in, where its limit (or an ancestor's) is
 * below RAM */
static void own_cgroup(struct tbuf *b, const struct cg_self *cs)
{
	if (!cs->limited)
		return;
	tbuf_puts(b, ",\"cgroup\":{\"path\":");
	put_string(b, cs->path ? cs->path : "");
	tbuf_puts(b, ",\"usage_kb\":");
	b->n += fmt_u64(cs->usage_kb, tbuf_room(b, 20));
	tbuf_puts(b, ",\"limit_kb\":");
	b->n += fmt_u64(cs->limit_kb, tbuf_room(b, 20));
	tbuf_putc(b, '}');
}

/* nodes[]: each NUMA node's memory (KiB); left out where none is known */
static void nodes(struct tbuf *b, const struct snapshot *s)
{
	if (!s->nnodes)
		return;
	tbuf_puts(b, ",\"nodes\":[");
	for (size_t i = 0; i < s->nnodes; i++) {
		tbuf_printf(b, "%s{\"node\":%d", i ? "," : "", s->nodes[i].node);
		for (int f = 0; f < NF_COUNT; f++) {
			tbuf_printf(b, ",\"%s\":", node_figures[f].json);
			b->n += fmt_u64(s->nodes[i].kb[f], tbuf_room(b, 20));
		}
		tbuf_putc(b, '}');
	}
	tbuf_putc(b, ']');
}

static bool ends(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

/* The verdict's evidence: "_kb" and seconds as integers, shares with one decimal, rates
 * with two */
static int fact_decimals(const char *key)
{
	if (ends(key, "_kb") || (ends(key, "_s") && !ends(key, "_per_s")))
		return 0;
	return ends(key, "_pct") ? 1 : 2;
}

/* Why memory is short (verdict.h): the line, its cause, its subject (a cgroup's path or a
 * process's pid; null: none), its evidence */
static void verdict(struct tbuf *b, const struct verdict *v)
{
	tbuf_puts(b, ",\"verdict\":{\"text\":");
	put_string(b, v->text);
	tbuf_printf(b, ",\"cause\":\"%s\",\"subject\":", verdict_cause_name(v->cause));
	if (v->cause == VERDICT_CGROUP_LIMIT)
		put_string(b, v->path);
	else if (v->pid > 0)
		tbuf_printf(b, "%d", v->pid);
	else
		tbuf_puts(b, "null");
	tbuf_puts(b, ",\"evidence\":{");
	for (size_t i = 0; i < v->nfacts; i++) {
		tbuf_printf(b, "%s\"%s\":", i ? "," : "", v->facts[i].key);
		put_fixed(b, v->facts[i].value, fact_decimals(v->facts[i].key));
	}
	if (v->pid > 0) {
		tbuf_printf(b, "%s\"pid\":%d,\"comm\":", v->nfacts ? "," : "", v->pid);
		put_string(b, v->comm);
	}
	tbuf_puts(b, "}}");
}

void view_json(FILE *f, const struct model *m, const struct view_info *vi)
{
	const struct snapshot *s = model_current(m);
	const struct sys_rates *r = &m->rates;
	struct keys k;
	tbuf_printf(&out, "{\"ts\":%.3f,\"interval_s\":%.3f,\"procs_interval_s\":%.3f,\"system\":{",
		    s->wall, r->dt, r->dt_procs);
	figures(&out, m, "system", false);
	own_cgroup(&out, &s->cg_self);
	tbuf_putc(&out, '}');
	verdict(&out, &m->verdict);
	nodes(&out, s);
	tbuf_puts(&out, ",\"processes\":[");
	unsigned in_json = 0;
	for (int c = 0; c < COL_COUNT; c++)
		in_json |= column_in_json(c, m->prefs->cols) ? COL_BIT(c) : 0;
	keys_of(&k, columns, COL_COUNT, in_json);
	for (size_t i = 0; i < m->nrows; i++) {
		if (i)
			tbuf_putc(&out, ',');
		process(&out, &k, m->rows[i]);
		tbuf_spill(&out, f);
	}
	tbuf_putc(&out, ']');
	exited(&out, &m->exited);
	if (vi->users)
		users(&out, vi->users);
	if (vi->cgroups)
		cgroups(&out, vi->cgroups);
	if (vi->groups)
		groups(&out, vi->groups);
	if (vi->slab)
		slabs(&out, vi->slab);
	if (vi->account)
		account_json(&out, vi->account);
	tbuf_puts(&out, ",\"events\":[");
	/* this refresh's kills are the newest of the model's, each with its post-mortem */
	size_t kills = 0, k_i = 0;
	for (size_t i = 0; i < s->nevents; i++)
		kills += s->events[i].type == MT_EV_OOM_KILL;
	for (size_t i = 0; i < s->nevents; i++) {
		if (s->events[i].type != MT_EV_OOM_KILL)
			continue;
		size_t back = kills - k_i; /* 1 for the newest */
		const struct oom_before *ob = back <= m->noom ? &m->before[m->noom - back] : NULL;
		if (k_i++)
			tbuf_putc(&out, ',');
		event(&out, &s->events[i], ob);
	}
	tbuf_puts(&out, "],\"reclaim\":{");
	hist(&out, "direct", &r->reclaim.direct);
	tbuf_putc(&out, ',');
	hist(&out, "memcg", &r->reclaim.memcg);
	tbuf_putc(&out, ',');
	hist(&out, "shrink_slab", &r->reclaim.shrink_slab);
	figures(&out, m, "reclaim", true);
	tbuf_printf(&out, "},\"bpf\":{\"enabled\":%s,\"loading\":%s,\"reason\":",
		    s->bpf.enabled ? "true" : "false", s->bpf.loading ? "true" : "false");
	put_string(&out, s->bpf.reason);
	figures(&out, m, "bpf", true);
	tbuf_puts(&out, ",\"swapin_mode\":");
	put_string(&out, s->bpf.swapin_mode[0] ? s->bpf.swapin_mode : "off");
	tbuf_puts(&out, ",\"concerns\":{");
	for (int i = 0; i < s->bpf.nconcerns; i++) {
		tbuf_puts(&out, i ? "," : "");
		put_string(&out, s->bpf.concern[i].name);
		tbuf_putc(&out, ':');
		if (s->bpf.concern[i].on) {
			put_string(&out, "on");
		} else {
			char off[sizeof(s->bpf.concern[i].why) + 8];

			snprintf(off, sizeof(off), "off: %s", s->bpf.concern[i].why);
			put_string(&out, off);
		}
	}
	tbuf_putc(&out, '}');
	tbuf_printf(&out, "},\"%s\":{", sf_groups[SF_SELF].json);
	figures(&out, m, sf_groups[SF_SELF].json, false);
	tbuf_puts(&out, "}}\n");
	tbuf_write(&out, f);
}
