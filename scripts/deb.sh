#!/bin/sh
# Builds memtop's Debian package into build/deb/ (`make deb`; doc/services.md, Debian
# package). dpkg-buildpackage builds from a copy of the tree in build/deb/src, so that its
# outputs (memtop_VERSION_ARCH.deb, .buildinfo, .changes, and the -dbgsym package) land in
# build/deb/ and not beside the checkout; the objects stay in build/deb/obj between runs
# (built with PREFIX=/usr, unlike build/'s), so that the next package builds only what
# changed. Then lintian checks the package: any error or warning fails, apart from
# debian/memtop.lintian-overrides (each with its reason); build/deb/checked says it passed.
# Info tags are shown, not fatal: the BTF the package carries is the build kernel's, so an
# override of one may go unused on another kernel (an info tag itself).
set -eu
cd "$(dirname "$0")/.."
out=$PWD/build/deb
# the Makefile's VERSION as make sees it, whatever defines it
version=$(printf 'memtop-version:\n\t@echo $(VERSION)\n' |
	make -s --no-print-directory -f Makefile -f - memtop-version)
deb_version=$(dpkg-parsechangelog -S Version)
if [ "$version" != "$deb_version" ]; then
	echo "memtop: Makefile VERSION '$version', debian/changelog $deb_version: make them equal" >&2
	exit 1
fi
rm -rf "$out/src" "$out/checked" "$out/started"
mkdir -p "$out/src" "$out/obj"
# its time is the tree's that was copied: the test rebuilds when a file is newer
touch "$out/started"
rm -f "$out"/memtop_* "$out"/memtop-dbgsym_*
# the tree as it is now, edits included, without build/ and git's files
tar -C . --exclude=./build --exclude=./.git -cf - . | tar -C "$out/src" -xf -
# -b: the binary package only (a native source package would take build/ in);
# -nc: the copy is clean already, and a clean would remove the kept objects
(cd "$out/src" && MEMTOP_BUILD="$out/obj" dpkg-buildpackage -b -nc -us -uc -jauto)
deb=$(ls "$out"/memtop_"$version"_*.deb)
lintian --info --fail-on error,warning "$out"/memtop_"$version"_*.changes
mv "$out/started" "$out/checked"
echo "memtop: $deb"
