#include "detail_cli.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "text.h"
#include "util.h"

#define TEXT_PER_KIND 10 /* stacks of each kind in the text output */
#define JSON_STACKS   200
#define JSON_MAPS     50

void dd_left_out(const struct detail *d, size_t per_kind, size_t all, struct dd_left_out *left)
{
	size_t seen[STACK_KINDS] = {0};

	memset(left, 0, STACK_KINDS * sizeof(*left));
	for (size_t i = 0; i < d->nstacks; i++) {
		const struct dd_stack *s = &d->stacks[i];
		struct dd_left_out *l = &left[s->kind];

		if (seen[s->kind]++ < per_kind && i < all)
			continue;
		l->stacks++;
		l->count += s->count;
		l->samples += s->samples;
		l->share += dd_stack_share(d, s);
	}
}

void dd_frame_text(const struct dd_frame *fr, char *buf, size_t size, bool utf8)
{
	char sym[SYM_NAME_LEN * 4];

	if (!fr->found || !fr->symbol || !fr->symbol[0]) {
		snprintf(buf, size, "0x%" PRIx64, fr->ip);
		return;
	}
	escape_display(fr->symbol, sym, sizeof(sym), utf8);
	if (fr->inlined)
		snprintf(buf, size, "%s (inlined)", sym);
	else
		snprintf(buf, size, "%s+0x%" PRIx64, sym, fr->offset);
}

void dd_frame_name(const struct dd_frame *fr, char *buf, size_t size, bool utf8)
{
	if (fr->found && fr->symbol && fr->symbol[0])
		escape_display(fr->symbol, buf, size, utf8);
	else if (fr->in_module)
		dd_frame_place(fr, buf, size, utf8);
	else
		snprintf(buf, size, "0x%" PRIx64, fr->ip);
}

void dd_frame_module(const struct dd_frame *fr, char *buf, size_t size, bool utf8)
{
	const char *m = fr->module ? fr->module : "";
	const char *slash = strrchr(m, '/');

	escape_display(slash && slash[1] ? slash + 1 : m[0] ? m : "?", buf, size, utf8);
}

void dd_frame_place(const struct dd_frame *fr, char *buf, size_t size, bool utf8)
{
	char mod[SYM_MODULE_LEN * 4];

	if (fr->kernel) {
		buf[0] = '\0'; /* the module ([kernel]) follows */
		return;
	}
	dd_frame_module(fr, mod, sizeof(mod), utf8);
	if (!fr->in_module) {
		snprintf(buf, size, "%s", mod);
		return;
	}
	snprintf(buf, size, "%s+0x%" PRIx64, mod, fr->mod_offset);
}

static void print_stack_text(FILE *f, const struct detail *d, const struct dd_stack *s, bool utf8)
{
	char bytes[16], frame[SYM_NAME_LEN * 4 + 32], module[SYM_MODULE_LEN * 4],
		place[SYM_MODULE_LEN * 4 + 24];

	fmt_kb(s->bytes / 1024, bytes, sizeof(bytes));
	if (stack_kind_fault(s->kind))
		fprintf(f, "%s: %.1f %%, ~%" PRIu64 " %s (%" PRIu64 " sampled), ~%s%s\n",
			stack_kind_names[s->kind], dd_stack_share(d, s), s->count,
			s->kind == STACK_KFAULT ? "kernel-mode faults on user memory" : "faults",
			s->samples, bytes, s->estimated ? " (estimated)" : "");
	else
		fprintf(f, "%s: %.1f %%, %s%" PRIu64 " calls, %s%s%s\n", stack_kind_names[s->kind],
			dd_stack_share(d, s), s->estimated ? "~" : "", s->count,
			s->estimated ? "~" : "", bytes, s->estimated ? " (estimated)" : "");
	for (int i = 0; i < s->nframes; i++) {
		const struct dd_frame *fr = &s->frames[i];

		dd_frame_text(fr, frame, sizeof(frame), utf8);
		escape_display(fr->module && fr->module[0] ? fr->module : "?", module,
			       sizeof(module), utf8);
		dd_frame_place(fr, place, sizeof(place), utf8);
		fprintf(f, "    %-40s %-32s %s", frame, place, module);
		if (fr->src && fr->src[0]) {
			escape_display(fr->src, module, sizeof(module), utf8);
			fprintf(f, " at %s", module);
		}
		fputc('\n', f);
	}
	if (s->truncated)
		fprintf(f, "    (truncated: %s)\n",
			stack_truncs[s->trunc ? s->trunc : TRUNC_NOT_EXEC].reason);
	else if (!s->nframes)
		fputs("    (no stack)\n", f);
	fputc('\n', f);
}

