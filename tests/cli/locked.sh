#!/bin/sh
# --columns +locked: each process's locked memory is its VmLck (/proc/PID/status), in JSON
# (locked_kb), in the batch text (LOCKED) and as a sort key (-o locked), also while no swap
# is in use (when memtop reads no status for SWAP); without the column, no locked_kb.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
trap '[ -n "$kids" ] && kill $kids 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

# lock_child MIB: sets $child
lock_child() {
	: >"$tmp/child"
	"$HELPERS/lock_child" "$1" >"$tmp/child" &
	child=$!
	kids="$kids $child"
	wait_ready "$tmp/child" || fail "lock_child $1 never got ready (mlock refused?)"
}
lock_child 2
small=$child
lock_child 6
big=$child
vmlck() { awk '$1 == "VmLck:" { print $2 }' "/proc/$1/status"; }
[ "$(vmlck "$big")" = 6144 ] || fail "the kernel says VmLck $(vmlck "$big") kB for 6 MiB locked"

"$MEMTOP" --json -n 1 --columns +locked -o locked -p "$small,$big" >"$tmp/json" ||
	fail "memtop --json exited $?"
"$MEMTOP" -b -n 1 --columns pid,locked,cmd -o locked -p "$small,$big" >"$tmp/batch" ||
	fail "memtop -b exited $?"
for pid in $small $big; do
	want=$(vmlck "$pid")
	got=$(jq --argjson p "$pid" '.processes[] | select(.pid == $p) | .locked_kb' "$tmp/json")
	[ "$got" = "$want" ] || fail "child $pid: JSON locked_kb '$got', VmLck $want"
	row=$(awk -v p="$pid" '$1 == p { print $2 }' "$tmp/batch")
	[ "$row" = "$(fmt_kb "$want")" ] ||
		fail "child $pid: batch LOCKED '$row', VmLck $want kB"
	echo "child $pid: locked_kb $got, batch $row (VmLck $want)"
done
grep -q '^ *PID LOCKED COMMAND' "$tmp/batch" || fail "batch titles: $(sed -n '/PID/p' "$tmp/batch")"
[ "$(jq '.processes[0].pid' "$tmp/json")" = "$big" ] ||
	fail "-o locked does not put the 6 MiB child first: $(jq -c '[.processes[] | [.pid, .locked_kb]]' "$tmp/json")"
[ "$(awk '$1 ~ /^[0-9]+$/ { print $1; exit }' "$tmp/batch")" = "$big" ] ||
	fail "-o locked in batch: $(cat "$tmp/batch")"
"$MEMTOP" --json -n 1 -p "$big" | jq -e '.processes[0] | has("locked_kb") | not' >/dev/null ||
	fail "locked_kb printed without --columns +locked"
