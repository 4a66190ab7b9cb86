// SPDX-License-Identifier: GPL-2.0
/* The drill-down's sampler for one process: its page faults (sampled, 1 in N on
 * average) and its brk, mmap and munmap calls, each with its user (and kernel) stack,
 * counted in the kernel per (kind, stacks); sampled fault addresses per page. Loaded
 * only while a detail view or `memtop --stacks` is open. Every program returns at once
 * for other processes: the tgid check comes before any other work. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "stacks.h"
#include "pidns.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* set by user space before loading */
const volatile __u32 target_tgid = 0;
const volatile __u32 sample_rate = 64; /* mean faults per sample */
const volatile __u32 page_shift = 12;
const volatile __u32 kernel_stacks = 1;
const volatile __s64 nr_brk = -1; /* syscall numbers of this architecture */
const volatile __s64 nr_mmap = -1;
const volatile __s64 nr_munmap = -1;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, MTB_DD_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, MTB_DD_DEPTH * sizeof(__u64));
} stack_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MTB_DD_MAX_KEYS);
	__type(key, struct mtb_dd_key);
	__type(value, struct mtb_dd_val);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MTB_DD_MAX_PAGES);
	__type(key, __u64);   /* fault address >> page_shift */
	__type(value, __u64); /* samples */
} fault_pages SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mtb_dd_cpu);
} cpu_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MTB_DD_MAX_CALLS);
	__type(key, __u64); /* pid_tgid of the calling thread */
	__type(value, struct mtb_dd_call);
} calls SEC(".maps");

static __always_inline struct mtb_dd_cpu *cpu(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_stats, &zero);
}

/* faults until the next sample: uniform in [1, 2N-1], mean N, so that a periodic
 * pattern of faults is not always sampled at the same phase */
static __always_inline __u64 interval(void)
{
	if (sample_rate <= 1)
		return 1;
	return 1 + bpf_get_prandom_u32() % (2 * sample_rate - 1);
}

static __always_inline __s32 kernel_stack(void *ctx, struct mtb_dd_cpu *c)
{
	__s32 id;

	if (!kernel_stacks)
		return -1;
	id = bpf_get_stackid(ctx, &stack_map, 0);
	if (id < 0)
		c->lost_stacks++;
	return id;
}

/* Counts one event. A new counter gets the kernel stack: the one given (taken at
 * syscall entry), or with ctx one taken now. */
static __always_inline void add(void *ctx, const struct mtb_dd_key *key, __u64 bytes, __s32 kstack,
				struct mtb_dd_cpu *c)
{
	struct mtb_dd_val *v = bpf_map_lookup_elem(&counts, key);

	if (!v) {
		struct mtb_dd_val init = {1, bytes, ctx ? kernel_stack(ctx, c) : kstack};

		if (!bpf_map_update_elem(&counts, key, &init, BPF_NOEXIST))
			return;
		v = bpf_map_lookup_elem(&counts, key);
		if (!v) {
			c->full++;
			return;
		}
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->bytes, bytes);
}

/* Whether the code just before ret is a call instruction: direct (e8 rel32) or
 * indirect through a register, a register plus displacement or rip-relative. */
static __always_inline bool after_call(__u64 ret)
{
	__u8 b[8];

	if (bpf_probe_read_user(b, sizeof(b), (void *)(ret - sizeof(b))))
		return false;
	return b[3] == 0xe8 || (b[2] == 0xff && (b[3] == 0x15 || (b[3] & 0xf8) == 0x90)) ||
	       (b[5] == 0xff && (b[6] & 0xf8) == 0x50) ||
	       (b[6] == 0xff && ((b[7] & 0xf8) == 0xd0 || (b[7] & 0xf8) == 0x10));
}

/* The word at the user stack pointer when it looks like a return address (the code
 * before it is a call): in a function that set up no frame (a leaf, a libc syscall
 * wrapper) it is the return address into the caller that walking frame pointers
 * misses. User space decides whether to use it. */
