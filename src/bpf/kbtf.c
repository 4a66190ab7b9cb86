#include "kbtf.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define VMLINUX "/sys/kernel/btf/vmlinux"

/* The kernel's BTF parsed from a mapping of VMLINUX (kernels from 6.16 let it be mapped:
 * its pages are the kernel's, not counted in memtop's resident size), so that parsing
 * it holds one copy (btf__new's, 5.5 MB on 6.18) and not two; NULL where it cannot be
 * mapped */
static struct btf *vmlinux_mapped(void)
{
	int fd = open(VMLINUX, O_RDONLY | O_CLOEXEC);
	struct stat st;
	struct btf *b = NULL;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		void *at = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (at != MAP_FAILED) {
			b = btf__new(at, (__u32)st.st_size);
			munmap(at, (size_t)st.st_size);
			b = libbpf_get_error(b) ? NULL : b;
		}
	}
	close(fd);
	return b;
}

/* The parse lent to this thread's next btf__load_vmlinux_btf (kbtf_lend) */
static __thread struct btf *lent;

/* libbpf's own, which its loader calls too (through its PLT: this definition, in the
 * program, comes first). Before 1.6, libbpf reads VMLINUX into a buffer and copies it
 * (two copies of 5.5 MB at once, 11 MB on top of what memtop holds when its programs
 * load); from 1.6 it maps the file itself, without a copy, and is used as it is. A parse
 * lent is given as it is: the caller, libbpf's loader, frees it. */
struct btf *btf__load_vmlinux_btf(void)
{
	struct btf *(*libbpfs)(void);
	struct btf *b = lent;

	lent = NULL;
	if (b)
		return b;
	if (libbpf_major_version() < 1 ||
	    (libbpf_major_version() == 1 && libbpf_minor_version() < 6))
		b = vmlinux_mapped();
	if (b)
		return b;
	*(void **)&libbpfs = dlsym(RTLD_NEXT, "btf__load_vmlinux_btf");
	if (!libbpfs) {
		errno = ENOENT;
		return NULL;
	}
	return libbpfs();
}

struct btf *kbtf_load(void)
{
	struct btf *b = btf__load_vmlinux_btf();

	return libbpf_get_error(b) ? NULL : b;
}

void kbtf_free(struct btf *b)
{
	btf__free(b);
}

void kbtf_lend(struct btf *b)
{
	btf__free(lent);
	lent = b;
}

void kbtf_lend_end(void)
{
	kbtf_lend(NULL);
}

/* The function prototype of tp's probes, void (*)(void *__data, args...); NULL if none */
static const struct btf_type *tp_proto(const struct btf *b, const char *tp)
{
	char name[128];
	const struct btf_type *t;
	int id;

	if (!b || (size_t)snprintf(name, sizeof(name), "btf_trace_%s", tp) >= sizeof(name))
		return NULL;
	id = btf__find_by_name_kind(b, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return NULL;
	t = btf__type_by_id(b, btf__type_by_id(b, id)->type);
	if (!t || !btf_is_ptr(t))
		return NULL;
	t = btf__type_by_id(b, t->type);
	return t && btf_is_func_proto(t) && btf_vlen(t) >= 1 ? t : NULL;
}

int kbtf_tp_nargs(const struct btf *b, const char *tp)
{
	const struct btf_type *t = tp_proto(b, tp);

	return t ? btf_vlen(t) - 1 : -1;
}

bool kbtf_tp_arg_is(const struct btf *b, const char *tp, int i, const char *name)
{
	const struct btf_type *t = tp_proto(b, tp);

	if (!t || i < 0 || i + 1 >= btf_vlen(t))
		return false;
	t = btf__type_by_id(b, btf_params(t)[i + 1].type);
	while (t && (btf_is_const(t) || btf_is_volatile(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(b, t->type);
	return t && btf_is_struct(t) && !strcmp(btf__name_by_offset(b, t->name_off), name);
}

bool kbtf_has_iter(const struct btf *b, const char *target)
{
	char name[64];

	snprintf(name, sizeof(name), "bpf_iter_%s", target);
	return kbtf_has_func(b, name);
}

bool kbtf_has_func(const struct btf *b, const char *name)
{
	return b && btf__find_by_name_kind(b, name, BTF_KIND_FUNC) >= 0;
}

bool kbtf_has_member(const struct btf *b, const char *name, const char *member)
{
	int id = b ? btf__find_by_name_kind(b, name, BTF_KIND_STRUCT) : -1;
	const struct btf_type *t = id < 0 ? NULL : btf__type_by_id(b, id);
	const struct btf_member *m = t ? btf_members(t) : NULL;

	for (int i = 0; t && i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(b, m->name_off), member))
			return true;
	return false;
}

bool kbtf_has_struct(const struct btf *b, const char *name)
{
	return b && btf__find_by_name_kind(b, name, BTF_KIND_STRUCT) >= 0;
}

bool kbtf_has_enumerator(const struct btf *b, const char *name)
{
	for (__u32 id = 1; b && id < btf__type_cnt(b); id++) {
		const struct btf_type *t = btf__type_by_id(b, id);
		const struct btf_enum *e = btf_is_enum(t) ? btf_enum(t) : NULL;

		for (int i = 0; e && i < btf_vlen(t); i++, e++)
			if (!strcmp(btf__name_by_offset(b, e->name_off), name))
				return true;
	}
	return false;
}

bool kbtf_kernel_has_helper(const char *enumerator)
{
	struct btf *b = kbtf_load();
	bool has = !b || kbtf_has_enumerator(b, enumerator);

	kbtf_free(b);
	return has;
}
