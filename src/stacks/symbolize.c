#include "symbolize.h"
#include "unwind.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "kallsyms.h"
#include "proc_dwfl.h"
#include "util.h"

/* C++ (and Rust's legacy) symbol names demangled with the C++ runtime's own demangler,
 * looked up at run time: memtop does not link libstdc++, and without it names stay as
 * they are. */
typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
static demangle_fn cxa_demangle;

static void find_demangler(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (h)
		cxa_demangle = (demangle_fn)dlsym(h, "__cxa_demangle");
}

static void put_name(const char *name, char *out, size_t size)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	char *plain = NULL;
	int status = -1;

	if (!strncmp(name, "_Z", 2)) {
		pthread_once(&once, find_demangler);
		if (cxa_demangle)
			plain = cxa_demangle(name, NULL, NULL, &status);
	}
	const char *use = plain && !status ? plain : name;
	/* a symbol version (memcpy@@GLIBC_2.14, __libc_start_main@GLIBC_2.2.5) is not
	 * part of the function's name */
	const char *at = plain && !status ? NULL : strchr(use, '@');

	snprintf(out, size, "%.*s", at ? (int)(at - use) : (int)strlen(use), use);
	free(plain);
}

struct cache_entry {
	uint64_t key; /* ip << 1 | ret_addr; 0 = free */
	struct sym_frame f;
};

struct cache {
	struct cache_entry *e;
	size_t cap; /* power of two */
	size_t n;
};

struct symbolizer {
	int32_t pid;
	Dwfl *dwfl;
	struct cache user;
	struct cache kernel;
	struct cache frames; /* function start -> prologue end (offset), or not found */
};

static uint64_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static struct sym_frame *cache_find(struct cache *c, uint64_t key)
{
	if (!c->cap)
		return NULL;
	for (size_t i = hash64(key) & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
		if (c->e[i].key == key)
			return &c->e[i].f;
		if (!c->e[i].key)
			return NULL;
	}
}

static void cache_put(struct cache *c, uint64_t key, const struct sym_frame *f)
{
	if (!key)
		return;
	if ((c->n + 1) * 2 > c->cap) {
		struct cache old = *c;

		c->cap = old.cap ? old.cap * 2 : 256;
		c->e = xcalloc(c->cap, sizeof(*c->e));
		c->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.e[i].key)
				cache_put(c, old.e[i].key, &old.e[i].f);
		free(old.e);
	}
	size_t i = hash64(key) & (c->cap - 1);

	while (c->e[i].key && c->e[i].key != key)
		i = (i + 1) & (c->cap - 1);
	if (!c->e[i].key)
		c->n++;
	c->e[i].key = key;
	c->e[i].f = *f;
}

static void cache_clear(struct cache *c)
{
	for (size_t i = 0; i < c->cap; i++)
		if (c->e[i].key)
			free(c->e[i].f.srcl);
	free(c->e);
	memset(c, 0, sizeof(*c));
}

static Dwfl *report(int32_t pid)
{
	Dwfl *d = proc_dwfl_begin();
	int err;

	if (!d) {
		proc_dwfl_use(pid);
		errno = ENOMEM;
		return NULL;
	}
	err = proc_dwfl_report(d, pid);
	if (err) {
		dwfl_end(d);
		errno = err;
		return NULL;
	}
	return d;
}

struct symbolizer *symbolizer_new(int32_t pid)
{
	Dwfl *d = report(pid);

	if (!d)
		return NULL;
	struct symbolizer *s = xcalloc(1, sizeof(*s));

	s->pid = pid;
	s->dwfl = d;
	return s;
}

int symbolizer_refresh(struct symbolizer *s)
{
	Dwfl *d = report(s->pid);

	if (!d)
		return -1;
	dwfl_end(s->dwfl);
	s->dwfl = d;
	cache_clear(&s->user);
	cache_clear(&s->frames);
	return 0;
}

static const char *module_name(Dwfl_Module *m)
{
	const char *name = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

	return name ? name : "";
}

void symbolize_in(Dwfl *d, uint64_t ip, bool ret_addr, struct sym_frame *out)
{
	uint64_t look = ret_addr && ip ? ip - 1 : ip;
	Dwfl_Module *m = dwfl_addrmodule(d, look);
	const unsigned char *id;
	GElf_Addr id_at, bias;
	int n;

	memset(out, 0, sizeof(*out));
	out->ip = ip;
	if (!m)
		return;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(m, look, &off, &sym, NULL, NULL, NULL);

	snprintf(out->module, sizeof(out->module), "%s", module_name(m));
	if (name && *name) {
		put_name(name, out->symbol, sizeof(out->symbol));
		out->offset = off + (look != ip);
		out->found = true;
	}
	if (dwfl_module_getelf(m, &bias)) {
		out->in_module = true;
		out->mod_offset = ip - bias;
	}
	struct srcline sl;

	srcline_find(m, look, &sl);
	if (sl.src[0] || sl.ninl) {
		out->srcl = xmalloc(sizeof(*out->srcl));
		*out->srcl = sl;
	}
	n = dwfl_module_build_id(m, &id, &id_at);
	for (int i = 0; i < n && 2 * i + 2 < SYM_BUILD_ID_LEN; i++)
		snprintf(out->build_id + 2 * i, 3, "%02x", id[i]);
}

