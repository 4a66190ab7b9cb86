#!/bin/sh
# memtop-test: sanitized
# The recorder killed with SIGKILL: the replay reads every whole sample; a file cut in the
# middle of its last sample replays the samples before it and says the tail was cut, with
# its offset; recording again to that file trims the cut tail and appends after it.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/blocks.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
rec=""
trap 'kill -9 $rec 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

"$MEMTOP" --record "$tmp/rec" -d 0.1 >"$tmp/out" 2>&1 &
rec=$!
i=0
until [ "$("$MEMTOP" --replay "$tmp/rec" -b 2>/dev/null | grep -c '^memtop ')" -ge 8 ]; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "the recording never held 8 samples: $(stat -c %s "$tmp/rec") bytes"
	sleep 0.1
done
kill -9 $rec
wait $rec 2>/dev/null
rec=""
"$MEMTOP" --replay "$tmp/rec" --json >"$tmp/all.json" 2>"$tmp/err" || fail "--replay exited $?: $(cat "$tmp/err")"
n=$(wc -l <"$tmp/all.json")
[ "$n" -ge 3 ] || fail "only $n samples replayed from $(stat -c %s "$tmp/rec") bytes"
jq -e . "$tmp/all.json" >/dev/null || fail "the replay's JSON does not parse"

# cut in the middle of the last sample, as a kill in the middle of a write leaves it
size=$(stat -c %s "$tmp/rec")
head -c $((size - 9)) "$tmp/rec" >"$tmp/cut"
"$MEMTOP" --replay "$tmp/cut" --json >"$tmp/cut.json" 2>"$tmp/err" || fail "--replay of the cut file exited $?"
[ "$(wc -l <"$tmp/cut.json")" = $((n - 1)) ] || fail "the cut file replayed $(wc -l <"$tmp/cut.json") of $((n - 1)) whole samples"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "cut short at offset [0-9]" "$tmp/err" ||
	fail "the cut tail was not said in one line: $(cat "$tmp/err")"
cmp -s "$tmp/cut.json" "$(head -n $((n - 1)) "$tmp/all.json" >"$tmp/head.json" && echo "$tmp/head.json")" ||
	fail "the cut file's samples differ from the whole file's"

# recording again to it: the cut tail goes, the new samples follow, all of it replays
"$MEMTOP" --record "$tmp/cut" -n 3 -d 0.1 || fail "recording after the cut exited $?"
"$MEMTOP" --replay "$tmp/cut" --json >"$tmp/again.json" 2>"$tmp/err" || fail "--replay exited $?"
[ -s "$tmp/err" ] && fail "the file recorded again still has a damage: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/again.json")" = $((n + 2)) ] || fail "$(wc -l <"$tmp/again.json") samples, not $((n + 2))"

# a flipped byte inside a block: a one-line error with its offset, the samples before it
cp "$tmp/rec" "$tmp/flip"
rec_flip "$tmp/flip" $((size - 40)) # (inverted: a byte already 0xff changes too)
"$MEMTOP" --replay "$tmp/flip" --json >"$tmp/flip.json" 2>"$tmp/err" && fail "a damaged block exited 0"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "damaged block at offset [0-9]*: checksum" "$tmp/err" ||
	fail "the damage was not said in one line: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/flip.json")" = $((n - 1)) ] || fail "$(wc -l <"$tmp/flip.json") samples before the damage, not $((n - 1))"
echo "$n samples after SIGKILL; cut and damaged files replay what comes before"