void detail_print_text(FILE *f, const struct detail *d, bool utf8)
{
	const struct dd_stacks_info *st = &d->st;
	char comm[80];
	int shown[STACK_KINDS] = {0};

	escape_display(d->b.comm, comm, sizeof(comm), utf8);
	fprintf(f,
		"pid %d (%s): %.1f s, %" PRIu64 " page faults (%" PRIu64 " in user mode, %" PRIu64
		" in kernel mode on user memory), %" PRIu64
		" sampled (1 in %u on average), %" PRIu64 " brk/mmap/munmap calls\n",
		d->pid, comm, st->seconds, st->tot.faults + st->tot.kfaults, st->tot.faults,
		st->tot.kfaults, st->tot.samples, st->rate, st->tot.calls);
	if (st->tot.copied)
		fprintf(f,
			"unwinding: dwarf (CFI) over %u bytes of stack copied per event; %" PRIu64
			" copied, %.1f MB, %.3f s of CPU\n",
			st->tot.stack_bytes, st->tot.records, (double)st->tot.ring_bytes / 1e6,
			st->tot.unwind_cpu);
	else
		fputs("unwinding: frame pointers (in the kernel)\n", f);
	if (st->truncated)
		fprintf(f, "note: %zu of %zu stacks truncated\n", st->truncated, d->nstacks);
	if (st->one_frame)
		fputs("note: most stacks are one frame deep: the program was probably built "
		      "without frame pointers (--unwind dwarf unwinds it with its CFI)\n",
		      f);
	if (st->tot.ring_full)
		fprintf(f, "note: %" PRIu64 " copied stacks dropped (the ring buffer was full)\n",
			st->tot.ring_full);
	if (st->tot.sampled_out)
		fprintf(f,
			"note: past %d stacks a second a CPU, a uniform sample unwound: %" PRIu64
			" events left out, weighed for by those unwound (counts marked estimated "
			"are scaled)\n",
			st->tot.copies_per_s, st->tot.sampled_out);
	if (st->tot.over_budget || st->tot.over_budget_faults)
		fprintf(f,
			"note: past twice %d stacks a second a CPU, counted, not unwound: %" PRIu64
			" sampled faults, %" PRIu64 " brk/mmap/munmap calls (%" PRIu64 " bytes)\n",
			st->tot.copies_per_s, st->tot.over_budget_faults, st->tot.over_budget,
			st->tot.over_budget_bytes);
	if (st->tot.lost_stacks || st->tot.full)
		fprintf(f,
			"note: %" PRIu64 " stacks could not be taken, %" PRIu64
			" events dropped (maps full)\n",
			st->tot.lost_stacks, st->tot.full);
	fputc('\n', f);
	struct dd_left_out left[STACK_KINDS];

	for (size_t i = 0; i < d->nstacks; i++) {
		const struct dd_stack *s = &d->stacks[i];

		if (shown[s->kind]++ < TEXT_PER_KIND)
			print_stack_text(f, d, s, utf8);
	}
	dd_left_out(d, TEXT_PER_KIND, SIZE_MAX, left);
	for (int k = 0; k < STACK_KINDS; k++)
		if (left[k].stacks)
			fprintf(f, "%s: %zu more stacks (%" PRIu64 " %s, %.1f %%)\n\n",
				stack_kind_names[k], left[k].stacks, left[k].samples,
				stack_kind_fault(k) ? "samples" : "calls", left[k].share);
	if (!d->nstacks)
		fputs("no page faults or brk/mmap/munmap calls seen\n", f);
	if (d->have_numa) {
		char line[400];
		fputs("\nmemory per NUMA node (MB, as numastat -p):\n", f);
		for (int i = 0; i < DD_NUMA_LINES; i++) {
			dd_numa_line(&d->numa, i, (int)sizeof(line) - 1, line, sizeof(line));
			fprintf(f, "%s\n", line);
		}
	}
}