void symbolize_user(struct symbolizer *s, uint64_t ip, bool ret_addr, struct sym_frame *out)
{
	uint64_t key = ip << 1 | ret_addr;
	struct sym_frame *hit = cache_find(&s->user, key);

	if (hit) {
		*out = *hit;
		return;
	}
	proc_dwfl_use(s->pid);
	symbolize_in(s->dwfl, ip, ret_addr, out);
	cache_put(&s->user, key, out);
}

bool symbolizer_in_function(struct symbolizer *s, uint64_t ip)
{
	GElf_Off off;
	GElf_Sym sym;

	proc_dwfl_use(s->pid);
	Dwfl_Module *m = dwfl_addrmodule(s->dwfl, ip);

	if (!m)
		return false;
	const char *name = dwfl_module_addrinfo(m, ip, &off, &sym, NULL, NULL, NULL);

	return name && GELF_ST_TYPE(sym.st_info) == STT_FUNC;
}

int symbolizer_frames_shown(struct symbolizer *s, const uint64_t *ips, int n)
{
	for (int k = 1; s && k < n; k++)
		if (!symbolizer_in_function(s, ips[k] - 1))
			return k;
	return n;
}

int symbolizer_frame_set_up(struct symbolizer *s, uint64_t ip)
{
#if defined(__x86_64__)
	GElf_Off off;
	GElf_Sym sym;
	Dwarf_Addr bias, addr;

	proc_dwfl_use(s->pid);
	Dwfl_Module *m = dwfl_addrmodule(s->dwfl, ip);
	const char *name = m ? dwfl_module_addrinfo(m, ip, &off, &sym, NULL, NULL, NULL) : NULL;

	if (!name || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
		return -1;
	uint64_t start = ip - off;
	struct sym_frame *hit = cache_find(&s->frames, start << 1);

	if (!hit) {
		struct sym_frame f = {.ip = start};
		Elf_Scn *scn;
		Elf_Data *data;

		addr = start;
		scn = dwfl_module_address_section(m, &addr, &bias);
		data = scn ? elf_getdata(scn, NULL) : NULL;
		if (data && data->d_buf && addr < data->d_size) {
			f.found = true;
			f.offset = unwind_prologue_end((const unsigned char *)data->d_buf + addr,
						       data->d_size - addr);
		}
		cache_put(&s->frames, start << 1, &f);
		hit = cache_find(&s->frames, start << 1);
	}
	if (!hit->found)
		return -1;
	return hit->offset && ip >= start + hit->offset;
#else
	(void)s;
	(void)ip;
	return -1;
#endif
}

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

struct kernel_want {
	struct sym_frame *want;
	uint64_t *best;
	size_t n;
};

/* For each address wanted, the text symbol at or below it. */
static int resolve_one(void *arg, uint64_t addr, char type, const char *name, const char *module)
{
	struct kernel_want *k = arg;

	if (!addr || !is_text(type))
		return 0;
	for (size_t i = 0; i < k->n; i++) {
		struct sym_frame *w = &k->want[i];

		if (addr > w->ip || addr < k->best[i])
			continue;
		k->best[i] = addr;
		snprintf(w->symbol, sizeof(w->symbol), "%s", name);
		snprintf(w->module, sizeof(w->module), "[%s]", module[0] ? module : "kernel");
		w->offset = w->ip - addr;
		w->found = true;
	}
	return 0;
}

/* One pass over /proc/kallsyms: for each address the text symbol at or below it. */
static void kallsyms_resolve(struct sym_frame *want, size_t n)
{
	struct kernel_want k = {.want = want, .best = xcalloc(n, sizeof(uint64_t)), .n = n};

	kallsyms_scan(resolve_one, &k);
	for (size_t i = 0; i < n; i++)
		if (!want[i].found)
			snprintf(want[i].module, sizeof(want[i].module), "[kernel]");
	free(k.best);
}

void symbolize_kernel(struct symbolizer *s, const uint64_t *ips, size_t n, struct sym_frame *out)
{
	struct sym_frame *miss = xcalloc(n ? n : 1, sizeof(*miss));
	size_t nmiss = 0;

	for (size_t i = 0; i < n; i++) {
		struct sym_frame *hit = cache_find(&s->kernel, ips[i] << 1 | 1);

		if (hit) {
			out[i] = *hit;
			continue;
		}
		memset(&miss[nmiss], 0, sizeof(miss[nmiss]));
		miss[nmiss].ip = ips[i];
		miss[nmiss++].kernel = true;
	}
	if (nmiss) {
		kallsyms_resolve(miss, nmiss);
		for (size_t i = 0; i < nmiss; i++)
			cache_put(&s->kernel, miss[i].ip << 1 | 1, &miss[i]);
		for (size_t i = 0; i < n; i++)
			out[i] = *cache_find(&s->kernel, ips[i] << 1 | 1);
	}
	free(miss);
}

void symbolizer_free(struct symbolizer *s)
{
	if (!s)
		return;
	dwfl_end(s->dwfl);
	cache_clear(&s->user);
	cache_clear(&s->kernel);
	cache_clear(&s->frames);
	free(s);
}
