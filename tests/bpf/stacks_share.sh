#!/bin/sh
# memtop-test: beside others
# Shares and the stacks left out. many_stacks calls mmap and munmap 1024 times each
# through 256 distinct paths (outer_I -> inner_J). JSON: every stack has its share of its
# kind (count / all of the kind), the 200 shown and left_out add up to the 256 mmap stacks
# and the 1024 calls made, and stacks_left_out is every stack past 200. Text: each stack
# has its percentage, and after the 10 shown of a kind "mmap: N more stacks (M calls,
# P %)" accounts for the other 246 stacks and the rest of the 1024 calls. No symbol
# keeps a version suffix (__libc_start_main@@GLIBC_2.34), and __libc_start_main is named.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available

ROUNDS=4 CALLS=1024
# run ARGS...: memtop --stacks on a fresh many_stacks while it makes its calls
run() {
	dd_start $ROUNDS "" "$HELPERS/many_stacks"
	dd_sample "$@"
	[ "$(awk '/^done/ { print $2 }' "$DD_DIR/out")" = $CALLS ] || fail "many_stacks: $(cat "$DD_DIR/out")"
	dd_stop
}
run --json
j() { jq -r "$1" "$tmp/out"; }
n=$(j '.stacks | length')
[ "$n" = 200 ] || fail "$n stacks in the JSON, not 200"
for k in mmap munmap; do
	shown=$(j "[.stacks[] | select(.kind == \"$k\")] | length")
	sum=$(j "[.stacks[] | select(.kind == \"$k\") | .count] | add // 0")
	ls=$(j ".left_out.$k.stacks")
	lc=$(j ".left_out.$k.count")
	[ $((shown + ls)) = 256 ] || fail "$k: $shown stacks shown + $ls left out, not 256"
	[ $((sum + lc)) = $CALLS ] || fail "$k: $sum calls shown + $lc left out, not $CALLS"
	j "[.stacks[] | select(.kind == \"$k\") | (.share - .count / $CALLS) | fabs] | max < 0.0001" |
		grep -qx true || fail "$k shares are not count / $CALLS: $(j "[.stacks[] | select(.kind == \"$k\") | [.count, .share]][0:5]")"
	j "([.stacks[] | select(.kind == \"$k\") | .share] | add) + .left_out.$k.share | . > 0.999 and . < 1.001" |
		grep -qx true || fail "$k shares do not add up to 1"
done
[ "$(j '.stacks_left_out')" = "$(j '[.left_out[] | .stacks] | add')" ] ||
	fail "stacks_left_out $(j .stacks_left_out), left_out $(j '.left_out')"
j '.stacks[].frames[].symbol // empty' | grep '@' && fail "symbols with a version suffix"
j '.stacks[].frames[].symbol // empty' | grep -qx __libc_start_main || fail "no __libc_start_main"
echo "JSON: 200 stacks shown, $(j .stacks_left_out) left out; shares add up"

run
grep -q '^mmap: [0-9.]* %, [0-9]* calls' "$tmp/out" || fail "no percentage: $(head -20 "$tmp/out")"
[ "$(grep -c '^mmap: [0-9.]* %' "$tmp/out")" = 10 ] || fail "not 10 mmap stacks shown"
more=$(grep '^mmap: [0-9]* more stacks' "$tmp/out") || fail "no 'mmap: N more stacks' line: $(cat "$tmp/out")"
shown=$(awk '/^mmap: [0-9.]* %,/ { s += $4 } END { print s }' "$tmp/out")
set -- $more
[ "$2" = 246 ] || fail "$more: not 246 more stacks"
[ $((shown + ${5#(})) = $CALLS ] || fail "$shown calls shown + $more, not $CALLS"
awk -v all=$CALLS '/^mmap: [0-9.]* %,/ { p = $2; c = $4; d = p - 100 * c / all; if (d > 0.051 || d < -0.051) { print; exit 1 } }' \
	"$tmp/out" || fail "a percentage is not the stack's share"
grep '@' "$tmp/out" && fail "symbols with a version suffix in the text"
echo "text: $more"
