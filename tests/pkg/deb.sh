#!/bin/sh
# memtop-test: long
# memtop-test: timeout 600
# The Debian package (make deb: debian/, scripts/deb.sh). Built when build/deb holds none
# that lintian passed or the tree changed since (scripts/deb.sh leaves build/deb/checked
# only when lintian passes); its Build-Depends are packages scripts/deps.sh installs;
# dpkg-deb -c lists the binary, the manual, every theme, every contrib/ unit and the bash
# completion; no maintainer script enables or starts a unit; its Depends are installed
# here. Installed by dpkg --root into a directory, never into this system: in a private
# mount namespace, a root whose /usr is that directory's over this system's /usr, the
# installed /usr/bin/memtop runs (--help, -b -n 1, --json -n 1 whose MemTotal is
# /proc/meminfo's) and its screen finds every shipped theme in /usr/share/memtop/themes,
# the directory compiled in; its bash
# completion completes flags, theme names and sort fields; systemd-analyze verify passes
# the installed units. dpkg -P then leaves nothing.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
top=$(cd "${TESTS:-$(dirname "$0")/..}/.." && pwd)
[ "$(id -u)" = 0 ] || skip "not root: the installed memtop runs in a chroot"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
out=$top/build/deb

# build when absent or older than any file of the tree
changed=x
[ -f "$out/checked" ] && changed=$(cd "$top" && find . -path ./build -prune -o -path ./.git -prune \
	-o -type f -newer "$out/checked" -print | head -1)
if [ -n "$changed" ]; then
	make -C "$top" --no-print-directory deb >"$tmp/build" 2>&1 ||
		fail "make deb failed: $(tail -25 "$tmp/build")"
fi
[ -f "$out/checked" ] || fail "make deb left no build/deb/checked (lintian did not pass)"
deb=$(ls "$out"/memtop_*.deb) || fail "no memtop_*.deb in $out"
[ "$(echo "$deb" | wc -l)" = 1 ] || fail "more than one package in $out: $deb"
version=$(dpkg-deb -f "$deb" Version)
want=$(printf 'v:\n\t@echo $(VERSION)\n' | make -s --no-print-directory -C "$top" -f Makefile -f - v)
[ "$version" = "$want" ] || fail "the package's version is $version, the Makefile's $want"

# every Build-Depends is installed by scripts/deps.sh
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z]/{/^[A-Z]/!p;s/^Build-Depends://p}' "$top/debian/control" |
	tr ',' '\n' | sed 's/(.*//;s/[[:space:]]//g' | grep -v '^debhelper-compat$' | grep .)
[ -n "$bdeps" ] || fail "no Build-Depends read from debian/control"
for p in $bdeps; do
	grep -qw -- "$p" "$top/scripts/deps.sh" || fail "Build-Depends $p is not in scripts/deps.sh"
done

# the contents
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$tmp/list" || fail "dpkg-deb -c $deb failed"
want="/usr/bin/memtop /usr/share/man/man1/memtop.1.gz /usr/share/bash-completion/completions/memtop
/usr/share/doc/memtop/copyright /usr/share/doc/memtop/services.md"
for f in "$top"/themes/*.theme; do want="$want /usr/share/memtop/themes/${f##*/}"; done
units=0
for f in "$top"/contrib/*.service; do
	[ -f "$f" ] || continue
	want="$want /usr/lib/systemd/system/${f##*/}"
	units=$((units + 1))
done
[ "$units" -gt 0 ] || fail "contrib/ has no .service file to ship"
for f in $want; do
	grep -qx -- "$f" "$tmp/list" || fail "the package lacks $f; it has: $(tr '\n' ' ' <"$tmp/list")"
done
dpkg-deb -e "$deb" "$tmp/control" || fail "dpkg-deb -e failed"
for s in "$tmp"/control/preinst "$tmp"/control/postinst; do
	[ -f "$s" ] || continue
	! grep -Eq 'deb-systemd-helper( --quiet)? enable|deb-systemd-invoke start' "$s" ||
		fail "${s##*/} enables or starts a unit: $(cat "$s")"
done

