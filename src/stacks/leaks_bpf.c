/* Loads bpf/leaks.bpf.c for one process: the mmap tracepoints, and uprobes on the libc
 * the process maps (found in /proc/PID/maps, opened through /proc/PID/map_files, so that a
 * process in a container, or one whose libc was deleted since, is probed in its file). */
#include "leaks_trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/leaks.h"
#include "bpf/leaks.skel.h"
#include "bpf_log.h"
#include "kbtf.h"
#include "leaks_probe.h"
#include "leaks_table.h"
#include "pidns.h"
#include "util.h"

_Static_assert(MTB_LK_DEPTH == STACKS_DEPTH, "stack depths differ");
_Static_assert((int)MTB_LK_MMAP == (int)LEAK_MMAP, "leak kinds differ");

#define NPROBES 11

struct leaks {
	struct leaks_bpf *skel;
	struct bpf_link *link[NPROBES];
	int32_t pid;
	char libc[512];
};

/* The path of the libc pid maps ("" when it maps none: a static program), and in file
 * the way to the very file it maps: /proc/PID/map_files/START-END of its first mapping,
 * which reaches it also in another mount namespace (a container) and after the file
 * was deleted (a libc upgraded while the process runs) */
static int find_libc(int32_t pid, char *path, size_t size, char *file, size_t fsize)
{
	char maps[64], line[4096];
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	if (!(f = fopen(maps, "re")))
		return -errno;
	path[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/'), *base;

		if (!p)
			continue;
		p[strcspn(p, "\n")] = '\0';
		base = strrchr(p, '/') + 1;
		if (!strncmp(base, "libc.so", 7) || !strncmp(base, "libc-2.", 7)) {
			snprintf(path, size, "%s", p);
			snprintf(file, fsize, "/proc/%d/map_files/%.*s", pid,
				 (int)strcspn(line, " "), line);
			break;
		}
	}
	fclose(f);
	return 0;
}

/* The uprobes: each function's entry, and the return of those that allocate */
static int attach_uprobes(struct leaks *lk, const char *file)
{
	struct leaks_bpf *sk = lk->skel;
	const struct {
		const char *func;
		struct bpf_program *prog;
		bool ret;
	} probes[NPROBES] = {
		{"malloc", sk->progs.malloc_enter, false},
		{"calloc", sk->progs.calloc_enter, false},
		{"realloc", sk->progs.realloc_enter, false},
		{"posix_memalign", sk->progs.memalign_enter, false},
		{"aligned_alloc", sk->progs.aligned_enter, false},
		{"free", sk->progs.free_enter, false},
		{"malloc", sk->progs.alloc_leave, true},
		{"calloc", sk->progs.alloc_leave, true},
		{"realloc", sk->progs.alloc_leave, true},
		{"posix_memalign", sk->progs.alloc_leave, true},
		{"aligned_alloc", sk->progs.alloc_leave, true},
	};

	/* the returns first: an entry seen without its return would hold a thread's
	 * call open */
	for (int i = NPROBES - 1; i >= 0; i--) {
		LIBBPF_OPTS(bpf_uprobe_opts, o, .func_name = probes[i].func,
			    .retprobe = probes[i].ret);
		size_t at = probes[i].ret ? 0 : leaks_probe_offset(file, probes[i].func);

		lk->link[i] =
			bpf_program__attach_uprobe_opts(probes[i].prog, lk->pid, file, at, &o);
		if (!lk->link[i]) {
			int err = -errno;

			for (int j = i + 1; j < NPROBES; j++) {
				bpf_link__destroy(lk->link[j]);
				lk->link[j] = NULL;
			}
			return err ? err : -EINVAL;
		}
	}
	return 0;
}

/* The syscall tracepoints are attached by their ids in tracefs, which a machine without
 * systemd (a minimal VM, a container) may not have mounted: then it is mounted for the
 * attaching and unmounted after (the links hold the tracepoints, not the files). Returns
 * whether it mounted it. */