static __always_inline __u64 leaf_caller(struct pt_regs *regs)
{
#if defined(__TARGET_ARCH_x86)
	__u64 word = 0;

	if (bpf_probe_read_user(&word, sizeof(word), (void *)PT_REGS_SP_CORE(regs)) ||
	    word < 4096 || !after_call(word))
		return 0;
	return word;
#else
	return 0;
#endif
}

static __always_inline void user_stack(void *ctx, struct pt_regs *regs, struct mtb_dd_key *key,
				       struct mtb_dd_cpu *c)
{
	key->ustack = bpf_get_stackid(ctx, &stack_map, BPF_F_USER_STACK);
	if (key->ustack < 0)
		c->lost_stacks++;
	key->caller = leaf_caller(regs);
}

SEC("raw_tp/page_fault_user")
int BPF_PROG(dd_fault, unsigned long address, struct pt_regs *regs, unsigned long error_code)
{
	if ((mt_pid_tgid() >> 32) != target_tgid)
		return 0;

	struct mtb_dd_cpu *c = cpu();
	struct mtb_dd_key key = {.kind = MTB_DD_FAULT};
	__u64 page, one = 1, *n;

	if (!c)
		return 0;
	c->faults++;
	if (c->countdown == 0)
		c->countdown = interval();
	if (--c->countdown)
		return 0;
	c->countdown = interval();
	c->samples++;
	user_stack(ctx, regs, &key, c);
	add(ctx, &key, 0, -1, c);
	page = address >> page_shift;
	n = bpf_map_lookup_elem(&fault_pages, &page);
	if (n)
		__sync_fetch_and_add(n, 1);
	else if (bpf_map_update_elem(&fault_pages, &page, &one, BPF_NOEXIST))
		c->full++;
	return 0;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(dd_sys_enter, struct pt_regs *regs, long id)
{
	__u64 pid_tgid = mt_pid_tgid();

	if ((pid_tgid >> 32) != target_tgid)
		return 0;

	struct mtb_dd_call call = {};
	struct mtb_dd_cpu *c;

	if (id == nr_mmap) {
		call.key.kind = MTB_DD_MMAP;
		call.arg = PT_REGS_PARM2_CORE_SYSCALL(regs);
	} else if (id == nr_munmap) {
		call.key.kind = MTB_DD_MUNMAP;
		call.arg = PT_REGS_PARM2_CORE_SYSCALL(regs);
	} else if (id == nr_brk) {
		struct task_struct *task = (void *)bpf_get_current_task();

		call.key.kind = MTB_DD_BRK;
		call.arg = BPF_CORE_READ(task, mm, brk);
	} else {
		return 0;
	}
	c = cpu();
	if (!c)
		return 0;
	user_stack(ctx, regs, &call.key, c);
	call.kstack = bpf_map_lookup_elem(&counts, &call.key) ? -1 : kernel_stack(ctx, c);
	if (bpf_map_update_elem(&calls, &pid_tgid, &call, BPF_ANY))
		c->full++;
	return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(dd_sys_exit, struct pt_regs *regs, long ret)
{
	__u64 pid_tgid = mt_pid_tgid();

	if ((pid_tgid >> 32) != target_tgid)
		return 0;

	struct mtb_dd_call *call = bpf_map_lookup_elem(&calls, &pid_tgid);
	struct mtb_dd_cpu *c;
	struct mtb_dd_key key;
	__u64 bytes = 0;
	__s32 kstack;
	bool ok;

	if (!call)
		return 0;
	key = call->key;
	kstack = call->kstack;
	if (key.kind == MTB_DD_BRK) {
		ok = true; /* brk returns the new break, the old one when it fails */
		if ((__u64)ret > call->arg)
			bytes = (__u64)ret - call->arg;
	} else {
		ok = ret >= 0 || ret < -4095;
		bytes = call->arg;
	}
	bpf_map_delete_elem(&calls, &pid_tgid);
	c = cpu();
	if (!ok || !c)
		return 0;
	c->calls++;
	add(NULL, &key, bytes, kstack, c);
	return 0;
}
