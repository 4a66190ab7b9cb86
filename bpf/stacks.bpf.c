// SPDX-License-Identifier: GPL-2.0
/* The drill-down's sampler for one process: its page faults (sampled, 1 in N on
 * average) and its brk, mmap and munmap calls, each with its user (and kernel) stack;
 * sampled fault addresses per page. Two ways to the user stack: walking frame pointers
 * in the kernel (counted here per (kind, stacks)), or copying the user registers and the
 * top of the user stack into a ring buffer for user space to unwind with the programs'
 * CFI (copy_stacks; counted there, after unwinding). Loaded
 * only while a detail view or `memtop --stacks` is open. Every program returns at once
 * for other processes: the tgid check comes before any other work. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "bpf/stacks.h"
#include "pidns.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* set by user space before loading */
const volatile __u32 target_tgid = 0;
const volatile __u32 sample_rate = 64; /* mean faults per sample */
/* stacks copied a second and a CPU (sampled faults and calls alike), about: a program
 * that calls brk 20,000 times a second, or faults 500,000 times, would otherwise have
 * memtop unwind without bound; past it events are sampled (copy_weight) */
const volatile __u32 copies_per_s = 3000;

/* The target's events of each class, counted in 100 ms windows of its own whichever CPU
 * each ran on (.bss; its threads running at once on several CPUs may lose a count to
 * each other, which only makes n smaller), and n as the last window's called for. Each
 * CPU's windows cap its copies; were the events counted there too, a thread that moves
 * between CPUs would come back to one whose last window saw few of them, start from a
 * small n, copy up to the cap within the window's first events and count the rest, not
 * copied (a storm of calls moving between two CPUs lost a tenth of them so). */
struct {
	__u64 window_ns, events, last_n;
} rate[2];

/* Whether this CPU copies the stack of one more event of class cls (MTB_DD_FAULTS or
 * MTB_DD_CALLS; the faults, already sampled one in sample_rate, have a quarter of the
 * budget and the calls the rest, so that a storm of calls does not leave the sampled
 * faults a few copies each weighing hundreds): the weight of its record; 0 when it is
 * left out by chance (sampled_out: the records copied weigh for it); -1 past the
 * window's cap (the caller counts it, not copied). A bucket of the class's copies a
 * second, refilled at that rate, copies every event (weight 1: a burst is taken whole). Once
 * it is empty each event is copied with probability 1/n, n the events so far in this
 * 100 ms window (or the last one, if more) per half a window's share of the budget: a
 * uniform sample whose weights add up to the events, so that no call site is favoured by
 * when it comes. The events are counted per window of the target's (rate), the copies
 * per window of the CPU's, which caps them. */
static __always_inline __s64 copy_weight(struct mtb_dd_cpu *c, int cls)
{
	__u32 k = cls & 1,
	      per_s = k == MTB_DD_FAULTS ? copies_per_s / 4 : copies_per_s - copies_per_s / 4;
	__u64 now = bpf_ktime_get_ns(), add = (now - c->tokens_ns[k]) * per_s / 1000000000ull;
	__u64 share = per_s / MTB_DD_WINDOWS_PER_S / 2, n,
	      window = 1000000000ull / MTB_DD_WINDOWS_PER_S;

	if (add) {
		c->tokens[k] = c->tokens[k] + add > per_s ? per_s : c->tokens[k] + add;
		c->tokens_ns[k] = now;
	}
	if (!share)
		share = 1;
	if (now - rate[k].window_ns >= window) { /* the last n: 0 after a window without */
		rate[k].last_n = now - rate[k].window_ns < 2 * window
					 ? (rate[k].events + share - 1) / share
					 : 0;
		rate[k].window_ns = now;
		rate[k].events = 0;
	}
	rate[k].events++;
	if (now - c->window_ns[k] >= window) {
		c->window_ns[k] = now;
		c->win_copies[k] = 0;
	}
	if (c->tokens[k]) {
		c->tokens[k]--;
		return 1;
	}
	n = (rate[k].events + share - 1) / share;
	if (n < rate[k].last_n)
		n = rate[k].last_n;
	if (n < 1)
		n = 1;
	if (n > 0xffffffffull)
		n = 0xffffffffull;
	if (c->win_copies[k] >= 2 * share)
		return -1;
	if (n > 1 && bpf_get_prandom_u32() % (__u32)n) {
		c->sampled_out++;
		return 0;
	}
	c->win_copies[k]++;
	return (__s64)n;
}

