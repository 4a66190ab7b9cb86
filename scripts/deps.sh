#!/bin/sh
# Installs the Debian packages memtop needs to build and run, when missing; with the
# argument "deb", those `make deb` needs to build and check a Debian package too; with
# "test", those its tests need too (`make test`, `make bench`), which include the deb set
# (a test builds the package).
# Run by `make run`, `make test` and `make deb`; does nothing when everything is there.
set -eu
PKGS="make gcc g++ libc6-dev clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libncurses-dev
libproc2-dev libdw-dev libmicrohttpd-dev libzstd-dev libcrypt-dev pkg-config tmux libcmocka-dev jq procps util-linux
e2fsprogs htop libclang-rt-14-dev"
# the tests': promtool checks the OpenMetrics exposition and a real Prometheus scrapes
# memtop --serve (prometheus ships both); curl asks the server; man (man-db) renders the
# manual page, which a test checks for warnings; perf (linux-perf) unwinds the same
# stacks as memtop for a test to compare; numastat (numactl) shows the NUMA figures memtop's
# are checked against; systemd-analyze (systemd) verifies the units the Debian package
# installs and those in contrib/; openssl makes the certificate of the TLS test; addr2line
# and readelf (binutils) resolve the module offsets, lines and build ids memtop prints,
# for tests to compare; strace slows the bpf(2) calls of two --pin services racing, and
# counts the directory listings of the cgroup reader, and with lsof shows in memtop's pager
# (s, l); podman with runc runs a container that memtop must name (crun refuses on hybrid
# cgroups), from an image of busybox-static's busybox made offline
TEST_PKGS="prometheus curl iproute2 man-db linux-perf smem numactl systemd openssl binutils strace
lsof podman runc busybox-static"
# make deb's: dpkg-buildpackage (dpkg-dev) with debhelper under fakeroot, lintian checks
# the package, bash-completion gives the completion directory (pkg-config)
DEB_PKGS="dpkg-dev debhelper fakeroot lintian bash-completion"
# make test-kernels': qemu runs the guests, busybox-static and cpio make their initramfs,
# kmod's depmod indexes the kernels' modules and xz-utils decompresses 6.12's, e2fsprogs'
# mkfs.ext4 formats their scratch disk, apt and dpkg fetch and unpack the kernels
KERNEL_PKGS="qemu-system-x86 busybox-static cpio kmod xz-utils e2fsprogs apt dpkg coreutils"
case "${1:-}" in
deb) PKGS="$PKGS $DEB_PKGS" ;;
test) PKGS="$PKGS $TEST_PKGS $DEB_PKGS" ;;
kernels) PKGS="$PKGS $TEST_PKGS $DEB_PKGS $KERNEL_PKGS" ;;
esac
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "memtop: missing Debian packages:$missing (run as root, or: apt-get install$missing)" >&2
	exit 1
fi
echo "memtop: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# an empty package list means apt-get update was never run on this machine
if ! apt-get install -y --no-install-recommends $missing; then
	apt-get update
	apt-get install -y --no-install-recommends $missing
fi
