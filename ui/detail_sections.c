/* The detail screen's sections of lines: the mappings, the files, the stacks (one a line,
 * its user frames innermost first), the selected stack whole, frame by frame, and the
 * memory per NUMA node. */
#include <inttypes.h>
#include <stdio.h>

#include "detail_cli.h"
#include "detail_screen.h"
#include "text.h"

static struct detail_view *const v = &detail_view;

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
static void scroll_into_view(int rows)
{
	size_t *sel = &v->sel[v->sec], *top = &v->top[v->sec];

	if (rows < 1)
		rows = 1;
	if (*sel < *top)
		*top = *sel;
	else if (*sel >= *top + (size_t)rows)
		*top = *sel - (size_t)rows + 1;
}

void draw_maps(struct ui *u, int y, int rows)
{
	bool exact = u->cv.cols >= 84, on = v->d->st.on;
	const char *fmt =
		exact ? "%12s %9s %9s %9s %9s %-4s %8s %s" : "%12s %5s %5s %5s %5s %-4s %6s %s";
	char line[1200], path[800], sz[16], rss[16], dirty[16], swap[16], faults[24], addr[24];

	snprintf(line, sizeof(line), fmt, "ADDRESS", "SIZE", "RSS", "DIRTY", "SWAP", "PERM",
		 "FAULTS", "MAPPING");
	put_text(&u->cv, y, 0, u->cv.cols, ROLE_TABLE_HEADER, line, true);
	scroll_into_view(rows);
	for (int r = 0; r < rows && v->top[SEC_MAPS] + (size_t)r < v->d->nmaps; r++) {
		size_t i = v->top[SEC_MAPS] + (size_t)r;
		const struct dd_mapping *m = &v->d->maps[i];

		snprintf(addr, sizeof(addr), "%" PRIx64, m->start);
		size_text(m->size, exact, sz, sizeof(sz));
		size_text(m->rss, exact, rss, sizeof(rss));
		size_text(m->dirty, exact, dirty, sizeof(dirty));
		size_text(m->swap, exact, swap, sizeof(swap));
		count_text(m->faults, on, faults, sizeof(faults));
		escape_display(dd_map_label(m), path, sizeof(path), u->cv.utf8);
		snprintf(line, sizeof(line), fmt, addr, sz, rss, dirty, swap, m->perms, faults,
			 path);
		put_text(&u->cv, y + 1 + r, 0, u->cv.cols,
			 i == v->sel[SEC_MAPS] ? ROLE_SELECTED : ROLE_ROW, line, true);
	}
}

void draw_files(struct ui *u, int y, int rows)
{
	bool exact = u->cv.cols >= 84, on = v->d->st.on;
	const char *fmt = exact ? "%4s %9s %9s %9s %9s %8s %s" : "%4s %5s %5s %5s %5s %6s %s";
	char line[1200], path[800], nm[12], sz[16], rss[16], dirty[16], swap[16], faults[24];

	snprintf(line, sizeof(line), fmt, "MAPS", "SIZE", "RSS", "DIRTY", "SWAP", "FAULTS", "FILE");
	put_text(&u->cv, y, 0, u->cv.cols, ROLE_TABLE_HEADER, line, true);
	scroll_into_view(rows);
	for (int r = 0; r < rows && v->top[SEC_FILES] + (size_t)r < v->d->nfiles; r++) {
		size_t i = v->top[SEC_FILES] + (size_t)r;
		const struct dd_file *f = &v->d->files[i];

		snprintf(nm, sizeof(nm), "%d", f->nmaps);
		size_text(f->size, exact, sz, sizeof(sz));
		size_text(f->rss, exact, rss, sizeof(rss));
		size_text(f->dirty, exact, dirty, sizeof(dirty));
		size_text(f->swap, exact, swap, sizeof(swap));
		count_text(f->faults, on, faults, sizeof(faults));
		escape_display(f->path, path, sizeof(path), u->cv.utf8);
		snprintf(line, sizeof(line), fmt, nm, sz, rss, dirty, swap, faults, path);
		put_text(&u->cv, y + 1 + r, 0, u->cv.cols,
			 i == v->sel[SEC_FILES] ? ROLE_SELECTED : ROLE_ROW, line, true);
	}
}

/* User frames of a stack on one line, innermost first: "f+0x1 < g+0x2 < ...", and
 * "< (truncated)" after them when the walk was cut */
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
		snprintf(buf, size, "%s", s->truncated ? "(truncated)" : "(no user stack)");
	else if (s->truncated && off + 1 < size)
		snprintf(buf + off, size - off, " < (truncated)");
}

