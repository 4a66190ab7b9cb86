/* Names for memory cgroups from the engines' own files: see cgroup_names.h. */
#include "cgroup_names.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_json.h"
#include "util.h"

#define ID_LEN	   64	     /* a container id: 64 hex digits */
#define CONFIG_MAX (1 << 20) /* Docker's config.v2.json read at most (a few KiB) */
#define STORE_MAX  (8 << 20) /* Podman's containers.json (about 1 KiB a container) */
#define DIR_MAX	   4096	     /* entries of a log directory looked at */
#define HOMES_MAX  256	     /* homes looked in for rootless Podman stores */

/* The file at path, NUL-terminated, if a regular file (not a link to one) of max bytes at
 * most, owned by owner where owner is not -1; NULL else. The caller frees it. */
static char *slurp_owned(const char *path, size_t max, size_t *len, uid_t owner)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
	char *buf = NULL;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size <= max &&
	    (owner == (uid_t)-1 || st.st_uid == owner)) {
		size_t n = 0, cap = (size_t)st.st_size + 1;
		buf = xmalloc(cap + 1);
		for (ssize_t k; n < cap && (k = read(fd, buf + n, cap - n)) > 0;)
			n += (size_t)k;
		if (n > max) { /* it grew past the bound since */
			free(buf);
			buf = NULL;
		} else {
			buf[n] = '\0';
			*len = n;
		}
	}
	close(fd);
	return buf;
}

static char *slurp(const char *path, size_t max, size_t *len)
{
	return slurp_owned(path, max, len, (uid_t)-1);
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* The container id in the path component comp (n bytes): "PREFIX<64 hex>" with an
 * optional ".scope", or the 64 digits alone; into id (ID_LEN + 1 bytes) */
static bool id_in(const char *comp, size_t n, const char *prefix, char *id)
{
	size_t k = strlen(prefix);

	if (n >= 6 && !memcmp(comp + n - 6, ".scope", 6))
		n -= 6;
	if (n != k + ID_LEN || memcmp(comp, prefix, k))
		return false;
	for (size_t i = 0; i < ID_LEN; i++)
		if (!is_hex(comp[k + i]))
			return false;
	memcpy(id, comp + k, ID_LEN);
	id[ID_LEN] = '\0';
	return true;
}

/* The engines' prefixes of a container's cgroup: systemd's scopes and cgroupfs's names */
static bool container_id(const char *comp, size_t n, char *id)
{
	static const char *const prefixes[] = {"docker-", "libpod-", "cri-containerd-", "crio-",
					       ""};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
		if (id_in(comp, n, prefixes[i], id))
			return true;
	return false;
}

static void put(char *name, size_t size, const char *text)
{
	snprintf(name, size, "%s", text);
}

static bool docker_name(const char *root, const char *id, char *name, size_t size)
{
	char path[PATH_MAX], got[CG_NAME_MAX];
	size_t n;

	snprintf(path, sizeof(path), "%s/var/lib/docker/containers/%s/config.v2.json", root, id);
	char *text = slurp(path, CONFIG_MAX, &n);
	bool ok = text && json_top_string(text, n, "Name", got, sizeof(got)) && got[0];
	free(text);
	if (ok)
		put(name, size, got + (got[0] == '/' && got[1]));
	return ok;
}

/* The first string of the array at *p into out ("" where none), *p past the array */
static bool first_string(const char **p, const char *end, char *out, size_t size)
{
	out[0] = '\0';
	(*p)++;
	for (bool first = true;; first = false) {
		if (!json_ws(p, end))
			return false;
		if (**p == ']') {
			(*p)++;
			return true;
		}
		if (!first) {
			if (**p != ',')
				return false;
			(*p)++;
			json_ws(p, end);
		}
		if (first && **p == '"' ? !json_str(p, end, out, size) : !json_skip(p, end))
			return false;
	}
}

/* In a Podman store's text, an array of containers: the first name of the container id */
static bool store_name(const char *text, size_t n, const char *id, char *name, size_t size)
{
	const char *p = text, *end = text + n;
	char key[16], got[CG_NAME_MAX], cid[ID_LEN + 2];

	if (!json_ws(&p, end) || *p++ != '[')
		return false;
	for (bool first = true;; first = false) {
		if (!json_ws(&p, end) || *p == ']')
			return false;
		if (!first) {
			if (*p++ != ',' || !json_ws(&p, end))
				return false;
		}
		if (*p != '{') {
			if (!json_skip(&p, end))
				return false;
			continue;
		}
		p++;
		got[0] = cid[0] = '\0';
		for (bool k1 = true; json_key(&p, end, key, sizeof(key), k1); k1 = false) {
			bool ok;
			if (!strcmp(key, "id") && *p == '"')
				ok = json_str(&p, end, cid, sizeof(cid));
			else if (!strcmp(key, "names") && *p == '[')
				ok = first_string(&p, end, got, sizeof(got));
			else
				ok = json_skip(&p, end);
			if (!ok)
				return false;
		}
		if (p[-1] != '}') /* json_key stopped on damage, not at the closing brace */
			return false;
		if (!strcmp(cid, id) && got[0]) {
			put(name, size, got);
			return true;
		}
	}
}

static bool podman_store(const char *path, uid_t owner, const char *id, char *name, size_t size)
{
	size_t n;
	char *text = slurp_owned(path, STORE_MAX, &n, owner);
	bool ok = text && store_name(text, n, id, name, size);

	free(text);
	return ok;
}

#define STORE "/.local/share/containers/storage/overlay-containers/containers.json"

/* Podman's system store; for a container of user uid's systemd (-1: none named), that
 * user's rootless store, owned by the user: root's, or the one in the home under /home
 * that the user owns (stated, not read, up to HOMES_MAX of them), so that what a user
 * makes costs one store's reading at most */
static bool podman_name(const char *root, long uid, const char *id, char *name, size_t size)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path),
		 "%s/var/lib/containers/storage/overlay-containers/"
		 "containers.json",
		 root);
	if (podman_store(path, (uid_t)-1, id, name, size))
		return true;
	if (uid < 0)
		return false;
	if (uid == 0) {
		snprintf(path, sizeof(path), "%s/root" STORE, root);
		return podman_store(path, 0, id, name, size);
	}
	snprintf(path, sizeof(path), "%s/home", root);
	DIR *d = opendir(path);
	bool ok = false;
	int seen = 0;
	for (struct dirent *e; d && seen++ < HOMES_MAX && (e = readdir(d));) {
		snprintf(path, sizeof(path), "%s/home/%s", root, e->d_name);
		if (e->d_name[0] == '.' || lstat(path, &st) || !S_ISDIR(st.st_mode) ||
		    st.st_uid != (uid_t)uid)
			continue;
		snprintf(path, sizeof(path), "%s/home/%s" STORE, root, e->d_name);
		ok = podman_store(path, (uid_t)uid, id, name, size);
		break;
	}
	if (d)
		closedir(d);
	return ok;
}

