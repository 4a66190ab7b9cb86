// SPDX-License-Identifier: GPL-2.0
/* Outstanding allocations of one process, by stack (as BPF Performance Tools' memleak):
 * uprobes on its libc's malloc, calloc, realloc, posix_memalign, aligned_alloc and free,
 * and the mmap and munmap syscall tracepoints. Allocations are sampled by size: one of s bytes is
 * recorded with probability s / sample_bytes (always from sample_bytes up), so that
 * user space can scale what it finds to an unbiased estimate of bytes and counts. Loaded
 * only while `memtop --leaks` runs. Every program returns at once for other processes. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "bpf/leaks.h"
#include "pidns.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* set by user space before loading */
const volatile __u32 target_tgid = 0;
const volatile __u64 sample_bytes = 4096; /* from this size up, every allocation */
/* set by user space at the window's end: from then on nothing is counted or changed */
volatile __u32 stopped = 0;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, MTB_LK_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, MTB_LK_DEPTH * sizeof(__u64));
} stack_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MTB_LK_MAX_ALLOCS);
	__type(key, __u64); /* address */
	__type(value, struct mtb_lk_alloc);
} allocs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MTB_LK_MAX_CALLS);
	__type(key, __u32); /* thread id */
	__type(value, struct mtb_lk_call);
} calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mtb_lk_cpu);
} cpu_stats SEC(".maps");

/* this CPU's counters when the current task is the target's and the window is open,
 * else NULL; *tid its id */
static __always_inline struct mtb_lk_cpu *target(__u32 *tid)
{
	__u64 id = mt_pid_tgid();
	__u32 zero = 0;

	if ((__u32)(id >> 32) != target_tgid || !target_tgid || stopped)
		return NULL;
	*tid = (__u32)id;
	return bpf_map_lookup_elem(&cpu_stats, &zero);
}

/* The call the thread is inside of, at user stack pointer sp: NULL when none, or when
 * the one recorded was left without returning (sp is not below it) */
static __always_inline struct mtb_lk_call *inside(__u32 tid, __u64 sp)
{
	struct mtb_lk_call *c = bpf_map_lookup_elem(&calls, &tid);

	return c && sp < c->sp ? c : NULL;
}

/* An allocator's entry: nested calls (realloc's own malloc) only deepen the outer one.
 * The sampling is decided here, by size. */
static __always_inline int enter(struct pt_regs *ctx, __u64 size, __u64 old, __u32 kind)
{
	struct mtb_lk_call call = {.size = size, .old = old, .sp = PT_REGS_SP(ctx), .kind = kind};
	struct mtb_lk_call *c;
	struct mtb_lk_cpu *s;
	__u32 tid;

	if (!(s = target(&tid)))
		return 0;
	if ((c = inside(tid, call.sp))) {
		c->depth++;
		return 0;
	}
	s->allocs++;
	s->alloc_bytes += size;
	call.sample = size >= sample_bytes || bpf_get_prandom_u32() % sample_bytes < size;
	if (bpf_map_update_elem(&calls, &tid, &call, BPF_ANY))
		s->full++;
	return 0;
}

static __always_inline void record(void *ctx, struct mtb_lk_cpu *s, __u64 addr, __u64 size,
				   __u32 kind, __u64 caller)
{
	struct mtb_lk_alloc a = {
		.size = size, .ns = bpf_ktime_get_ns(), .caller = caller, .kind = kind};

	a.ustack = bpf_get_stackid(ctx, &stack_map, BPF_F_USER_STACK);
	if (a.ustack < 0)
		s->lost_stacks++;
	if (bpf_map_update_elem(&allocs, &addr, &a, BPF_ANY))
		s->full++;
	else
		s->sampled++;
}

static __always_inline void forget(struct mtb_lk_cpu *s, __u64 addr)
{
	s->frees++;
	if (addr && !bpf_map_delete_elem(&allocs, &addr))
		s->freed++;
}

/* An allocator's return: at the uretprobe the registers are the caller's, just after
 * the call, so the stack walked from them starts in the function that allocated. */
