/* What a BPF object's descriptor is (bpf_objinfo.h) */
#include "bpf_objinfo.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

/* What kind of BPF object fd is: 'm' a map, 'p' a program, 'l' a link, 0 none */
char objinfo_obj_kind(int fd)
{
	char path[64], target[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	if (!strcmp(target, "anon_inode:bpf-map"))
		return 'm';
	if (!strcmp(target, "anon_inode:bpf-prog"))
		return 'p';
	if (!strcmp(target, "anon_inode:bpf_link") || !strcmp(target, "anon_inode:bpf-link"))
		return 'l';
	return 0;
}

/* Whether fd is a map of that type, key and value sizes and entries (entries 0: any);
 * else what it is in what (a few words). Its id in *id. */
bool objinfo_map_is(int fd, uint32_t type, uint32_t key, uint32_t value, uint32_t entries,
		    uint32_t *id, char *what, size_t len)
{
	struct bpf_map_info info;
	uint32_t n = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (objinfo_obj_kind(fd) != 'm' || bpf_obj_get_info_by_fd(fd, &info, &n)) {
		snprintf(what, len, "not a map");
		return false;
	}
	if (id)
		*id = info.id;
	if (info.type == type && info.key_size == key && info.value_size == value &&
	    (!entries || info.max_entries == entries))
		return true;
	snprintf(what, len, "map type %u, key %u, value %u, %u entries", info.type, info.key_size,
		 info.value_size, info.max_entries);
	return false;
}

/* Whether fd is a program named name (as the kernel keeps it, cut short), or a link of
 * one; else what it is in what */
bool objinfo_prog_is(int fd, char kind, const char *name, char *what, size_t len)
{
	struct bpf_prog_info info;
	uint32_t n = sizeof(info);
	int pfd = fd;

	memset(&info, 0, sizeof(info));
	if (objinfo_obj_kind(fd) != kind) {
		snprintf(what, len, "not a %s", kind == 'l' ? "link" : "program");
		return false;
	}
	if (kind == 'l') {
		struct bpf_link_info link;
		uint32_t ln = sizeof(link);

		memset(&link, 0, sizeof(link));
		pfd = bpf_obj_get_info_by_fd(fd, &link, &ln) ? -1
							     : bpf_prog_get_fd_by_id(link.prog_id);
	}
	bool ok = pfd >= 0 && !bpf_obj_get_info_by_fd(pfd, &info, &n) &&
		  !strncmp(info.name, name, sizeof(info.name) - 1);
	if (pfd >= 0 && pfd != fd)
		close(pfd);
	if (!ok)
		snprintf(what, len, "a %s of program %.16s", kind == 'l' ? "link" : "program",
			 info.name);
	return ok;
}
