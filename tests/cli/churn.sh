#!/bin/sh
# Processes that start and exit while memtop reads /proc are skipped, never fatal: with
# fork/exit churn going on, 30 refreshes at -d 0.1 all come out as valid JSON and memtop
# exits 0; batch text does the same.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
churners=
trap 'for p in $churners; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

for _ in 1 2 3; do
	sh -c 'while :; do /bin/true; /bin/true; done' &
	churners="$churners $!"
done
sleep 0.2
before=$(awk '$1 == "processes" { print $2 }' /proc/stat)
"$MEMTOP" --json -n 30 -d 0.1 >"$tmp/out" 2>"$tmp/err" || fail "memtop --json exited $?: $(cat "$tmp/err")"
"$MEMTOP" -b -n 10 -d 0.1 >"$tmp/batch" 2>>"$tmp/err" || fail "memtop -b exited $?: $(cat "$tmp/err")"
after=$(awk '$1 == "processes" { print $2 }' /proc/stat)
[ $((after - before)) -gt 200 ] || fail "too little churn to test: $((after - before)) forks"
[ -s "$tmp/err" ] && fail "memtop wrote to stderr: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/out")" = 30 ] || fail "expected 30 JSON lines, got $(wc -l <"$tmp/out")"
jq -e '.processes | length > 0' "$tmp/out" >/dev/null || fail "a line is not valid JSON or has no processes"
[ "$(grep -c '^memtop ' "$tmp/batch")" = 10 ] || fail "expected 10 batch refreshes"
echo "$((after - before)) processes came and went during 40 refreshes"
