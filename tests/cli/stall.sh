#!/bin/sh
# A stall (SIGSTOP, a suspended VM, a swapped-out memtop) is not made up for by a burst of
# refreshes: the refreshes missed are skipped, one stderr line says how many (for a stall
# of 5 s or more), and from the moment it goes on memtop refreshes at the delay: no more
# samples than the delay fits in that time, and one more (a burst would be the 34 missed).
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
went_on=$(date +%s.%N)
kill -CONT $mt
sleep 1.5
stopped=$(date +%s.%N)
kill -TERM $mt
wait $mt
mt=
# the samples from the stall's end to the TERM (the clock of the samples' ts)
after=$(jq -s --argjson a "$went_on" --argjson b "$stopped" '[.[] | select(.ts >= $a and .ts <= $b)] |
	length' "$tmp/out")
most=$(awk -v a="$went_on" -v b="$stopped" 'BEGIN { printf "%d", (b - a) / 0.2 + 1 }')
echo "$after samples in the $(awk -v a="$went_on" -v b="$stopped" 'BEGIN { printf "%.1f", b - a }') s" \
	"after the stall (at most $most at -d 0.2); stderr: $(cat "$tmp/err")"
[ "$after" -ge 1 ] || fail "no sample after the stall"
[ "$after" -le "$most" ] || fail "$after samples after the stall, more than the $most the delay fits"
grep -Eq '^memtop: [0-9]+ refreshes skipped after a [0-9.]+ s stall$' "$tmp/err" ||
	fail "no line says the refreshes were skipped: $(cat "$tmp/err")"
[ "$(grep -cv 'refreshes skipped' "$tmp/err")" -eq 0 ] || fail "stderr: $(cat "$tmp/err")"
