/* What the running kernel offers BPF programs, read from its BTF (/sys/kernel/btf/vmlinux)
 * before loading: whether a raw tracepoint exists and what it passes, whether an iterator
 * exists. Each concern's configure asks it (bpf_concern.h), so that what a kernel lacks
 * leaves only that concern off, with its reason, instead of failing the whole load. */
#ifndef MEMTOP_KBTF_H
#define MEMTOP_KBTF_H

#include <stdbool.h>

struct btf;

/* The kernel's BTF, parsed (about 6 MB where the kernel lets /sys/kernel/btf/vmlinux be
 * mapped, 6.16 on; 12 MB at its peak elsewhere, read and copied): free it with kbtf_free
 * before loading. NULL where the kernel has none. kbtf.c also gives libbpf's loader
 * its btf__load_vmlinux_btf, which maps the file likewise. */
struct btf *kbtf_load(void);
void kbtf_free(struct btf *b);

/* b, a kbtf_load, given to this thread's next load that parses the kernel's BTF (libbpf's
 * loader calls btf__load_vmlinux_btf, kbtf.c's), which then frees it, so that a load
 * after the concerns' checks parses it once, not twice; kbtf_lend_end, after the load,
 * frees it where nothing took it */
void kbtf_lend(struct btf *b);
void kbtf_lend_end(void);

/* The arguments the raw tracepoint tp passes (its TP_PROTO's), or -1 where the kernel
 * has no such tracepoint */
int kbtf_tp_nargs(const struct btf *b, const char *tp);

/* Argument i (from 0) of the raw tracepoint tp is a pointer to struct name */
bool kbtf_tp_arg_is(const struct btf *b, const char *tp, int i, const char *name);

/* The kernel has a BPF iterator of this target ("task", "cgroup") */
bool kbtf_has_iter(const struct btf *b, const char *target);

/* The kernel has a struct of this name */
bool kbtf_has_struct(const struct btf *b, const char *name);

/* struct name has a member of that name */
bool kbtf_has_member(const struct btf *b, const char *name, const char *member);

/* The kernel has an enumerator of this name (BPF_FUNC_task_pt_regs: a helper) */
bool kbtf_has_enumerator(const struct btf *b, const char *name);

/* The running kernel has the BPF helper of this enumerator (BPF_FUNC_task_pt_regs); true
 * where its BTF cannot be read. Parses the BTF: for telling why a load failed. */
bool kbtf_kernel_has_helper(const char *enumerator);

/* The kernel has a global function of this name */
bool kbtf_has_func(const struct btf *b, const char *name);

#endif