static void json_frame(FILE *f, const struct dd_frame *fr)
{
	fputs("{\"symbol\":", f);
	if (fr->found && fr->symbol && fr->symbol[0])
		json_string(f, fr->symbol);
	else
		fputs("null", f);
	fprintf(f, ",\"offset\":%" PRIu64 ",\"module\":", fr->offset);
	json_string(f, fr->module ? fr->module : "");
	fprintf(f, ",\"address\":\"0x%" PRIx64 "\",\"kernel\":%s", fr->ip,
		fr->kernel ? "true" : "false");
	if (fr->in_module)
		fprintf(f, ",\"module_offset\":\"0x%" PRIx64 "\"", fr->mod_offset);
	else
		fputs(",\"module_offset\":null", f);
	fputs(",\"build_id\":", f);
	if (fr->build_id && fr->build_id[0])
		json_string(f, fr->build_id);
	else
		fputs("null", f);
	fputs(",\"source\":", f);
	if (fr->src && fr->src[0])
		json_string(f, fr->src);
	else
		fputs("null", f);
	fprintf(f, ",\"inlined\":%s}", fr->inlined ? "true" : "false");
}

#define NUMA_LABEL 10 /* the width of the kinds' column, then 12 a node and the total */
#define NUMA_COL   12

/* A node's figure on line (1..NK_COUNT a kind, after them its total) */
static uint64_t numa_cell(const struct numa_node_use *nu, int line)
{
	return line <= NK_COUNT ? nu->kb[line - 1] : numa_node_total(nu);
}

void dd_numa_line(const struct numa_use *u, int line, int width, char *buf, size_t size)
{
	size_t fit =
		width > NUMA_LABEL + 2 * NUMA_COL ? (size_t)(width - NUMA_LABEL) / NUMA_COL - 1 : 0;
	size_t n = u->nnodes < fit ? u->nnodes : fit;
	const char *label = line == 0	       ? ""
			    : line <= NK_COUNT ? numa_kinds[line - 1].label
					       : "Total";
	size_t off = (size_t)snprintf(buf, size, "%-*s", NUMA_LABEL, label);
	char head[24];
	uint64_t total = 0;

	for (size_t i = 0; i < u->nnodes; i++)
		total += line ? numa_cell(&u->nodes[i], line) : 0;
	for (size_t i = 0; i <= n && off < size; i++) {
		if (line == 0) {
			if (i < n)
				snprintf(head, sizeof(head), "Node %d", u->nodes[i].node);
			off += (size_t)snprintf(buf + off, size - off, "%*s", NUMA_COL,
						i < n ? head : "Total");
		} else {
			uint64_t kb = i < n ? numa_cell(&u->nodes[i], line) : total;
			off += (size_t)snprintf(buf + off, size - off, "%*.2f", NUMA_COL,
						(double)kb / 1024.0);
		}
	}
}

static void json_numa(FILE *f, const struct detail *d)
{
	if (!d->have_numa) {
		fputs(",\"numa\":null", f);
		return;
	}
	fputs(",\"numa\":[", f);
	for (size_t i = 0; i < d->numa.nnodes; i++) {
		const struct numa_node_use *nu = &d->numa.nodes[i];
		fprintf(f, "%s{\"node\":%d", i ? "," : "", nu->node);
		for (int k = 0; k < NK_COUNT; k++)
			fprintf(f, ",\"%s_kb\":%" PRIu64, numa_kinds[k].json, nu->kb[k]);
		fprintf(f, ",\"total_kb\":%" PRIu64 "}", numa_node_total(nu));
	}
	fputc(']', f);
}

