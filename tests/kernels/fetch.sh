#!/bin/sh
# fetch.sh KVER: Debian's kernel of that series (5.10 from bullseye, 6.1 from bookworm,
# 6.12 from trixie) into build/kernels/KVER/: vmlinuz, release (the kernel's release
# string) and modules/ (a root holding lib/modules/RELEASE, every module decompressed and
# indexed by depmod, so that busybox modprobe resolves them in the guest).
# The package is the newest linux-image-KVER*-amd64 of the release's main component
# (never -cloud, -rt or -dbg), found with apt-get using a sources list, package lists
# and cache of its own in build/kernels/KVER/apt: the machine's apt set-up is left alone.
# Once fetched, a kernel is not fetched again (no network); removing its directory
# fetches it anew. Errors: one line on stderr, exit 1.
set -u
kver=${1:-}
case "$kver" in
5.10) suite=bullseye ;;
6.1) suite=bookworm ;;
6.12) suite=trixie ;;
*)
	echo "fetch.sh: no Debian release for kernel '$kver' (5.10, 6.1 or 6.12)" >&2
	exit 2
	;;
esac
cd "$(dirname "$0")/../.." || exit 1
dir=$PWD/build/kernels/$kver
# the release file is written last: its presence means the rest is there
[ -s "$dir/release" ] && [ -f "$dir/vmlinuz" ] && exit 0
# one fetch of a kernel at a time (another may be under way: then it is used)
mkdir -p build/kernels || exit 1
exec 8>"build/kernels/$kver.fetch.lock"
flock 8 || exit 1
[ -s "$dir/release" ] && [ -f "$dir/vmlinuz" ] && exit 0

die() {
	echo "fetch.sh: kernel $kver: $*" >&2
	rm -rf "$dir"
	exit 1
}
rm -rf "$dir"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache" "$dir/deb" || die "cannot make $dir"
echo "deb http://deb.debian.org/debian $suite main" >"$dir/apt/sources.list"
# apt's options: its own sources, lists, cache and no pinning of the machine's
set -- -q -o Dir::Etc::sourcelist="$dir/apt/sources.list" -o Dir::Etc::sourceparts=/dev/null \
	-o Dir::State::Lists="$dir/apt/lists" -o Dir::Cache="$dir/apt/cache" \
	-o Dir::Etc::preferences=/dev/null -o Dir::Etc::preferencesparts=/dev/null \
	-o APT::Sandbox::User=root
apt-get "$@" --error-on=any update >"$dir/apt/update.log" 2>&1 ||
	die "apt-get update of $suite failed: $(grep -E '^(E|W):' "$dir/apt/update.log" | head -n 1)"

# the newest ABI's image: the signed package, else the unsigned one
re=$(printf '%s' "$kver" | sed 's/\./\\./g')
names=$(apt-cache "$@" search --names-only "^linux-image-${re}[.-]" | cut -d' ' -f1 |
	grep -E -- "^linux-image-${re}[.-].*-amd64(-unsigned)?\$" | grep -v -e '-cloud-' -e '-rt-')
newest=$(printf '%s\n' "$names" | sed 's/-unsigned$//' | sort -uV | tail -n 1)
[ -n "$newest" ] || die "no linux-image-$kver*-amd64 package in $suite"
pkg=$newest
printf '%s\n' "$names" | grep -qx -- "$pkg" || pkg=$newest-unsigned
echo "fetch.sh: kernel $kver: $pkg from $suite"
(cd "$dir/deb" && apt-get "$@" download "$pkg") >"$dir/apt/download.log" 2>&1 ||
	die "apt-get download $pkg failed: $(grep -E '^(E|W):' "$dir/apt/download.log" | head -n 1)"
dpkg-deb -x "$dir"/deb/*.deb "$dir/deb/root" || die "dpkg-deb -x of $pkg failed"

# the image and the modules (under lib/ or, merged, usr/lib/)
set -- "$dir"/deb/root/boot/vmlinuz-*
[ -f "$1" ] || die "$pkg holds no boot/vmlinuz-*"
release=${1##*/vmlinuz-}
mv "$1" "$dir/vmlinuz" || die "cannot move the kernel image"
mods=$dir/deb/root/lib/modules/$release
[ -d "$mods" ] || mods=$dir/deb/root/usr/lib/modules/$release
[ -d "$mods" ] || die "$pkg holds no modules for $release"
mkdir -p "$dir/modules/lib/modules" || die "cannot make $dir/modules"
mv "$mods" "$dir/modules/lib/modules/" || die "cannot move the modules"
# compressed modules (6.12's .ko.xz) become plain .ko, which any modprobe loads
find "$dir/modules" -name '*.ko.xz' -print0 | xargs -0 -r -P "$(nproc)" -n 64 xz -d ||
	die "cannot decompress the modules"
depmod -b "$dir/modules" "$release" || die "depmod failed"
rm -rf "$dir/deb" "$dir/apt"
echo "$release" >"$dir/release"
echo "fetch.sh: kernel $kver: $release in ${dir#"$PWD/"}"