const volatile __u32 page_shift = 12;
/* addresses below are user memory (x86-64 and arm64 kernel addresses have the top bit) */
const volatile __u64 user_top = 1ull << 63;
const volatile __u32 kernel_stacks = 1;
const volatile __s64 nr_brk = -1; /* syscall numbers of this architecture */
const volatile __s64 nr_mmap = -1;
const volatile __s64 nr_munmap = -1;
const volatile __u32 copy_stacks = 0;	  /* copy stacks to the ring buffer, not walk them */
const volatile __u32 stack_bytes = 16384; /* most bytes copied, <= MTB_DD_COPY_MAX */

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

/* copied stacks, variable-length records (struct mtb_dd_rec and the bytes) */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, MTB_DD_RING_BYTES);
} ring SEC(".maps");

/* one scratch record per CPU; user space sets max_entries to the number of CPUs */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mtb_dd_scratch);
} scratch SEC(".maps");

/* copy mode: each kind's kernel stack, taken once (the way in is always the same):
 * 0 not yet, id + 1, or -1 when it could not be taken */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MTB_DD_KINDS);
	__type(key, __u32);
	__type(value, __s64);
} kstacks SEC(".maps");

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
	/* not for 0: an atomic add of 0 compiles to an atomic or, which needs Linux 5.12 */
	if (bytes)
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

static __always_inline void kstack_once(void *ctx, __u32 kind, struct mtb_dd_cpu *c)
{
	__s64 *k = bpf_map_lookup_elem(&kstacks, &kind);
	__s32 id;

	if (!k || *k || !kernel_stacks)
		return;
	id = kernel_stack(ctx, c);
	*k = id < 0 ? -1 : (__s64)id + 1;
}

/* The user registers and up to stack_bytes of the user stack from sp, into the ring
 * buffer. Page by page, so that the copy ends at the first page that cannot be read
 * (the end of a thread's stack) with what came before it. For the main thread, no
 * further than a little past start_stack: above it lie argv and the environment. */
#define KSTACK_ONCE (-2) /* copy_stack: the kind's kernel stack, taken once */
static __always_inline void copy_stack(struct pt_regs *regs, __u32 kind, __u64 bytes, __u32 weight,
				       __s32 kstack, struct mtb_dd_cpu *c)
{
	__u32 id = bpf_get_smp_processor_id(), n;
	struct mtb_dd_scratch *s = bpf_map_lookup_elem(&scratch, &id);
	struct task_struct *task = (void *)bpf_get_current_task();
	__s64 *k = bpf_map_lookup_elem(&kstacks, &kind);
	__u64 sp, top, want = stack_bytes, done = 0, chunk, avail, flags;

	if (!s)
		return;
	sp = PT_REGS_SP_CORE(regs);
	s->h.kind = kind;
	s->h.tid = (__u32)bpf_get_current_pid_tgid();
	s->h.ip = PT_REGS_IP_CORE(regs);
	s->h.sp = sp;
	s->h.bp = PT_REGS_FP_CORE(regs);
	s->h.bytes = bytes;
	s->h.weight = weight;
	s->h.kstack = kstack != KSTACK_ONCE ? kstack : k && *k > 0 ? (__s32)(*k - 1) : -1;
	top = BPF_CORE_READ(task, mm, start_stack);
	if (top > sp && top - sp + 256 < want)
		want = top - sp + 256;
	if (want > MTB_DD_COPY_MAX)
		want = MTB_DD_COPY_MAX;
	for (int i = 0; i <= MTB_DD_COPY_MAX / MTB_DD_CHUNK; i++) {
		if (done >= want)
			break;
		chunk = MTB_DD_CHUNK - ((sp + done) & (MTB_DD_CHUNK - 1));
		if (chunk > want - done)
			chunk = want - done;
		barrier_var(chunk);
		if (chunk == 0 || chunk > MTB_DD_CHUNK)
			break;
		n = done & (MTB_DD_COPY_MAX - 1);
		barrier_var(n);
		if (n >= MTB_DD_COPY_MAX)
			break;
		if (bpf_probe_read_user(&s->stack[n], chunk, (void *)(sp + done)))
			break;
		done += chunk;
	}
	if (!done)
		c->copy_fail++;
	if (done > MTB_DD_COPY_MAX)
		done = MTB_DD_COPY_MAX;
	barrier_var(done);
	if (done > MTB_DD_COPY_MAX)
		return;
	s->h.len = (__u32)done;
	/* wake the reader only once the ring is a quarter full: it also looks every 50 ms */
	avail = bpf_ringbuf_query(&ring, BPF_RB_AVAIL_DATA);
	flags = avail > MTB_DD_RING_BYTES / 4 ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
	if (bpf_ringbuf_output(&ring, s, sizeof(s->h) + done, flags))
		c->ring_full++;
}

