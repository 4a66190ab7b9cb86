/* The detail screen: one process's memory breakdown at the top, then its mappings,
 * backing files or stacks, scrollable; a selected stack shown whole. It reads only
 * struct detail; the drill behind it is attached while the screen is open. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "detail_cli.h"
#include "text.h"
#include "tui_int.h"
#include "util.h"

enum section { SEC_MAPS, SEC_FILES, SEC_STACKS, NSECTIONS };

static const char *const section_names[NSECTIONS] = {"Mappings", "Files", "Stacks"};

struct detail_view {
	bool no_bpf;
	struct drill *drill; /* NULL while closed */
	struct detail d;
	bool gone;
	char cmd[256]; /* raw command line at opening */
	enum section sec;
	size_t sel[NSECTIONS];
	size_t top[NSECTIONS];
	bool whole; /* the selected stack, frame by frame */
	int whole_top;
	int rows; /* table rows at the last draw */
};

struct detail_view *detail_view_new(bool no_bpf)
{
	struct detail_view *v = xcalloc(1, sizeof(*v));

	v->no_bpf = no_bpf;
	detail_init(&v->d);
	return v;
}

static void view_close(struct detail_view *v)
{
	drill_close(v->drill);
	v->drill = NULL;
	detail_clear(&v->d);
}

void detail_view_free(struct detail_view *v)
{
	if (!v)
		return;
	view_close(v);
	free(v);
}

static size_t section_len(const struct detail_view *v, enum section s)
{
	switch (s) {
	case SEC_MAPS:
		return v->d.nmaps;
	case SEC_FILES:
		return v->d.nfiles;
	default:
		return v->d.nstacks;
	}
}

static void clamp(struct detail_view *v)
{
	for (int s = 0; s < NSECTIONS; s++) {
		size_t n = section_len(v, (enum section)s);

		if (v->sel[s] >= n)
			v->sel[s] = n ? n - 1 : 0;
		if (v->top[s] > v->sel[s])
			v->top[s] = v->sel[s];
	}
	if (!v->d.nstacks)
		v->whole = false;
}

void detail_refresh(struct tui *t)
{
	struct detail_view *v = t->detail;
	struct detail nd;

	if (!v->drill)
		return;
	detail_init(&nd);
	if (drill_collect(v->drill, &nd)) {
		/* keep what was shown last; nothing left to sample */
		v->gone = true;
		detail_clear(&nd);
		drill_close(v->drill);
		v->drill = NULL;
		return;
	}
	detail_clear(&v->d);
	v->d = nd;
	clamp(v);
}

void detail_open(struct tui *t)
{
	struct detail_view *v = t->detail;

	if (!t->m->nrows) {
		snprintf(t->message, sizeof(t->message), "no process selected");
		return;
	}
	const struct proc_sample *p = t->m->rows[t->sel].p;

	view_close(v);
	v->drill = drill_open(p->pid, v->no_bpf, STACKS_DEFAULT_RATE);
	if (!v->drill) {
		snprintf(t->message, sizeof(t->message), "process %d is gone", p->pid);
		return;
	}
	snprintf(v->cmd, sizeof(v->cmd), "%s", p->cmd && p->cmd[0] ? p->cmd : p->comm);
	v->gone = false;
	v->sec = SEC_MAPS;
	v->whole = false;
	memset(v->sel, 0, sizeof(v->sel));
	memset(v->top, 0, sizeof(v->top));
	t->screen = SCREEN_DETAIL;
	detail_refresh(t);
	if (v->gone) {
		view_close(v);
		t->screen = SCREEN_MAIN;
		snprintf(t->message, sizeof(t->message), "process %d is gone", p->pid);
	}
}

void detail_close(struct tui *t)
{
	view_close(t->detail);
	t->screen = SCREEN_MAIN;
}

/* ---- drawing ---- */

struct cell {
	const char *label;
	uint64_t kb;
};

