#!/bin/sh
# A stall (SIGSTOP, a suspended VM, a swapped-out memtop) is not made up for by a burst of
# refreshes: the refreshes missed are skipped, one stderr line says how many (for a stall
# of 5 s or more), and no two samples are closer than about the delay.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
mt=
trap '[ -n "$mt" ] && kill -CONT "$mt" 2>/dev/null && kill "$mt" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

"$MEMTOP" --json -d 0.2 >"$tmp/out" 2>"$tmp/err" &
mt=$!
wait_file "$tmp/out" 30
sleep 0.5
kill -STOP $mt
sleep 7
kill -CONT $mt
sleep 1.5
kill -TERM $mt
wait $mt
mt=
# the samples after the stall: none closer to the one before it than half the delay
n=$(jq -s 'length' "$tmp/out")
close=$(jq -s '[range(1; length) as $i | .[$i].ts - .[$i - 1].ts | select(. < 0.1)] | length' "$tmp/out")
echo "$n samples, $close under 0.1 s apart; stderr: $(cat "$tmp/err")"
[ "$close" -eq 0 ] || fail "$close of $n samples came under half the delay (0.1 s) after the one before"
grep -Eq '^memtop: [0-9]+ refreshes skipped after a [0-9.]+ s stall$' "$tmp/err" ||
	fail "no line says the refreshes were skipped: $(cat "$tmp/err")"
[ "$(grep -cv 'refreshes skipped' "$tmp/err")" -eq 0 ] || fail "stderr: $(cat "$tmp/err")"