/* One page fault of the target: kind MTB_DD_FAULT (user mode) or MTB_DD_KFAULT (the
 * kernel touching user memory: read() into a buffer...), uregs the user registers. A
 * kernel-mode fault takes its own kernel stack (the way in varies: read, write,
 * execve...); a user-mode one the kind's, taken once. */
static __always_inline void on_fault(void *ctx, unsigned long address, struct pt_regs *uregs,
				     __u32 kind, struct mtb_dd_cpu *c)
{
	struct mtb_dd_key key = {.kind = kind};
	__u64 page, one = 1, *n;

	if (kind == MTB_DD_KFAULT)
		c->kfaults++;
	else
		c->faults++;
	if (c->countdown == 0)
		c->countdown = interval();
	if (--c->countdown)
		return;
	c->countdown = interval();
	c->samples++;
	if (copy_stacks) {
		__s64 w = copy_weight(c, MTB_DD_FAULTS);

		if (w > 0 && kind == MTB_DD_KFAULT) {
			copy_stack(uregs, kind, 0, (__u32)w, kernel_stack(ctx, c), c);
		} else if (w > 0) {
			kstack_once(ctx, kind, c);
			copy_stack(uregs, kind, 0, (__u32)w, KSTACK_ONCE, c);
		} else if (w < 0) {
			c->over_budget_faults++;
		}
	} else {
		user_stack(ctx, uregs, &key, c);
		add(ctx, &key, 0, -1, c);
	}
	page = address >> page_shift;
	n = bpf_map_lookup_elem(&fault_pages, &page);
	if (n)
		__sync_fetch_and_add(n, 1);
	else if (bpf_map_update_elem(&fault_pages, &page, &one, BPF_NOEXIST))
		c->full++;
}

SEC("raw_tp/page_fault_user")
int BPF_PROG(dd_fault, unsigned long address, struct pt_regs *regs, unsigned long error_code)
{
	if ((mt_pid_tgid() >> 32) != target_tgid)
		return 0;

	struct mtb_dd_cpu *c = cpu();

	if (c)
		on_fault(ctx, address, regs, MTB_DD_FAULT, c);
	return 0;
}

/* Faults in kernel mode on user addresses (below user_top): the kernel reading or
 * writing the process's memory for it. perf's page-faults counts them with the
 * user-mode ones; faults on kernel addresses are not the process's. */
SEC("raw_tp/page_fault_kernel")
int BPF_PROG(dd_kfault, unsigned long address, struct pt_regs *regs, unsigned long error_code)
{
	if ((mt_pid_tgid() >> 32) != target_tgid || address >= user_top)
		return 0;

	struct task_struct *task = bpf_get_current_task_btf();
	struct mtb_dd_cpu *c;

	/* with page faults disabled (copy_from_user_nofault: this sampler's own reads of
	 * the user stack) the fault is not handled, and perf does not count it either */
	if (task->pagefault_disabled)
		return 0;
	c = cpu();

	if (c)
		on_fault(ctx, address, (struct pt_regs *)bpf_task_pt_regs(task), MTB_DD_KFAULT, c);
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
	if (copy_stacks) {
		/* the stack is copied at exit: the user registers and stack are the same
		 * then, and the call's outcome is known */
		kstack_once(ctx, call.key.kind, c);
		if (bpf_map_update_elem(&calls, &pid_tgid, &call, BPF_ANY))
			c->full++;
		return 0;
	}
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
	if (copy_stacks) {
		__s64 w = copy_weight(c, MTB_DD_CALLS);

		if (w > 0) {
			copy_stack(regs, key.kind, bytes, (__u32)w, KSTACK_ONCE, c);
		} else if (w < 0) {
			c->over_budget++;
			c->over_budget_bytes += bytes;
		}
	} else
		add(NULL, &key, bytes, kstack, c);
	return 0;
}
