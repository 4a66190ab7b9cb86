/* Names for memory cgroups (cgroup_names.c): the container, pod or unit a cgroup holds,
 * from the engines' own files, read where readable, never from their APIs. Docker by
 * /var/lib/docker/containers/ID/config.v2.json ("Name"); Podman by its container store
 * (/var/lib/containers/storage/overlay-containers/containers.json, and the rootless stores
 * under /root and /home/USER); Kubernetes as namespace/pod/container from the kubelet's
 * cgroup names and /var/log/pods/NAMESPACE_POD_UID/CONTAINER (through the kubelet's links
 * /var/log/containers/POD_NAMESPACE_CONTAINER-ID.log); systemd units by their unit name.
 * The files are untrusted: each is read up to a bound, and a damaged one gives no name. */
#ifndef MEMTOP_CGROUP_NAMES_H
#define MEMTOP_CGROUP_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/* The name of the cgroup at hierarchy path, from the files under root ("": the machine's
 * own), into name (CG_NAME_MAX bytes are enough), raw; returns its runtime
 * (enum cg_runtime, snapshot.h), CG_RT_NONE with name "" where nothing names it. A
 * container whose engine's files give no name is named by its id's first 12 digits. */
int cg_name_resolve(const char *root, const char *path, char *name, size_t size);

struct cg_names;
/* A cache of names by cgroup id and path, for the files under root (NULL or "": the
 * machine's own) */
struct cg_names *cg_names_new(const char *root);
void cg_names_free(struct cg_names *n);
/* Names the cgroups of s: a cgroup seen before keeps its name, a new one is resolved;
 * those no longer listed are kept as gone until the next fill, then forgotten. */
void cg_names_fill(struct cg_names *n, struct snapshot *s);
/* The path, name (NULL: none) and runtime of cgroup id (not 0) as the last fill listed it,
 * else as the fill before listed it (removed since: a kill's event may name it after its
 * removal); false if neither did. The strings last until the next fill. */
bool cg_names_by_id(const struct cg_names *n, uint64_t id, const char **path, const char **name,
		    int *runtime);

/* The components of a cgroup path (its names between slashes) into comp and len, max at
 * most; their number */
size_t cg_path_parts(const char *path, const char **comp, size_t *len, size_t max);

#endif