/* The uid of the user@UID.service component of a path, -1 where none */
static long user_of(const char *const *comp, const size_t *len, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *end;
		if (len[i] < 14 || memcmp(comp[i], "user@", 5) ||
		    memcmp(comp[i] + len[i] - 8, ".service", 8))
			continue;
		long uid = strtol(comp[i] + 5, &end, 10);
		if (end == comp[i] + len[i] - 8 && uid >= 0)
			return uid;
	}
	return -1;
}

/* Kubernetes: the pod's uid in a component of the kubelet's, "kubepods-...-pod<uid>.slice"
 * (systemd's driver, the uid's dashes as underscores) or "pod<uid>" (cgroupfs's), into
 * uid (37 bytes) with dashes */
static bool pod_uid(const char *comp, size_t n, char *uid)
{
	const char *at = NULL;

	if (n > 6 && !memcmp(comp + n - 6, ".slice", 6)) {
		n -= 6;
		for (size_t i = 0; i + 4 <= n; i++)
			if (!memcmp(comp + i, "-pod", 4))
				at = comp + i + 4;
	} else if (n > 3 && !memcmp(comp, "pod", 3)) {
		at = comp + 3;
	}
	if (!at || comp + n - at != 36)
		return false;
	for (int i = 0; i < 36; i++) {
		char c = at[i] == '_' ? '-' : at[i];
		if (!(is_hex(c) || (c == '-' && (i == 8 || i == 13 || i == 18 || i == 23))))
			return false;
		uid[i] = c;
	}
	uid[36] = '\0';
	return true;
}

/* The kubelet's logs: /var/log/pods/NAMESPACE_POD_UID, into dir */
static bool pod_dir(const char *root, const char *uid, char *dir, size_t size)
{
	char path[PATH_MAX];
	bool ok = false;
	int seen = 0;

	snprintf(path, sizeof(path), "%s/var/log/pods", root);
	DIR *d = opendir(path);
	for (struct dirent *e; d && !ok && seen++ < DIR_MAX && (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		const char *u = strchr(e->d_name, '_');
		u = u ? strchr(u + 1, '_') : NULL;
		if (u && u > e->d_name && n < size && !strcmp(u + 1, uid)) {
			memcpy(dir, e->d_name, n + 1);
			ok = true;
		}
	}
	if (d)
		closedir(d);
	return ok;
}

/* The container's name in the pod whose log directory is pod: the kubelet's link
 * /var/log/containers/POD_NAMESPACE_CONTAINER-ID.log points at
 * /var/log/pods/NAMESPACE_POD_UID/CONTAINER/N.log */
static bool pod_container(const char *root, const char *pod, const char *id, char *out, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX], tail[ID_LEN + 8];
	bool ok = false;
	int seen = 0;

	snprintf(tail, sizeof(tail), "-%s.log", id);
	snprintf(path, sizeof(path), "%s/var/log/containers", root);
	DIR *d = opendir(path);
	for (struct dirent *e; d && !ok && seen++ < DIR_MAX && (e = readdir(d));) {
		size_t n = strlen(e->d_name), k = strlen(tail);
		if (n <= k || strcmp(e->d_name + n - k, tail))
			continue;
		snprintf(path, sizeof(path), "%s/var/log/containers/%s", root, e->d_name);
		ssize_t len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		/* .../NAMESPACE_POD_UID/CONTAINER/N.log */
		char *file = strrchr(target, '/');
		if (!file || file == target)
			continue;
		*file = '\0';
		char *cont = strrchr(target, '/');
		if (!cont || cont == target)
			continue;
		*cont++ = '\0';
		const char *dir = strrchr(target, '/');
		if (!dir || strcmp(dir + 1, pod) || !*cont)
			continue;
		snprintf(out, size, "%s", cont);
		ok = true;
	}
	if (d)
		closedir(d);
	return ok;
}