static void stack_counts(const struct dd_stack *s, char *count, size_t csize, char *bytes,
			 size_t bsize)
{
	snprintf(count, csize, "%s%" PRIu64, stack_kind_fault(s->kind) || s->estimated ? "~" : "",
		 s->count);
	fmt_kb(s->bytes / 1024, bytes, bsize);
}

void draw_stacks(struct ui *u, int y, int rows)
{
	const struct detail *d = v->d;
	char line[2400], sum[2048], count[32], bytes[16];

	put_text(&u->cv, y++, 0, u->cv.cols, ROLE_ROW_DIM,
		 "Where memory is asked for; what is never freed: the Leaks tab (6)", true);
	rows--;
	if (!d->st.on) {
		snprintf(line, sizeof(line), "Stacks are off: %s", d->st.why);
		put_text(&u->cv, y, 0, u->cv.cols, ROLE_WARNING, line, true);
		put_text(&u->cv, y + 1, 0, u->cv.cols, ROLE_ROW_DIM,
			 "Breakdown, mappings and files work without them.", true);
		return;
	}
	if ((d->st.truncated || d->st.one_frame) && rows > 1) {
		if (d->st.one_frame)
			snprintf(line, sizeof(line),
				 "Stacks are one frame deep: the program has no frame pointers "
				 "(--unwind dwarf unwinds it with its CFI)");
		else
			snprintf(line, sizeof(line),
				 "%zu of %zu stacks truncated (Enter on one says where and why)",
				 d->st.truncated, d->nstacks);
		put_text(&u->cv, y++, 0, u->cv.cols, ROLE_WARNING, line, true);
		rows--;
	}
	if (d->st.tot.ring_full && rows > 1) {
		snprintf(line, sizeof(line),
			 "%" PRIu64 " copied stacks dropped: the ring buffer was full",
			 d->st.tot.ring_full);
		put_text(&u->cv, y++, 0, u->cv.cols, ROLE_WARNING, line, true);
		rows--;
	}
	if (d->st.tot.sampled_out && rows > 1) {
		snprintf(line, sizeof(line),
			 "past %d stacks a second a CPU, a uniform sample unwound: %" PRIu64
			 " events left out; counts with ~ are scaled estimates",
			 d->st.tot.copies_per_s, d->st.tot.sampled_out);
		put_text(&u->cv, y++, 0, u->cv.cols, ROLE_LABEL, line, true);
		rows--;
	}
	if ((d->st.tot.over_budget || d->st.tot.over_budget_faults) && rows > 1) {
		char kb[16];
		fmt_kb(d->st.tot.over_budget_bytes / 1024, kb, sizeof(kb));
		snprintf(line, sizeof(line),
			 "past twice %d stacks a second a CPU, counted, not unwound: %" PRIu64
			 " sampled faults, %" PRIu64 " calls (%s)",
			 d->st.tot.copies_per_s, d->st.tot.over_budget_faults,
			 d->st.tot.over_budget, kb);
		put_text(&u->cv, y++, 0, u->cv.cols, ROLE_LABEL, line, true);
		rows--;
	}
	if (v->tree) {
		draw_tree(u, y, rows);
		return;
	}
	snprintf(line, sizeof(line), "%-6s %9s %6s %6s  %s", "KIND", "COUNT", "SHARE", "BYTES",
		 "STACK (innermost first; Enter shows it whole)");
	put_text(&u->cv, y, 0, u->cv.cols, ROLE_TABLE_HEADER, line, true);
	if (!d->nstacks)
		put_text(&u->cv, y + 1, 0, u->cv.cols, ROLE_ROW_DIM,
			 "no page faults or brk/mmap/munmap calls since the view opened", true);
	scroll_into_view(rows);
	for (int r = 0; r < rows && v->top[SEC_STACKS] + (size_t)r < d->nstacks; r++) {
		size_t i = v->top[SEC_STACKS] + (size_t)r;
		const struct dd_stack *s = &d->stacks[i];

		stack_counts(s, count, sizeof(count), bytes, sizeof(bytes));
		stack_summary(s, sum, sizeof(sum), u->cv.utf8);
		snprintf(line, sizeof(line), "%-6s %9s %5.1f%% %6s  %s", stack_kind_names[s->kind],
			 count, dd_stack_share(d, s), bytes, sum);
		put_text(&u->cv, y + 1 + r, 0, u->cv.cols,
			 i == v->sel[SEC_STACKS] ? ROLE_SELECTED : ROLE_ROW, line, true);
	}
}