#define TRACEFS "/sys/kernel/tracing"
static bool tracefs_mount(void)
{
	if (!access(TRACEFS "/events", F_OK) || !access("/sys/kernel/debug/tracing/events", F_OK))
		return false;
	return mount("tracefs", TRACEFS, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0;
}

static int attach_syscalls(struct leaks_bpf *skel)
{
	bool mounted = tracefs_mount();
	int err = leaks_bpf__attach(skel);

	if (mounted)
		umount(TRACEFS);
	return err;
}

struct leaks *leaks_open(int32_t pid, char *why, size_t len, char *note, size_t nlen)
{
	struct leaks *lk = xcalloc(1, sizeof(*lk));
	const char *what = "loading the allocation tracer";
	char file[600];
	int err;

	note[0] = '\0';
	lk->pid = pid;
	bpf_log_loading(false); /* its reasons are told in one line */
	if (geteuid()) {
		snprintf(why, len, "--leaks needs root (BPF tracepoints and uprobes)");
		free(lk);
		return NULL;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len, "kernel without BTF (/sys/kernel/btf/vmlinux)");
		free(lk);
		return NULL;
	}
	if ((err = find_libc(pid, lk->libc, sizeof(lk->libc), file, sizeof(file)))) {
		snprintf(why, len, "cannot read /proc/%d/maps: %s", pid, strerror(-err));
		free(lk);
		return NULL;
	}
	if (!(lk->skel = leaks_bpf__open())) {
		err = -errno;
		goto fail;
	}
	lk->skel->rodata->target_tgid = (__u32)pid;
	lk->skel->rodata->sample_bytes = LEAKS_SAMPLE_BYTES;
	PIDNS_CONFIGURE(lk->skel);
	if ((err = leaks_bpf__load(lk->skel))) {
		if (!kbtf_kernel_has_helper("BPF_FUNC_task_pt_regs"))
			what = "--leaks needs Linux 5.15 (bpf_task_pt_regs); loading";
		goto fail;
	}
	/* the uprobes first (finding the functions in libc takes a while), so that the
	 * window starts with all attached */
	if (!lk->libc[0]) {
		snprintf(note, nlen, "no libc mapped (a static program)");
	} else if ((err = attach_uprobes(lk, file))) {
		snprintf(note, nlen, "uprobes unavailable: %s", strerror(-err));
		lk->libc[0] = '\0';
	}
	what = "attaching to mmap and munmap";
	if ((err = attach_syscalls(lk->skel)))
		goto fail;
	return lk;
fail:
	snprintf(why, len, "%s: %s", what,
		 err == -EPERM ? "permission denied (BPF locked down?)" : strerror(-err));
	leaks_close(lk);
	return NULL;
}

const char *leaks_libc(const struct leaks *lk)
{
	return lk->libc;
}

void leaks_stop(struct leaks *lk)
{
	__atomic_store_n(&lk->skel->bss->stopped, 1, __ATOMIC_SEQ_CST);
}

size_t leaks_read(struct leaks *lk, double from, double to, struct leak_stack **out,
		  struct leaks_totals *tot)
{
	struct leak_window w = {.from_ns = (uint64_t)(from * 1e9), .to_ns = (uint64_t)(to * 1e9)};
	int ncpus = libbpf_num_possible_cpus();
	struct mtb_lk_cpu *pc = xcalloc(ncpus > 0 ? (size_t)ncpus : 1, sizeof(*pc));
	__u32 zero = 0;

	memset(tot, 0, sizeof(*tot));
	if (!bpf_map_lookup_elem(bpf_map__fd(lk->skel->maps.cpu_stats), &zero, pc)) {
		for (int i = 0; i < ncpus; i++) {
			tot->allocs += pc[i].allocs;
			tot->alloc_bytes += pc[i].alloc_bytes;
			tot->sampled += pc[i].sampled;
			tot->frees += pc[i].frees;
			tot->freed += pc[i].freed;
			tot->lost_stacks += pc[i].lost_stacks;
			tot->full += pc[i].full;
		}
	}
	free(pc);
	return leaks_table_read(bpf_map__fd(lk->skel->maps.allocs),
				bpf_map__fd(lk->skel->maps.stack_map), LEAKS_SAMPLE_BYTES, w, out);
}

void leaks_close(struct leaks *lk)
{
	if (!lk)
		return;
	for (int i = 0; i < NPROBES; i++)
		bpf_link__destroy(lk->link[i]);
	leaks_bpf__destroy(lk->skel);
	free(lk);
}