# its Depends (from shlibs) are satisfied here, where it runs below
dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/[()]//g' >"$tmp/depends"
while read -r name op ver; do
	have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null) || fail "Depends $name: not installed"
	[ -z "$op" ] || dpkg --compare-versions "$have" "$op" "$ver" ||
		fail "Depends $name ($op $ver): $have installed"
done <"$tmp/depends"

# installed by dpkg into a root of its own (its database empty, so the dependencies are
# forced), never into this system; the units run the installed memtop
pkg=$tmp/inst
mkdir -p "$pkg/var/lib/dpkg/info" "$pkg/var/lib/dpkg/updates"
: >"$pkg/var/lib/dpkg/status"
dpkg --root="$pkg" --force-depends -i "$deb" >"$tmp/dpkg" 2>&1 || fail "dpkg --root -i failed: $(cat "$tmp/dpkg")"
dpkg --root="$pkg" -s memtop | grep -qx 'Status: install ok installed' ||
	fail "dpkg --root -s memtop: $(dpkg --root="$pkg" -s memtop 2>&1 | head -3)"
for u in "$pkg"/usr/lib/systemd/system/*.service; do
	exe=$(sed -n 's/^ExecStart=[-@+!:]*\([^ ]*\).*/\1/p' "$u" | head -1)
	[ "$exe" = /usr/bin/memtop ] || fail "${u##*/}: ExecStart runs '$exe', not /usr/bin/memtop"