/* A Kubernetes pod's cgroup (comps[k] holds its uid) or one of its containers' (the last
 * of comps, after it): "namespace/pod", "namespace/pod/container" */
static bool kube_name(const char *root, const char *comp, size_t n, const char *last, size_t nlast,
		      char *name, size_t size)
{
	char uid[40], dir[NAME_MAX + 1], id[ID_LEN + 1], cont[NAME_MAX + 1];

	if (!pod_uid(comp, n, uid) || !pod_dir(root, uid, dir, sizeof(dir)))
		return false;
	/* NAMESPACE_POD_UID: neither a namespace nor a pod name holds '_' */
	char *pod = strchr(dir, '_');
	char *end = strchr(pod + 1, '_');
	*pod++ = '\0';
	*end = '\0';
	char ns_pod[NAME_MAX + 2];
	snprintf(ns_pod, sizeof(ns_pod), "%s/%s", dir, pod);
	*end = '_';
	pod[-1] = '_';
	if (last == comp)
		put(name, size, ns_pod);
	else if (container_id(last, nlast, id) && pod_container(root, dir, id, cont, sizeof(cont)))
		snprintf(name, size, "%s/%s", ns_pod, cont);
	else if (container_id(last, nlast, id))
		snprintf(name, size, "%s/%.12s", ns_pod, id);
	else
		return false;
	return true;
}

/* A unit of systemd's: its name ends in a unit type's suffix */
static bool unit_name(const char *comp, size_t n)
{
	static const char *const types[] = {".service", ".scope", ".slice",
					    ".socket",	".mount", ".swap"};
	for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++) {
		size_t k = strlen(types[i]);
		if (n > k && !memcmp(comp + n - k, types[i], k))
			return true;
	}
	return false;
}

size_t cg_path_parts(const char *path, const char **comp, size_t *len, size_t max)
{
	size_t n = 0;

	for (const char *p = path; *p && n < max;) {
		while (*p == '/')
			p++;
		size_t k = strcspn(p, "/");
		if (k) {
			comp[n] = p;
			len[n++] = k;
		}
		p += k;
	}
	return n;
}

int cg_name_resolve(const char *root, const char *path, char *name, size_t size)
{
	const char *comp[64];
	size_t len[64];
	char id[ID_LEN + 1];

	if (!root)
		root = "";
	name[0] = '\0';
	size_t n = cg_path_parts(path, comp, len, 64);
	if (!n)
		return CG_RT_NONE;
	const char *last = comp[n - 1];
	size_t nlast = len[n - 1];
	bool kube = false;
	for (size_t i = 0; i < n; i++)
		kube |= len[i] >= 8 && !memcmp(comp[i], "kubepods", 8);
	/* the pod is the last component or the one before it */
	for (size_t i = n >= 2 ? n - 2 : 0; kube && i < n; i++)
		if (kube_name(root, comp[i], len[i], last, nlast, name, size))
			return CG_RT_KUBERNETES;
	if (kube)
		return CG_RT_NONE;
	if (id_in(last, nlast, "docker-", id) ||
	    (n >= 2 && len[n - 2] == 6 && !memcmp(comp[n - 2], "docker", 6) &&
	     id_in(last, nlast, "", id))) {
		if (!docker_name(root, id, name, size))
			snprintf(name, size, "%.12s", id);
		return CG_RT_DOCKER;
	}
	if (id_in(last, nlast, "libpod-", id)) {
		if (!podman_name(root, user_of(comp, len, n), id, name, size))
			snprintf(name, size, "%.12s", id);
		return CG_RT_PODMAN;
	}
	if (unit_name(last, nlast)) {
		snprintf(name, size, "%.*s", (int)nlast, last);
		return CG_RT_SYSTEMD;
	}
	return CG_RT_NONE;
}