static int draw_breakdown(struct tui *t, int y)
{
	const struct dd_breakdown *b = &t->detail->d.b;
	const struct cell cells[] = {
		{"RSS", b->rss},
		{"PSS", b->pss},
		{"USS", b->uss},
		{"Swap", b->swap},
		{"Anon", b->rss_anon},
		{"File", b->rss_file},
		{"Shmem", b->rss_shmem},
		{"SwapPss", b->swap_pss},
		{"Locked", b->locked},
		{"THP", b->anon_huge + b->shmem_pmd + b->file_pmd},
		{"HugeTLB", b->shared_hugetlb + b->private_hugetlb},
		{"PgTables", b->pgtables},
	};
	bool exact = t->cols >= 84; /* exact KiB as smaps shows them, else short units */
	int width = exact ? 21 : 14, per = t->cols / width;
	char text[64], val[16];

	if (per < 1)
		per = 1;
	for (size_t i = 0; i < ARRAY_SIZE(cells); i++) {
		int x = (int)(i % (size_t)per) * width, row = y + (int)(i / (size_t)per);

		if (exact)
			snprintf(val, sizeof(val), "%9" PRIu64 " kB", cells[i].kb);
		else
			fmt_kb(cells[i].kb, val, sizeof(val));
		put_text(t, row, x, 8, ROLE_LABEL, cells[i].label, true);
		snprintf(text, sizeof(text), exact ? "%s" : "%5s", val);
		put_text(t, row, x + 8, width - 9, ROLE_VALUE, text, true);
	}
	y += (int)((ARRAY_SIZE(cells) + (size_t)per - 1) / (size_t)per);

	char cg[600], line[800];

	escape_display(b->cgroup[0] ? b->cgroup : "-", cg, sizeof(cg), t->utf8);
	if (b->have_oom)
		snprintf(line, sizeof(line), "OOM score %d, adj %d   cgroup %s", b->oom_score,
			 b->oom_score_adj, cg);
	else
		snprintf(line, sizeof(line), "OOM score -   cgroup %s", cg);
	put_text(t, y++, 0, t->cols, ROLE_LABEL, line, true);
	return y;
}

static int draw_state(struct tui *t, int y)
{
	const struct detail_view *v = t->detail;
	const struct dd_stacks_info *st = &v->d.st;
	char line[400];

	if (v->gone) {
		put_text(t, y++, 0, t->cols, ROLE_WARNING,
			 "The process has exited: this is what was seen last", true);
	} else if (!st->on) {
		snprintf(line, sizeof(line), "Stacks and faults per mapping off: %s", st->why);
		put_text(t, y++, 0, t->cols, ROLE_WARNING, line, true);
	} else {
		snprintf(line, sizeof(line),
			 "Since opened (%.0f s): %" PRIu64 " page faults, 1 in %u sampled (%" PRIu64
			 "); %" PRIu64 " brk/mmap/munmap calls",
			 st->seconds, st->tot.faults, st->rate, st->tot.samples, st->tot.calls);
		put_text(t, y++, 0, t->cols, ROLE_LABEL, line, true);
	}
	if (v->d.err[0] && !v->gone)
		put_text(t, y++, 0, t->cols, ROLE_WARNING, v->d.err, true);
	return y;
}

static void draw_tabs(struct tui *t, int y)
{
	const struct detail_view *v = t->detail;
	char tab[64];
	int x = 0;

	for (int s = 0; s < NSECTIONS && x < t->cols; s++) {
		snprintf(tab, sizeof(tab), " %d %s (%zu) ", s + 1, section_names[s],
			 section_len(v, (enum section)s));
		put_text(t, y, x, t->cols - x, s == (int)v->sec ? ROLE_SELECTED : ROLE_LABEL, tab,
			 false);
		x += (int)strlen(tab) + 1;
	}
}

static void count_text(uint64_t n, bool on, char *buf, size_t size)
{
	if (on)
		snprintf(buf, size, "%" PRIu64, n);
	else
		snprintf(buf, size, "-");
}

static void size_text(uint64_t kb, bool exact, char *buf, size_t size)
{
	if (exact)
		snprintf(buf, size, "%9" PRIu64, kb);
	else
		fmt_kb(kb, buf, size);
}