/* a column's width w after a cell of n columns, cap at most */
static int widest(int w, int n, int cap)
{
	n = n < cap ? n : cap;
	return n > w ? n : w;
}

void draw_whole(struct ui *u, int y, int rows)
{
	const struct dd_stack *s = &v->d->stacks[v->sel[SEC_STACKS]];
	char line[3200], frame[SYM_NAME_LEN * 4 + 32], module[SYM_MODULE_LEN * 4], count[32],
		bytes[16], place[SYM_MODULE_LEN * 4 + 24], src[SYM_MODULE_LEN * 4];
	int lines = s->nframes + s->truncated; /* the frames, and where the walk was cut */
	int wf = 8, wp = 13; /* the function and module+offset columns: as wide as the widest */

	for (int i = 0; i < s->nframes; i++) {
		dd_frame_text(&s->frames[i], frame, sizeof(frame), u->cv.utf8);
		dd_frame_place(&s->frames[i], place, sizeof(place), u->cv.utf8);
		wf = widest(wf, text_cols(frame, u->cv.utf8), 44);
		wp = widest(wp, text_cols(place, u->cv.utf8), 32);
	}

	stack_counts(s, count, sizeof(count), bytes, sizeof(bytes));
	snprintf(line, sizeof(line),
		 "%s stack: %s %s (%.1f %%), %s; %d frames%s, by %s (Esc goes back)",
		 stack_kind_names[s->kind], count, stack_kind_fault(s->kind) ? "faults" : "calls",
		 dd_stack_share(v->d, s), bytes, s->nframes, s->truncated ? ", truncated" : "",
		 s->method == METHOD_FP ? "frame pointers" : "CFI");
	put_text(&u->cv, y++, 0, u->cv.cols, ROLE_HEADER, line, true);
	snprintf(line, sizeof(line), "%3s %-18s %-*s %-*s %s", "#", "ADDRESS", wf, "FUNCTION", wp,
		 "MODULE+OFFSET", "FILE (at SOURCE:LINE)");
	put_text(&u->cv, y, 0, u->cv.cols, ROLE_TABLE_HEADER, line, true);
	rows--;
	if (v->whole_top > lines - rows)
		v->whole_top = lines - rows;
	if (v->whole_top < 0)
		v->whole_top = 0;
	for (int r = 0; r < rows && v->whole_top + r < lines; r++) {
		int i = v->whole_top + r;

		if (i == s->nframes) {
			snprintf(line, sizeof(line), "    (truncated: %s)",
				 stack_truncs[s->trunc ? s->trunc : TRUNC_NOT_EXEC].reason);
			put_text(&u->cv, y + 1 + r, 0, u->cv.cols, ROLE_ROW_DIM, line, true);
			break;
		}
		const struct dd_frame *fr = &s->frames[i];

		dd_frame_text(fr, frame, sizeof(frame), u->cv.utf8);
		escape_display(fr->module && fr->module[0] ? fr->module : "?", module,
			       sizeof(module), u->cv.utf8);
		escape_display(fr->src ? fr->src : "", src, sizeof(src), u->cv.utf8);
		dd_frame_place(fr, place, sizeof(place), u->cv.utf8);
		snprintf(line, sizeof(line), "%3d 0x%016" PRIx64 " %-*s %-*s %s%s%s", i, fr->ip, wf,
			 frame, wp, place, module, src[0] ? " at " : "", src);
		put_text(&u->cv, y + 1 + r, 0, u->cv.cols, fr->kernel ? ROLE_ROW_DIM : ROLE_ROW,
			 line, true);
	}
}

void draw_numa(struct ui *u, int y, int rows)
{
	char line[400];

	if (!v->d->have_numa) {
		put_text(&u->cv, y, 0, u->cv.cols, ROLE_ROW_DIM,
			 "No numa_maps: a kernel without NUMA, or not allowed to read it", true);
		return;
	}
	put_text(&u->cv, y++, 0, u->cv.cols, ROLE_LABEL,
		 "Memory per NUMA node (MB, as numastat -p shows it)", true);
	for (int i = 0; i < DD_NUMA_LINES && i < rows; i++) {
		dd_numa_line(&v->d->numa, i, u->cv.cols, line, sizeof(line));
		put_text(&u->cv, y + i, 0, u->cv.cols,
			 i == 0			  ? ROLE_TABLE_HEADER
			 : i == DD_NUMA_LINES - 1 ? ROLE_VALUE
						  : ROLE_ROW,
			 line, true);
	}
}