static void json_breakdown(FILE *f, const struct dd_breakdown *b)
{
	fprintf(f,
		"{\"rss_kb\":%" PRIu64 ",\"pss_kb\":%" PRIu64 ",\"pss_anon_kb\":%" PRIu64
		",\"pss_file_kb\":%" PRIu64 ",\"pss_shmem_kb\":%" PRIu64 ",\"uss_kb\":%" PRIu64
		",\"shared_clean_kb\":%" PRIu64 ",\"shared_dirty_kb\":%" PRIu64
		",\"private_clean_kb\":%" PRIu64 ",\"private_dirty_kb\":%" PRIu64
		",\"anonymous_kb\":%" PRIu64 ",\"anon_kb\":%" PRIu64 ",\"file_kb\":%" PRIu64
		",\"shmem_kb\":%" PRIu64 ",\"swap_kb\":%" PRIu64 ",\"swap_pss_kb\":%" PRIu64
		",\"locked_kb\":%" PRIu64 ",\"anon_huge_kb\":%" PRIu64 ",\"shmem_pmd_kb\":%" PRIu64
		",\"file_pmd_kb\":%" PRIu64 ",\"hugetlb_kb\":%" PRIu64 ",\"pgtables_kb\":%" PRIu64,
		b->rss, b->pss, b->pss_anon, b->pss_file, b->pss_shmem, b->uss, b->shared_clean,
		b->shared_dirty, b->private_clean, b->private_dirty, b->anonymous, b->rss_anon,
		b->rss_file, b->rss_shmem, b->swap, b->swap_pss, b->locked, b->anon_huge,
		b->shmem_pmd, b->file_pmd, b->shared_hugetlb + b->private_hugetlb, b->pgtables);
	if (b->have_oom)
		fprintf(f, ",\"oom_score\":%d,\"oom_score_adj\":%d", b->oom_score,
			b->oom_score_adj);
	else
		fputs(",\"oom_score\":null,\"oom_score_adj\":null", f);
	fputs(",\"cgroup\":", f);
	json_string(f, b->cgroup);
	fputc('}', f);
}

/* Per kind: the stacks past the first JSON_STACKS of all kinds */
static void json_left_out(FILE *f, const struct detail *d)
{
	struct dd_left_out left[STACK_KINDS];

	dd_left_out(d, SIZE_MAX, JSON_STACKS, left);
	for (int k = 0; k < STACK_KINDS; k++)
		fprintf(f,
			"%s\"%s\":{\"stacks\":%zu,\"count\":%" PRIu64 ",\"samples\":%" PRIu64
			",\"share\":%.5f}",
			k ? "," : "", stack_kind_names[k], left[k].stacks, left[k].count,
			left[k].samples, left[k].share / 100);
}