/* A table: header at y, rows below, the selection kept in view. */
static void scroll_into_view(struct detail_view *v, int rows)
{
	size_t *sel = &v->sel[v->sec], *top = &v->top[v->sec];

	if (rows < 1)
		rows = 1;
	if (*sel < *top)
		*top = *sel;
	else if (*sel >= *top + (size_t)rows)
		*top = *sel - (size_t)rows + 1;
}

static void draw_maps(struct tui *t, int y, int rows)
{
	struct detail_view *v = t->detail;
	bool exact = t->cols >= 84, on = v->d.st.on;
	const char *fmt =
		exact ? "%12s %9s %9s %9s %9s %-4s %8s %s" : "%12s %5s %5s %5s %5s %-4s %6s %s";
	char line[1200], path[800], sz[16], rss[16], dirty[16], swap[16], faults[24], addr[24];

	snprintf(line, sizeof(line), fmt, "ADDRESS", "SIZE", "RSS", "DIRTY", "SWAP", "PERM",
		 "FAULTS", "MAPPING");
	put_text(t, y, 0, t->cols, ROLE_TABLE_HEADER, line, true);
	scroll_into_view(v, rows);
	for (int r = 0; r < rows && v->top[SEC_MAPS] + (size_t)r < v->d.nmaps; r++) {
		size_t i = v->top[SEC_MAPS] + (size_t)r;
		const struct dd_mapping *m = &v->d.maps[i];

		snprintf(addr, sizeof(addr), "%" PRIx64, m->start);
		size_text(m->size, exact, sz, sizeof(sz));
		size_text(m->rss, exact, rss, sizeof(rss));
		size_text(m->dirty, exact, dirty, sizeof(dirty));
		size_text(m->swap, exact, swap, sizeof(swap));
		count_text(m->faults, on, faults, sizeof(faults));
		escape_display(dd_map_label(m), path, sizeof(path), t->utf8);
		snprintf(line, sizeof(line), fmt, addr, sz, rss, dirty, swap, m->perms, faults,
			 path);
		put_text(t, y + 1 + r, 0, t->cols, i == v->sel[SEC_MAPS] ? ROLE_SELECTED : ROLE_ROW,
			 line, true);
	}
}

static void draw_files(struct tui *t, int y, int rows)
{
	struct detail_view *v = t->detail;
	bool exact = t->cols >= 84, on = v->d.st.on;
	const char *fmt = exact ? "%4s %9s %9s %9s %9s %8s %s" : "%4s %5s %5s %5s %5s %6s %s";
	char line[1200], path[800], nm[12], sz[16], rss[16], dirty[16], swap[16], faults[24];

	snprintf(line, sizeof(line), fmt, "MAPS", "SIZE", "RSS", "DIRTY", "SWAP", "FAULTS", "FILE");
	put_text(t, y, 0, t->cols, ROLE_TABLE_HEADER, line, true);
	scroll_into_view(v, rows);
	for (int r = 0; r < rows && v->top[SEC_FILES] + (size_t)r < v->d.nfiles; r++) {
		size_t i = v->top[SEC_FILES] + (size_t)r;
		const struct dd_file *f = &v->d.files[i];

		snprintf(nm, sizeof(nm), "%d", f->nmaps);
		size_text(f->size, exact, sz, sizeof(sz));
		size_text(f->rss, exact, rss, sizeof(rss));
		size_text(f->dirty, exact, dirty, sizeof(dirty));
		size_text(f->swap, exact, swap, sizeof(swap));
		count_text(f->faults, on, faults, sizeof(faults));
		escape_display(f->path, path, sizeof(path), t->utf8);
		snprintf(line, sizeof(line), fmt, nm, sz, rss, dirty, swap, faults, path);
		put_text(t, y + 1 + r, 0, t->cols,
			 i == v->sel[SEC_FILES] ? ROLE_SELECTED : ROLE_ROW, line, true);
	}
}