done
# a theme only the package's directory holds: the screen finds it only by the compiled-in
# path, which must be where the package put the themes
cp "$pkg/usr/share/memtop/themes/mono.theme" "$pkg/usr/share/memtop/themes/pkgonly.theme"
root=$tmp/root root_tmp_comp=$tmp/root/tmp/comp.sh
mkdir -p "$root/usr" "$root/tmp"
chmod 1777 "$root/tmp"
unit_paths=$(cd "$pkg" && ls usr/lib/systemd/system/*.service | sed 's|^|/|' | tr '\n' ' ')
themes=$(cd "$pkg/usr/share/memtop/themes" && ls *.theme | sed 's/\.theme$//' | tr '\n' ' ')

# the installed completion, as bash-completion loads it on demand: "COMMAND LINE| REPLIES"
cat >"$root_tmp_comp" <<'COMP'
. /usr/share/bash-completion/bash_completion
_completion_loader memtop
complete -p memtop >/dev/null || { echo "no completion for memtop"; exit 1; }
comp() {
	COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
	read -ra COMP_WORDS <<<"$*"
	[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMPREPLY=()
	_memtop memtop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	echo "$*| ${COMPREPLY[*]}"
}
comp "memtop --the"
comp "memtop --theme pk"
comp "memtop -o ps"
comp "memtop --"
COMP

# the root: the package over /usr (an overlay; its lower layer is the package, so the
# package's files win), this system's /etc, /dev, /proc and /sys, /bin and /lib as here
cat >"$tmp/inner.sh" <<INNER
set -e
mount -t overlay memtop-deb -o lowerdir=$pkg/usr:/usr "$root/usr"
for d in bin sbin lib lib32 lib64 libx32; do
	if [ -L /\$d ]; then ln -s "\$(readlink /\$d)" "$root/\$d"
	elif [ -d /\$d ]; then mkdir "$root/\$d" && mount --rbind /\$d "$root/\$d"; fi
done
for d in etc dev proc sys run; do
	mkdir "$root/\$d" && mount --rbind /\$d "$root/\$d"
done
set +e
chroot "$root" /usr/bin/memtop --help >"$tmp/help" 2>&1; echo \$? >"$tmp/help.rc"
chroot "$root" /usr/bin/memtop -b -n 1 >"$tmp/batch" 2>&1; echo \$? >"$tmp/batch.rc"
chroot "$root" /usr/bin/memtop --json -n 1 >"$tmp/json" 2>"$tmp/json.err"; echo \$? >"$tmp/json.rc"
chroot "$root" /usr/bin/bash /tmp/comp.sh >"$tmp/comp" 2>&1; echo \$? >"$tmp/comp.rc"
chroot "$root" /usr/bin/systemd-analyze verify $unit_paths \
	>"$tmp/verify" 2>&1; echo \$? >"$tmp/verify.rc"
for t in $themes nosuchtheme; do
	TERM=xterm chroot "$root" /usr/bin/script -qec "/usr/bin/memtop --theme \$t -n 1" /dev/null \
		>"$tmp/theme-\$t" 2>&1 </dev/null
	echo \$? >"$tmp/theme-\$t.rc"
done
INNER
unshare -m --propagation private sh "$tmp/inner.sh" >"$tmp/inner.out" 2>&1 ||
	fail "setting up the root failed: $(cat "$tmp/inner.out")"

[ "$(cat "$tmp/help.rc")" = 0 ] || fail "installed memtop --help: exit $(cat "$tmp/help.rc"): $(head -5 "$tmp/help")"
grep -q -- '--theme NAME' "$tmp/help" || fail "installed memtop --help lists no --theme: $(head -5 "$tmp/help")"
[ "$(cat "$tmp/batch.rc")" = 0 ] || fail "installed memtop -b -n 1: exit $(cat "$tmp/batch.rc"): $(head -5 "$tmp/batch")"
head -1 "$tmp/batch" | grep -q "^memtop " && grep -q "^Mem: *Avail" "$tmp/batch" ||
	fail "installed memtop -b -n 1 printed: $(head -3 "$tmp/batch")"
[ "$(cat "$tmp/json.rc")" = 0 ] || fail "installed memtop --json -n 1: exit $(cat "$tmp/json.rc"): $(head -3 "$tmp/json.err")"
total=$(jq -r '.system.mem_total_kb' "$tmp/json") || fail "installed memtop --json: not JSON: $(head -c 300 "$tmp/json")"
proc=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
[ "$total" = "$proc" ] || fail "installed memtop: mem_total_kb $total, /proc/meminfo MemTotal $proc"
for t in $themes; do
	[ "$(cat "$tmp/theme-$t.rc")" = 0 ] ||
		fail "installed memtop --theme $t: exit $(cat "$tmp/theme-$t.rc"): $(tr -d '\033' <"$tmp/theme-$t" | head -c 300)"
done
[ "$(cat "$tmp/theme-nosuchtheme.rc")" = 2 ] && grep -q "theme 'nosuchtheme'" "$tmp/theme-nosuchtheme" ||
	fail "installed memtop --theme nosuchtheme: exit $(cat "$tmp/theme-nosuchtheme.rc"): $(head -c 300 "$tmp/theme-nosuchtheme")"
[ "$(cat "$tmp/comp.rc")" = 0 ] || fail "the completion script failed: $(cat "$tmp/comp")"
for want in "memtop --the| --theme" "memtop --theme pk| pkgonly" "memtop -o ps| pss"; do
	grep -qxF -- "$want" "$tmp/comp" || fail "completion: want '$want', got: $(cat "$tmp/comp")"
done
# every long flag of --help's option lines
flags=$(sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' "$tmp/help")
[ -n "$flags" ] || fail "no flags read from --help"
for f in $flags; do
	grep "^memtop --|" "$tmp/comp" | grep -q -- " $f\( \|$\)" || fail "completing -- lacks $f: $(grep '^memtop --|' "$tmp/comp")"
done
# systemd accepts the units as installed, their memtop where the package put it
[ "$(cat "$tmp/verify.rc")" = 0 ] && [ ! -s "$tmp/verify" ] ||
	fail "systemd-analyze verify of the installed units: exit $(cat "$tmp/verify.rc"): $(head -5 "$tmp/verify")"
# and removed by dpkg, it leaves nothing
rm "$pkg/usr/share/memtop/themes/pkgonly.theme"
dpkg --root="$pkg" --force-depends -P memtop >"$tmp/dpkg" 2>&1 || fail "dpkg --root -P failed: $(cat "$tmp/dpkg")"
left=$(find "$pkg/usr" -mindepth 1 2>/dev/null | head -5)
[ -z "$left" ] || fail "dpkg -P memtop left: $left"
echo "ok: $deb ($(wc -l <"$tmp/list") paths, $units unit(s), themes: $(echo $themes))"