void detail_print_json(FILE *f, const struct detail *d)
{
	const struct dd_stacks_info *st = &d->st;

	fprintf(f, "{\"pid\":%d,\"comm\":", d->pid);
	json_string(f, d->b.comm);
	fprintf(f,
		",\"seconds\":%.2f,\"exited\":%s,\"sample_rate\":%u,\"faults\":%" PRIu64
		",\"faults_user\":%" PRIu64 ",\"faults_kernel\":%" PRIu64
		",\"fault_samples\":%" PRIu64 ",\"calls\":%" PRIu64 ",\"samples\":%" PRIu64
		",\"lost_stacks\":%" PRIu64 ",\"dropped\":%" PRIu64
		",\"one_frame\":%s,\"truncated_stacks\":%zu,\"unwind\":\"%s\"",
		st->seconds, d->gone ? "true" : "false", st->rate, st->tot.faults + st->tot.kfaults,
		st->tot.faults, st->tot.kfaults, st->tot.samples, st->tot.calls,
		st->tot.samples + st->tot.calls, st->tot.lost_stacks, st->tot.full,
		st->one_frame ? "true" : "false", st->truncated, st->tot.copied ? "dwarf" : "fp");
	if (st->tot.copied)
		fprintf(f,
			",\"stack_bytes\":%u,\"ring_records\":%" PRIu64 ",\"ring_bytes\":%" PRIu64
			",\"ring_dropped\":%" PRIu64 ",\"copy_failed\":%" PRIu64
			",\"unwind_cache_hits\":%" PRIu64 ",\"unwind_cpu_s\":%.4f"
			",\"faults_not_unwound\":%" PRIu64 ",\"calls_not_unwound\":%" PRIu64
			",\"bytes_not_unwound\":%" PRIu64 ",\"events_sampled_out\":%" PRIu64,
			st->tot.stack_bytes, st->tot.records, st->tot.ring_bytes, st->tot.ring_full,
			st->tot.copy_fail, st->tot.unwind_hits, st->tot.unwind_cpu,
			st->tot.over_budget_faults, st->tot.over_budget, st->tot.over_budget_bytes,
			st->tot.sampled_out);
	fputs(",\"stacks\":[", f);
	for (size_t i = 0; i < d->nstacks && i < JSON_STACKS; i++) {
		const struct dd_stack *s = &d->stacks[i];

		fprintf(f,
			"%s{\"kind\":\"%s\",\"count\":%" PRIu64 ",\"samples\":%" PRIu64
			",\"share\":%.5f,\"estimated\":%s,\"bytes\":%" PRIu64
			",\"method\":\"%s\",\"truncated\":%s",
			i ? "," : "", stack_kind_names[s->kind], s->count, s->samples,
			dd_stack_share(d, s) / 100, s->estimated ? "true" : "false", s->bytes,
			stack_method_names[s->method], s->truncated ? "true" : "false");
		if (s->truncated)
			fprintf(f, ",\"truncated_reason\":\"%s\"",
				stack_truncs[s->trunc ? s->trunc : TRUNC_NOT_EXEC].name);
		else
			fputs(",\"truncated_reason\":null", f);
		fputs(",\"frames\":[", f);
		for (int j = 0; j < s->nframes; j++) {
			if (j)
				fputc(',', f);
			json_frame(f, &s->frames[j]);
		}
		fputs("]}", f);
	}
	fprintf(f, "],\"stacks_left_out\":%zu,\"left_out\":{",
		d->nstacks > JSON_STACKS ? d->nstacks - JSON_STACKS : 0);
	json_left_out(f, d);
	fputs("},\"breakdown\":", f);
	json_breakdown(f, &d->b);
	json_numa(f, d);
	fputs(",\"mappings\":[", f);
	for (size_t i = 0; i < d->nmaps && i < JSON_MAPS; i++) {
		const struct dd_mapping *m = &d->maps[i];

		fprintf(f,
			"%s{\"start\":\"0x%" PRIx64 "\",\"end\":\"0x%" PRIx64
			"\",\"perms\":\"%s\",\"path\":",
			i ? "," : "", m->start, m->end, m->perms);
		json_string(f, dd_map_label(m));
		fprintf(f,
			",\"size_kb\":%" PRIu64 ",\"rss_kb\":%" PRIu64 ",\"dirty_kb\":%" PRIu64
			",\"swap_kb\":%" PRIu64 ",\"faults\":%" PRIu64 "}",
			m->size, m->rss, m->dirty, m->swap, m->faults);
	}
	fputs("],\"files\":[", f);
	for (size_t i = 0; i < d->nfiles && i < JSON_MAPS; i++) {
		const struct dd_file *fl = &d->files[i];

		fputs(i ? ",{\"path\":" : "{\"path\":", f);
		json_string(f, fl->path);
		fprintf(f,
			",\"mappings\":%d,\"size_kb\":%" PRIu64 ",\"rss_kb\":%" PRIu64
			",\"faults\":%" PRIu64 "}",
			fl->nmaps, fl->size, fl->rss, fl->faults);
	}
	fprintf(f, "],\"unmapped_faults\":%" PRIu64 "}\n", st->unmapped_faults);
}