static __always_inline int leave(struct pt_regs *ctx, __u64 addr)
{
	struct mtb_lk_call *c;
	struct mtb_lk_cpu *s;
	__u32 tid;

	if (!(s = target(&tid)) || !(c = bpf_map_lookup_elem(&calls, &tid)))
		return 0;
	if (c->depth) {
		c->depth--;
		return 0;
	}
	struct mtb_lk_call call = *c;

	bpf_map_delete_elem(&calls, &tid);
	if (call.kind == MTB_LK_CALL_MEMALIGN) { /* 0, and the pointer at old */
		if (addr || bpf_probe_read_user(&addr, sizeof(addr), (void *)call.old))
			return 0;
	} else if (call.kind == MTB_LK_CALL_REALLOC && (addr || !call.size)) {
		forget(s, call.old); /* realloc: moved, or freed by a size of 0 */
	}
	if (addr && call.sample)
		record(ctx, s, addr, call.size, MTB_LK_MALLOC, 0);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(malloc_enter, __u64 size)
{
	return enter(ctx, size, 0, MTB_LK_CALL_ALLOC);
}

SEC("uprobe")
int BPF_KPROBE(calloc_enter, __u64 n, __u64 size)
{
	return enter(ctx, n * size, 0, MTB_LK_CALL_ALLOC);
}

SEC("uprobe")
int BPF_KPROBE(realloc_enter, __u64 old, __u64 size)
{
	return enter(ctx, size, old, MTB_LK_CALL_REALLOC);
}

SEC("uprobe")
int BPF_KPROBE(memalign_enter, __u64 memptr, __u64 align, __u64 size)
{
	return enter(ctx, size, memptr, MTB_LK_CALL_MEMALIGN);
}

/* glibc's memalign is the same function */
SEC("uprobe")
int BPF_KPROBE(aligned_enter, __u64 align, __u64 size)
{
	return enter(ctx, size, 0, MTB_LK_CALL_ALLOC);
}

SEC("uretprobe")
int BPF_KRETPROBE(alloc_leave, __u64 ret)
{
	return leave(ctx, ret);
}

SEC("uprobe")
int BPF_KPROBE(free_enter, __u64 addr)
{
	struct mtb_lk_cpu *s;
	__u32 tid;

	if ((s = target(&tid)))
		forget(s, addr);
	return 0;
}

/* mmap and munmap, where uprobes are refused too. An mmap made inside malloc is
 * malloc's (recorded as its allocation): only the program's own are recorded. */
SEC("tracepoint/syscalls/sys_enter_mmap")
int mmap_enter(struct trace_event_raw_sys_enter *ctx)
{
	__u64 len = ctx->args[1];
	struct mtb_lk_call call = {.size = len, .kind = MTB_LK_CALL_MMAP};
	struct mtb_lk_cpu *s;
	struct pt_regs *regs;
	__u32 tid;

	if (!(s = target(&tid)))
		return 0;
	regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	call.sp = PT_REGS_SP_CORE(regs);
	if (inside(tid, call.sp))
		return 0;
	if (bpf_map_update_elem(&calls, &tid, &call, BPF_ANY))
		s->full++;
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_mmap")
int mmap_exit(struct trace_event_raw_sys_exit *ctx)
{
	long ret = ctx->ret;
	struct mtb_lk_call *c;
	struct mtb_lk_cpu *s;
	__u64 caller = 0, len;
	__u32 tid;

	if (!(s = target(&tid)) || !(c = bpf_map_lookup_elem(&calls, &tid)) ||
	    c->kind != MTB_LK_CALL_MMAP)
		return 0;
	len = c->size;
	bpf_map_delete_elem(&calls, &tid);
	if (ret < 0 && ret > -4096)
		return 0;
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());

	/* the libc wrapper keeps no frame: the word at sp returns into its caller */
	if (bpf_probe_read_user(&caller, sizeof(caller), (void *)PT_REGS_SP_CORE(regs)))
		caller = 0;
	s->allocs++;
	s->alloc_bytes += len;
	s->mmaps++;
	record(ctx, s, (__u64)ret, len, MTB_LK_MMAP, caller);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_munmap")
int munmap_enter(struct trace_event_raw_sys_enter *ctx)
{
	__u64 addr = ctx->args[0];
	struct mtb_lk_cpu *s;
	__u32 tid;

	if ((s = target(&tid)))
		forget(s, addr);
	return 0;
}