/* User frames of a stack on one line, innermost first: "f+0x1 < g+0x2 < ..." */
static void stack_summary(const struct dd_stack *s, char *buf, size_t size, bool utf8)
{
	char frame[SYM_NAME_LEN * 4 + 32];
	size_t off = 0;

	buf[0] = '\0';
	for (int i = s->nkernel; i < s->nframes && off + 1 < size; i++) {
		dd_frame_text(&s->frames[i], frame, sizeof(frame), utf8);
		off += (size_t)snprintf(buf + off, size - off, "%s%s", i > s->nkernel ? " < " : "",
					frame);
	}
	if (s->nkernel == s->nframes)
		snprintf(buf, size, "(no user stack)");
}

static void stack_counts(const struct dd_stack *s, char *count, size_t csize, char *bytes,
			 size_t bsize)
{
	snprintf(count, csize, "%s%" PRIu64, s->kind == STACK_FAULT ? "~" : "", s->count);
	fmt_kb(s->bytes / 1024, bytes, bsize);
}

static void draw_stacks(struct tui *t, int y, int rows)
{
	struct detail_view *v = t->detail;
	const struct detail *d = &v->d;
	char line[2400], sum[2048], count[32], bytes[16];

	if (!d->st.on) {
		snprintf(line, sizeof(line), "Stacks are off: %s", d->st.why);
		put_text(t, y, 0, t->cols, ROLE_WARNING, line, true);
		put_text(t, y + 1, 0, t->cols, ROLE_ROW_DIM,
			 "Breakdown, mappings and files work without them.", true);
		return;
	}
	if (d->st.one_frame && rows > 1) {
		put_text(t, y++, 0, t->cols, ROLE_WARNING,
			 "Stacks are one frame deep: the program has no frame pointers "
			 "(build it with -fno-omit-frame-pointer)",
			 true);
		rows--;
	}
	snprintf(line, sizeof(line), "%-6s %9s %6s  %s", "KIND", "COUNT", "BYTES",
		 "STACK (innermost first; Enter shows it whole)");
	put_text(t, y, 0, t->cols, ROLE_TABLE_HEADER, line, true);
	if (!d->nstacks)
		put_text(t, y + 1, 0, t->cols, ROLE_ROW_DIM,
			 "no page faults or brk/mmap/munmap calls since the view opened", true);
	scroll_into_view(v, rows);
	for (int r = 0; r < rows && v->top[SEC_STACKS] + (size_t)r < d->nstacks; r++) {
		size_t i = v->top[SEC_STACKS] + (size_t)r;
		const struct dd_stack *s = &d->stacks[i];

		stack_counts(s, count, sizeof(count), bytes, sizeof(bytes));
		stack_summary(s, sum, sizeof(sum), t->utf8);
		snprintf(line, sizeof(line), "%-6s %9s %6s  %s", stack_kind_names[s->kind], count,
			 bytes, sum);
		put_text(t, y + 1 + r, 0, t->cols,
			 i == v->sel[SEC_STACKS] ? ROLE_SELECTED : ROLE_ROW, line, true);
	}
}

static void draw_whole(struct tui *t, int y, int rows)
{
	struct detail_view *v = t->detail;
	const struct dd_stack *s = &v->d.stacks[v->sel[SEC_STACKS]];
	char line[2400], frame[SYM_NAME_LEN * 4 + 32], module[SYM_MODULE_LEN * 4], count[32],
		bytes[16];

	stack_counts(s, count, sizeof(count), bytes, sizeof(bytes));
	snprintf(line, sizeof(line), "%s stack: %s %s, %s; %d frames (Esc returns to the list)",
		 stack_kind_names[s->kind], count, s->kind == STACK_FAULT ? "faults" : "calls",
		 bytes, s->nframes);
	put_text(t, y++, 0, t->cols, ROLE_HEADER, line, true);
	snprintf(line, sizeof(line), "%3s %-18s %-44s %s", "#", "ADDRESS", "FUNCTION", "MODULE");
	put_text(t, y, 0, t->cols, ROLE_TABLE_HEADER, line, true);
	rows--;
	if (v->whole_top > s->nframes - rows)
		v->whole_top = s->nframes - rows;
	if (v->whole_top < 0)
		v->whole_top = 0;
	for (int r = 0; r < rows && v->whole_top + r < s->nframes; r++) {
		int i = v->whole_top + r;
		const struct dd_frame *fr = &s->frames[i];

		dd_frame_text(fr, frame, sizeof(frame), t->utf8);
		escape_display(fr->module && fr->module[0] ? fr->module : "?", module,
			       sizeof(module), t->utf8);
		snprintf(line, sizeof(line), "%3d 0x%016" PRIx64 " %-44s %s", i, fr->ip, frame,
			 module);
		put_text(t, y + 1 + r, 0, t->cols, fr->kernel ? ROLE_ROW_DIM : ROLE_ROW, line,
			 true);
	}
}

