#!/bin/sh
# memtop-test: beside others
# The Stacks tab as a call tree. two_paths calls mmap 30 times through main -> path_big
# -> map_one and 10 times through main -> path_small -> map_one while the detail screen
# is open. t shows the tree: under [mmap] (40 calls, as many as the list's mmap stacks
# add up to), main has both paths, path_big first with 30 calls and 75.0 %, path_small
# with 10 and 25.0 %, their shares adding up to main's, and map_one under each with the
# same count; t again shows the list. Left folds a kind and hides its nodes, Right shows
# them again; End then Enter shows the last leaf's stack whole (path_small's), with
# map_one's file:line as addr2line gives it; Esc returns to the tree.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
command -v addr2line >/dev/null || fail "needs binutils (addr2line)"

BIG=30 SMALL=10
dd_start $BIG $SMALL "$HELPERS/two_paths"
dd_detail 200 80 two_paths
dd_go
[ "$(awk '/^done/ { print $2, $3 }' "$DD_DIR/out")" = "$BIG $SMALL" ] || fail "two_paths: $(cat "$DD_DIR/out")"
tm send-keys 3
wait_for "path_small+0x" || fail "the stacks list does not name path_small"
list_mmaps() { screen_text | awk '$1 == "mmap" { s += $2 } END { print s + 0 }'; }
all_listed() { [ "$(list_mmaps)" -eq $((BIG + SMALL)) ]; }
eventually $HANG all_listed || fail "the list's mmap stacks add up to $(list_mmaps), not $((BIG + SMALL)):
$(screen_text)"

tm send-keys t
wait_for "CALL TREE" || fail "t did not show the call tree"
wait_for " path_small" || fail "the tree does not name path_small"
screen_text >"$tmp/tree"
# the lines under [mmap], until the next kind: SHARE COUNT SELF NAME
awk '/ \[(fault|brk|mmap|munmap|kfault)\]$/ { on = /\[mmap\]$/ } on { print $1, $2, $3, $NF }' "$tmp/tree" | tr -d '%' >"$tmp/mmap"
node() { awk -v n="$1" '$4 == n { print; exit }' "$tmp/mmap"; }
set -- $(node "[mmap]")
[ "$1" = 100.0 ] && [ "$2" = $((BIG + SMALL)) ] || fail "[mmap]: $*, not 100.0 % of $((BIG + SMALL)):
$(cat "$tmp/tree")"
set -- $(node main)
main_share=$1 main_count=$2
[ "$main_count" = $((BIG + SMALL)) ] || fail "main: $main_count calls, not $((BIG + SMALL))"
set -- $(node path_big)
big_share=$1
[ "$1" = 75.0 ] && [ "$2" = $BIG ] || fail "path_big: $*, not 75.0 % and $BIG calls:
$(cat "$tmp/tree")"
set -- $(node path_small)
[ "$1" = 25.0 ] && [ "$2" = $SMALL ] || fail "path_small: $*, not 25.0 % and $SMALL calls:
$(cat "$tmp/tree")"
awk -v a="$big_share" -v b="$1" -v m="$main_share" 'BEGIN { d = a + b - m; exit !(d < 0.05 && d > -0.05) }' || fail "path_big $big_share % + path_small $1 % is not main's $main_share %"
# path_big first, then map_one under it with its count, then path_small, then map_one
order=$(awk '$4 ~ /^(path_big|path_small|map_one)$/ { printf "%s:%s ", $4, $2 }' "$tmp/mmap")
[ "$order" = "path_big:$BIG map_one:$BIG path_small:$SMALL map_one:$SMALL " ] ||
	fail "under main: $order"
echo "tree: [mmap] $((BIG + SMALL)), main $main_share %, path_big $big_share % ($BIG), path_small $1 % ($SMALL)"

# fold the first kind, unfold it again
lines=$(grep -c . "$tmp/tree")
tm send-keys Home Left
eventually $HANG sh -c "[ \$(tmux -L '$TMUX_SOCK' capture-pane -p | grep -c .) -lt $lines ]" ||
	fail "Left did not fold the first kind:
$(screen_text)"
tm send-keys Right
eventually $HANG sh -c "[ \$(tmux -L '$TMUX_SOCK' capture-pane -p | grep -c .) -ge $lines ]" ||
	fail "Right did not unfold it:
$(screen_text)"
echo "Left folds, Right unfolds"

tm send-keys End Enter
wait_for "(Esc goes back)" || fail "Enter on the last leaf did not show its stack whole"
# the last leaf is the end of path_small's stack; map_one's line in it has the file:line
# that addr2line gives for its module offset (less one: a return address)
screen_text >"$tmp/whole"
grep -q ' path_small+0x' "$tmp/whole" || fail "the last leaf's stack is not path_small's:
$(cat "$tmp/whole")"
set -- $(grep ' map_one+0x' "$tmp/whole")
off=${4#two_paths+}
[ "$off" != "$4" ] && [ "$6" = at ] || fail "map_one's line: $*"
theirs=$(addr2line -e "$HELPERS/two_paths" "$(printf '0x%x' $((off - 1)))" | sed 's/ (discriminator [0-9]*)$//')
[ "${7##*/}" = "${theirs##*/}" ] || fail "map_one at $4: the screen says $7, addr2line $theirs"
echo "whole stack: map_one at $4 is ${7##*/}, as addr2line says"
tm send-keys Escape
wait_for "CALL TREE" || fail "Esc did not return to the tree"
tm send-keys t
wait_for "STACK (innermost first" || fail "t did not return to the list"
echo "Enter on a leaf: its stack whole; t: the list again"
