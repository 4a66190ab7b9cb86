#!/bin/sh
# The tree of cgroups from the BPF cgroup iterator (each cgroup's kernfs name and its
# parent's id) instead of the directories' listing: while memtop --json --cgroups runs, a
# cgroup made shows up and one removed is gone within two refreshes, as with the listing;
# a cgroup whose name has a space and non-ASCII bytes (UTF-8, and a byte that is not)
# keeps its exact path, below a parent with such a name too; the tree is the listing's
# (--no-bpf) cgroup for cgroup; and with strace, the hierarchy's
# directories are listed in the first refresh only (the self-check), not after.
. "$(dirname "$0")/lib.inc"
need_bpf
"$MEMTOP" --json -n 1 --cgroups >/dev/null 2>&1 || skip "memtop has no --cgroups"

if [ -d /sys/fs/cgroup/memory ]; then
	ROOT=/sys/fs/cgroup/memory
elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	ROOT=/sys/fs/cgroup
else
	skip "no memory cgroup controller to use"
fi
# the hierarchy's path of its mount point, as memtop names cgroups ("/" but in a container)
prefix=$(awk -v m="$ROOT" '$5 == m { print $4; exit }' /proc/self/mountinfo)
[ "$prefix" = / ] && prefix=
top=memtop-cgtree-$$
odd=$(printf 'a b\303\251 x')   # a space and UTF-8 (e acute)
raw=$(printf 'r \377\001z')      # a byte that is no UTF-8, and a control byte
mk() {
	mkdir "$ROOT/$1" || fail "mkdir $ROOT/$1"
}
# (names with spaces: removed by find, children first)
rmdirs() {
	[ -d "$ROOT/$top" ] && find "$ROOT/$top" -depth -type d -exec rmdir {} \; 2>/dev/null
}
trap 'rmdirs; cleanup' EXIT

mk "$top"
mk "$top/old"
mk "$top/$odd"
mk "$top/$odd/in $odd"
mk "$top/$raw"
mk "$top/b"
mk "$top/b/c"

# paths FILE LINE: the cgroups' paths under top in that line of memtop's output, raw
paths() {
	sed -n "$2p" "$1" | jq -r --arg t "$prefix/$top" '.cgroups[].path | select(startswith($t))'
}

# the same cgroups as the listing, names byte for byte (the JSON's order is the view's,
# by usage: the snapshot's order, each after its parent and siblings by name, is the unit
# tests' to check)
"$MEMTOP" --json -n 2 -d 0.2 --cgroups >"$WORK/bpf.json" || fail "memtop failed"
"$MEMTOP" --json -n 1 --cgroups --no-bpf >"$WORK/files.json" || fail "memtop --no-bpf failed"
paths "$WORK/files.json" 1 | LC_ALL=C sort >"$WORK/want"
paths "$WORK/bpf.json" 2 | LC_ALL=C sort >"$WORK/ours"
cmp -s "$WORK/want" "$WORK/ours" || fail "the tree from BPF is not the listing's: $(cat "$WORK/ours") against $(cat "$WORK/want")"
printf '%s\n' "$prefix/$top" "$prefix/$top/$odd" "$prefix/$top/$odd/in $odd" "$prefix/$top/b" \
	"$prefix/$top/b/c" "$prefix/$top/old" "$prefix/$top/$raw" | LC_ALL=C sort >"$WORK/expect"
# (jq shows the byte that is no UTF-8 otherwise: that line is compared apart)
grep -v "^$prefix/$top/r " "$WORK/ours" >"$WORK/ours.utf8"
grep -v "^$prefix/$top/r " "$WORK/expect" >"$WORK/expect.utf8"
cmp -s "$WORK/ours.utf8" "$WORK/expect.utf8" || fail "paths: $(cat "$WORK/ours") expected $(cat "$WORK/expect")"
[ "$(grep -c "^$prefix/$top/r " "$WORK/ours")" = 1 ] || fail "the cgroup named with a byte that is no UTF-8 is missing: $(cat "$WORK/ours")"
echo "paths kept: $(grep -c . "$WORK/ours") cgroups under $top, e.g. $(sed -n 2p "$WORK/ours")"

# made and removed while memtop runs
mt_start --cgroups -n 40 -d 0.3
mt_wait_lines 2
grep -qx "$prefix/$top/old" "$(paths "$OUT" 2 >"$WORK/p2" && echo "$WORK/p2")" || fail "old not listed at first"
mkdir "$ROOT/$top/new" || fail "mkdir new"
rmdir "$ROOT/$top/old" || fail "rmdir old"
at=$(mt_lines)
mt_wait_lines $((at + 3))
mt_stop
for n in $((at + 2)) $((at + 3)); do
	paths "$OUT" $n >"$WORK/pn"
	grep -qx "$prefix/$top/new" "$WORK/pn" || fail "refresh $n of $(mt_lines): new not listed: $(cat "$WORK/pn")"
	grep -qx "$prefix/$top/old" "$WORK/pn" && fail "refresh $n: old still listed"
done
echo "made and removed: shown by refresh $((at + 2)) (changed after refresh $at)"

# the directories are listed only in the first refresh: none of the hierarchy's after the
# first refresh's output (a cgroup made or removed elsewhere meanwhile changes nothing)
if command -v strace >/dev/null; then
	strace -f -y -e trace=getdents64,write -o "$WORK/trace" \
		"$MEMTOP" --json --cgroups -n 4 -d 0.2 >"$WORK/traced" 2>&1
	[ "$(wc -l <"$WORK/traced")" = 4 ] || fail "memtop under strace: $(head -c 300 "$WORK/traced")"
	set -- $(awk -v r="<$ROOT" '/write\(1</ { w++ } /getdents64\(/ && index($0, r) { n[w > 0]++ }
		END { print n[0] + 0, n[1] + 0, w + 0 }' "$WORK/trace")
	[ "$1" -gt 0 ] || fail "strace saw no listing of $ROOT in the first refresh"
	[ "$3" -ge 4 ] || fail "strace saw $3 writes of the output, not 4"
	[ "$2" = 0 ] || fail "the directories were listed after the first refresh: $1 getdents64 in the first, $2 after"
	echo "listing: $1 getdents64 in the first refresh, none in the 3 after"
fi