void draw_detail(struct tui *t)
{
	struct detail_view *v = t->detail;
	char title[512], cmd[300], comm[80];
	int y = 0;

	escape_display(v->d.b.comm, comm, sizeof(comm), t->utf8);
	escape_display(v->cmd, cmd, sizeof(cmd), t->utf8);
	snprintf(title, sizeof(title), "Process %d (%s): where its memory goes   %s", v->d.pid,
		 comm, cmd);
	put_text(t, y++, 0, t->cols, ROLE_HELP_TITLE, title, true);
	y = draw_breakdown(t, y);
	y = draw_state(t, y);
	draw_tabs(t, y++);
	int rows = t->rows - 1 - y - 1; /* header line, key line */

	v->rows = rows > 1 ? rows : 1;
	if (rows >= 1) {
		if (v->sec == SEC_MAPS)
			draw_maps(t, y, rows);
		else if (v->sec == SEC_FILES)
			draw_files(t, y, rows);
		else if (v->whole && v->d.nstacks)
			draw_whole(t, y, rows);
		else
			draw_stacks(t, y, rows);
	}
	put_text(t, t->rows - 1, 0, t->cols, ROLE_STATUS,
		 v->sec == SEC_STACKS
			 ? "Esc/q back  Tab/1-3 section  Up/Down/PgUp/PgDn move  Enter whole stack"
			 : "Esc/q back  Tab/1-3 section  Up/Down/PgUp/PgDn move",
		 true);
}

/* ---- keys ---- */

static void move_by(struct detail_view *v, long delta)
{
	if (v->whole) {
		v->whole_top += (int)delta;
		if (v->whole_top < 0)
			v->whole_top = 0;
		return;
	}
	size_t n = section_len(v, v->sec);
	long s = (long)v->sel[v->sec] + delta;

	if (s >= (long)n)
		s = (long)n - 1;
	if (s < 0)
		s = 0;
	v->sel[v->sec] = (size_t)s;
}

static void go_section(struct detail_view *v, int s)
{
	v->sec = (enum section)((s + NSECTIONS) % NSECTIONS);
	v->whole = false;
}

void detail_key(struct tui *t, int key)
{
	struct detail_view *v = t->detail;
	long page = v->rows > 1 ? v->rows - 1 : 1;

	switch (key) {
	case 27:
	case 'q':
	case KEY_F(10):
	case KEY_BACKSPACE:
		if (v->whole)
			v->whole = false;
		else
			detail_close(t);
		break;
	case '\t':
	case KEY_RIGHT:
		go_section(v, (int)v->sec + 1);
		break;
	case KEY_BTAB:
	case KEY_LEFT:
		go_section(v, (int)v->sec - 1);
		break;
	case '1':
	case '2':
	case '3':
		go_section(v, key - '1');
		break;
	case KEY_UP:
		move_by(v, -1);
		break;
	case KEY_DOWN:
		move_by(v, 1);
		break;
	case KEY_PPAGE:
		move_by(v, -page);
		break;
	case KEY_NPAGE:
		move_by(v, page);
		break;
	case KEY_HOME:
		move_by(v, -(long)1e9);
		break;
	case KEY_END:
		move_by(v, (long)1e9);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (v->sec == SEC_STACKS && v->d.nstacks) {
			v->whole = true;
			v->whole_top = 0;
		}
		break;
	case 'L' & 0x1f:
		clearok(curscr, TRUE);
		break;
	}
}
