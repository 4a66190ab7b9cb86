/* Names for memory cgroups (cgroup_names.h) from engines' files this test writes under a
 * temporary root, as Docker, Podman and the kubelet lay them out; and the one-name form
 * of a cgroup without a name (cg_display_name). */
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgcolumns.h"
#include "cgroup_json.h"
#include "cgroup_names.h"
#include "unit.h"

#define ID   "3f4e8a1c9b2d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f"
#define ID2  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define UID  "8d3f1c2a-4b5e-4f60-9a1b-2c3d4e5f6a7b"
#define UID_ "8d3f1c2a_4b5e_4f60_9a1b_2c3d4e5f6a7b"

static char root[64];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int make_root(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/memtop-cgnames.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int remove_root(void **state)
{
	(void)state;
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* The file rel under root, its directories made, holding n bytes of text */
static void put_n(const char *rel, const char *text, size_t n)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	fclose(f);
}

static void put(const char *rel, const char *text)
{
	put_n(rel, text, strlen(text));
}

static int resolve(const char *path, char *name)
{
	return cg_name_resolve(root, path, name, CG_NAME_MAX);
}

static void docker(void **state)
{
	(void)state;
	char name[CG_NAME_MAX];
	/* a "Name" nested in another object comes first: not the container's */
	put("var/lib/docker/containers/" ID "/config.v2.json",
	    "{\"StreamConfig\":{},\"MountPoints\":{\"/data\":{\"Name\":\"vol1\",\"RW\":true}},"
	    "\"State\":{\"Running\":true,\"Pid\":42,\"ExitCode\":0,\"Health\":null},"
	    "\"Config\":{\"Env\":[\"A=\\\"x\\\"\",\"B=[{\"],\"Labels\":{}},"
	    "\"Name\":\"/leaky\",\"Driver\":\"overlay2\"}");
	assert_int_equal(resolve("/system.slice/docker-" ID ".scope", name), CG_RT_DOCKER);
	assert_string_equal(name, "leaky");
	assert_int_equal(resolve("/docker/" ID, name), CG_RT_DOCKER);
	assert_string_equal(name, "leaky");
	/* no file: the short id, as docker ps shows it */
	assert_int_equal(resolve("/system.slice/docker-" ID2 ".scope", name), CG_RT_DOCKER);
	assert_string_equal(name, "0123456789ab");
	/* only a nested Name: none of the container's */
	put("var/lib/docker/containers/" ID2 "/config.v2.json",
	    "{\"MountPoints\":{\"/d\":{\"Name\":\"vol\"}},\"Names\":\"x\"}");
	assert_int_equal(resolve("/system.slice/docker-" ID2 ".scope", name), CG_RT_DOCKER);
	assert_string_equal(name, "0123456789ab");
	/* a name of escapes: decoded, a NUL never kept */
	put("var/lib/docker/containers/" ID2 "/config.v2.json",
	    "{\"Name\":\"/a\\u0000b\\u00e9\\ud83d\\ude00\\n\"}");
	assert_int_equal(resolve("/docker/" ID2, name), CG_RT_DOCKER);
	assert_string_equal(name, "a?b\xc3\xa9\xf0\x9f\x98\x80\n");
}

static void podman(void **state)
{
	(void)state;
	char name[CG_NAME_MAX];
	put("var/lib/containers/storage/overlay-containers/containers.json",
	    "[{\"id\":\"" ID2 "\",\"names\":[\"other\"],\"image\":\"i\",\"metadata\":"
	    "\"{\\\"image-name\\\":\\\"x\\\"}\",\"created\":\"2026-12-05T06:31:02Z\"},\n"
	    " {\"id\":\"" ID "\",\"names\":[\"leaky\",\"alias\"],\"layer\":\"l\",\"flags\":"
	    "{\"MountLabel\":\"\"}}]");
	assert_int_equal(resolve("/libpod_parent/libpod-" ID, name), CG_RT_PODMAN);
	assert_string_equal(name, "leaky");
	assert_int_equal(resolve("/machine.slice/libpod-" ID2 ".scope", name), CG_RT_PODMAN);
	assert_string_equal(name, "other");
	/* a rootless container: its user's store */
	const char *id3 = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";
	char rel[PATH_MAX], path[PATH_MAX];
	snprintf(rel, sizeof(rel),
		 "home/alice/.local/share/containers/storage/overlay-containers/containers.json");
	char text[300];
	snprintf(text, sizeof(text), "[{\"id\":\"%s\",\"names\":[\"mine\"]}]", id3);
	put(rel, text);
	snprintf(path, sizeof(path),
		 "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-%s.scope", id3);
	/* the user's own: the home and the store owned by uid 1000 (as root, who can give
	 * them), else not read */
	char home[PATH_MAX], store[PATH_MAX * 2];
	snprintf(home, sizeof(home), "%s/home/alice", root);
	snprintf(store, sizeof(store), "%s/%s", root, rel);
	bool owned = !geteuid() && !lchown(home, 1000, 1000) && !lchown(store, 1000, 1000);
	assert_int_equal(resolve(path, name), CG_RT_PODMAN);
	assert_string_equal(name, owned ? "mine" : "fedcba987654");
	/* another user's systemd: alice's store is not read for it */
	snprintf(path, sizeof(path),
		 "/user.slice/user-1001.slice/user@1001.service/user.slice/libpod-%s.scope", id3);
	assert_int_equal(resolve(path, name), CG_RT_PODMAN);
	assert_string_equal(name, "fedcba987654");
}

/* The kubelet's tree: the pod's log directory, a container's, and the link to its log */
static void kube_logs(void)
{
	char target[PATH_MAX], link[PATH_MAX];
	put("var/log/pods/shop_web-0_" UID "/app/0.log", "");
	put("var/log/pods/kube-system_dns_11111111-2222-3333-4444-555555555555/dns/0.log", "");
	put("var/log/containers/.keep", "");
	snprintf(target, sizeof(target), "/var/log/pods/shop_web-0_" UID "/app/0.log");
	snprintf(link, sizeof(link), "%s/var/log/containers/web-0_shop_app-" ID ".log", root);
	unlink(link);
	assert_int_equal(symlink(target, link), 0);
}

static void kubernetes(void **state)
{
	(void)state;
	char name[CG_NAME_MAX];
	const char *pod = "/kubepods.slice/kubepods-burstable.slice/"
			  "kubepods-burstable-pod" UID_ ".slice";
	char path[PATH_MAX];

	kube_logs();
	assert_int_equal(resolve(pod, name), CG_RT_KUBERNETES);
	assert_string_equal(name, "shop/web-0");
	snprintf(path, sizeof(path), "%s/cri-containerd-" ID ".scope", pod);
	assert_int_equal(resolve(path, name), CG_RT_KUBERNETES);
	assert_string_equal(name, "shop/web-0/app");
	snprintf(path, sizeof(path), "%s/crio-" ID ".scope", pod);
	assert_int_equal(resolve(path, name), CG_RT_KUBERNETES);
	assert_string_equal(name, "shop/web-0/app");
	/* the pod's sandbox: no log of its own */
	snprintf(path, sizeof(path), "%s/cri-containerd-" ID2 ".scope", pod);
	assert_int_equal(resolve(path, name), CG_RT_KUBERNETES);
	assert_string_equal(name, "shop/web-0/0123456789ab");
	/* cgroupfs's driver */
	assert_int_equal(resolve("/kubepods/burstable/pod" UID "/" ID, name), CG_RT_KUBERNETES);
	assert_string_equal(name, "shop/web-0/app");
	/* a guaranteed pod, and one whose logs are not there */
	assert_int_equal(resolve("/kubepods.slice/kubepods-pod" UID_ ".slice", name),
			 CG_RT_KUBERNETES);
	assert_string_equal(name, "shop/web-0");
	assert_int_equal(resolve("/kubepods.slice/kubepods-pod"
				 "99999999_2222_3333_4444_555555555555.slice",
				 name),
			 CG_RT_NONE);
	assert_string_equal(name, "");
	/* the QoS slices are systemd's units */
	assert_int_equal(resolve("/kubepods.slice/kubepods-burstable.slice", name), CG_RT_NONE);
}

static void systemd(void **state)
{
	(void)state;
	char name[CG_NAME_MAX];
	assert_int_equal(resolve("/system.slice/nginx.service", name), CG_RT_SYSTEMD);
	assert_string_equal(name, "nginx.service");
	assert_int_equal(resolve("/user.slice/user-1000.slice/user@1000.service", name),
			 CG_RT_SYSTEMD);
	assert_string_equal(name, "user@1000.service");
	assert_int_equal(resolve("/system.slice", name), CG_RT_SYSTEMD);
	assert_string_equal(name, "system.slice");
	assert_int_equal(resolve("/", name), CG_RT_NONE);
	assert_string_equal(name, "");
	assert_int_equal(resolve("/libpod_parent", name), CG_RT_NONE);
	assert_int_equal(resolve("/system.slice/nginx.service/worker", name), CG_RT_NONE);
	assert_string_equal(name, "");
}

/* Files too big, damaged, or not files: no name, bounded time, no crash */
static void hostile(void **state)
{
	(void)state;
	char name[CG_NAME_MAX];
	size_t big = (size_t)2 << 20;
	char *text = malloc(big);
	assert_non_null(text);
	/* a config over the bound, valid JSON with the name first */
	memset(text, ' ', big);
	memcpy(text, "{\"Name\":\"/huge\"", 15);
	text[big - 1] = '}';
	put_n("var/lib/docker/containers/" ID "/config.v2.json", text, big);
	assert_int_equal(resolve("/docker/" ID, name), CG_RT_DOCKER);
	assert_string_equal(name, "3f4e8a1c9b2d");
	/* nested a million deep, then the name: given up, not recursed */
	size_t deep = 900000;
	memcpy(text, "{\"a\":", 5);
	memset(text + 5, '[', deep);
	put_n("var/lib/docker/containers/" ID "/config.v2.json", text, deep + 5);
	assert_int_equal(resolve("/docker/" ID, name), CG_RT_DOCKER);
	assert_string_equal(name, "3f4e8a1c9b2d");
	/* a name longer than a name is kept: cut */
	memcpy(text, "{\"Name\":\"/", 10);
	memset(text + 10, 'x', 5000);
	memcpy(text + 5010, "\"}", 3);
	put("var/lib/docker/containers/" ID "/config.v2.json", text);
	assert_int_equal(resolve("/docker/" ID, name), CG_RT_DOCKER);
	assert_int_equal(strlen(name), CG_NAME_MAX - 2);
	/* cut short, in a string, in a key, an escape */
	static const char *const cut[] = {
		"{\"Name\":\"/le", "{\"Na", "{\"Name\":\"\\u12", "{\"Name\"", "[\"Name\",\"x\"]",
		"{\"Name\":7}",	   ""};
	for (size_t i = 0; i < sizeof(cut) / sizeof(*cut); i++) {
		put("var/lib/docker/containers/" ID "/config.v2.json", cut[i]);
		assert_int_equal(resolve("/docker/" ID, name), CG_RT_DOCKER);
		assert_string_equal(name, "3f4e8a1c9b2d");
	}
	/* a store that is a fifo with no writer: not opened for long, not read */
	char fifo[PATH_MAX];
	put("var/lib/containers/storage/overlay-containers/x", "");
	snprintf(fifo, sizeof(fifo),
		 "%s/var/lib/containers/storage/overlay-containers/containers.json", root);
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(resolve("/libpod_parent/libpod-" ID, name), CG_RT_PODMAN);
	assert_string_equal(name, "3f4e8a1c9b2d");
	/* a store of damaged entries */
	unlink(fifo);
	put("var/lib/containers/storage/overlay-containers/containers.json",
	    "[1,{\"id\":\"" ID "\",\"names\":[]},{\"id\":\"" ID "\",\"names\":[\"x\"");
	assert_int_equal(resolve("/libpod_parent/libpod-" ID, name), CG_RT_PODMAN);
	assert_string_equal(name, "3f4e8a1c9b2d");
	free(text);
}

/* Cached by id and path: a name stays while its cgroup is listed, though its engine's
 * file goes; a new cgroup is resolved */
static void cache(void **state)
{
	(void)state;
	char path[PATH_MAX];
	struct snapshot s;
	struct cg_names *n = cg_names_new(root);

	snapshot_init(&s);
	put("var/lib/docker/containers/" ID "/config.v2.json", "{\"Name\":\"/leaky\"}");
	snapshot_add_cgroup(&s, "/system.slice/docker-" ID ".scope")->id = 7;
	snapshot_add_cgroup(&s, "/")->id = 1;
	cg_names_fill(n, &s);
	assert_string_equal(s.cgroups[0].name, "leaky");
	assert_int_equal(s.cgroups[0].runtime, CG_RT_DOCKER);
	assert_null(s.cgroups[1].name);
	assert_int_equal(s.cgroups[1].runtime, CG_RT_NONE);
	snprintf(path, sizeof(path), "%s/var/lib/docker/containers/" ID "/config.v2.json", root);
	assert_int_equal(unlink(path), 0);
	snapshot_reuse(&s);
	snapshot_add_cgroup(&s, "/system.slice/docker-" ID ".scope")->id = 7;
	snapshot_add_cgroup(&s, "/system.slice/docker-" ID ".scope")->id = 7; /* twice */
	cg_names_fill(n, &s);
	assert_string_equal(s.cgroups[0].name, "leaky");
	assert_string_equal(s.cgroups[1].name, "leaky");
	/* another cgroup at the path (a new id): read again */
	snapshot_reuse(&s);
	snapshot_add_cgroup(&s, "/system.slice/docker-" ID ".scope")->id = 8;
	cg_names_fill(n, &s);
	assert_string_equal(s.cgroups[0].name, "3f4e8a1c9b2d");
	cg_names_free(n);
	snapshot_free(&s);
}

static void display_name(void **state)
{
	(void)state;
	char buf[256];
	const char *path = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
			   "x.slice/cri-containerd-" ID ".scope";
	assert_int_equal(cg_display_name("leaky", path, buf, sizeof(buf), 40), 5);
	assert_string_equal(buf, "leaky");
	size_t n = cg_display_name(NULL, path, buf, sizeof(buf), 40);
	assert_int_equal(n, 40);
	assert_memory_equal(buf, "/kubepods.sl...", 15);
	assert_string_equal(buf + 15, path + strlen(path) - 25);
	assert_int_equal(cg_display_name(NULL, "/a/b", buf, sizeof(buf), 40), 4);
	assert_string_equal(buf, "/a/b");
	/* UTF-8 is cut between characters */
	n = cg_display_name(NULL,
			    "/\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9/\xc3\xa9\xc3\xa9"
			    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
			    buf, sizeof(buf), 14);
	assert_string_equal(buf, "/\xc3\xa9...\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	assert_int_equal(n, 14);
	n = cg_display_name(NULL,
			    "/\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9/\xc3\xa9\xc3\xa9"
			    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
			    buf, sizeof(buf), 15);
	assert_string_equal(buf, "/\xc3\xa9...\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	assert_int_equal(n, 14);
}

UNIT_GROUP(cgnames)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(docker, make_root, remove_root),
		cmocka_unit_test_setup_teardown(podman, make_root, remove_root),
		cmocka_unit_test_setup_teardown(kubernetes, make_root, remove_root),
		cmocka_unit_test_setup_teardown(systemd, make_root, remove_root),
		cmocka_unit_test_setup_teardown(hostile, make_root, remove_root),
		cmocka_unit_test_setup_teardown(cache, make_root, remove_root),
		cmocka_unit_test(display_name),
	};
	return cmocka_run_group_tests_name("cgnames", tests, NULL, NULL);
}
