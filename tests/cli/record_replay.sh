#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# --record FILE --json records 20 refreshes while children allocate and fault, and prints
# them; --replay FILE --json prints every one the same, field by field; -b and --begin /
# --end work on the replay; the recording is smaller than the JSON.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child="" grow=""
trap 'kill $child $grow 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

record_live 20 0.25 rec
"$MEMTOP" --replay "$tmp/rec" --json >"$tmp/replay.json" 2>"$tmp/err" ||
	fail "--replay --json exited $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "--replay said: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/replay.json")" = 20 ] || fail "the replay printed $(wc -l <"$tmp/replay.json") lines"
same_json "$tmp/live.json" "$tmp/replay.json"

# the children are in it, faulting and growing; the columns recorded are replayed (PSS)
jq -e --argjson p "$faulter" '[.processes[] | select(.pid == $p)] |
	length == 1 and .[0].rss_kb > 40000 and .[0].minflt_per_s > 500 and
	(.[0].pss_kb | type) == "number"' "$tmp/replay.json" | tail -n 1 | grep -q true ||
	fail "the faulting child is not in the replay as it ran: $(jq -c --argjson p "$faulter" '.processes[] | select(.pid == $p)' "$tmp/replay.json" | tail -n 1)"
first=$(jq --argjson p "$grow" '.processes[] | select(.pid == $p) | .rss_kb' "$tmp/replay.json" | head -n 1)
last=$(jq --argjson p "$grow" '.processes[] | select(.pid == $p) | .rss_kb' "$tmp/replay.json" | tail -n 1)
[ -n "$first" ] && [ "$last" -gt $((first + 16000)) ] || fail "the growing child went from '$first' to '$last' KiB"

# -b prints the same refreshes as text; --begin and --end select by the samples' times
"$MEMTOP" --replay "$tmp/rec" -b >"$tmp/batch" || fail "--replay -b exited $?"
[ "$(grep -c '^memtop ' "$tmp/batch")" = 20 ] || fail "-b printed $(grep -c '^memtop ' "$tmp/batch") refreshes"
t=$(sed -n 5p "$tmp/live.json" | jq '.ts | floor')
b=$(date -d "@$t" '+%Y-%m-%d %H:%M:%S')
e=$(date -d "@$((t + 1))" '+%H:%M:%S')
"$MEMTOP" --replay "$tmp/rec" --json --begin "$b" --end "$e" >"$tmp/one.json" ||
	fail "--begin '$b' --end '$e' exited $?"
n=$(wc -l <"$tmp/one.json")
[ "$n" -ge 1 ] && [ "$n" -le 6 ] || fail "--begin '$b' --end '$e' printed $n samples"
jq -e --argjson t "$t" '.ts >= $t and .ts <= $t + 1' "$tmp/one.json" | grep -qv true &&
	fail "--begin '$b' --end '$e' printed samples out of the range: $(jq .ts "$tmp/one.json")"

size=$(stat -c %s "$tmp/rec")
json=$(stat -c %s "$tmp/live.json")
[ "$size" -lt $((json / 10)) ] || fail "the recording takes $size bytes, the JSON $json"
echo "20 refreshes of $(jq '.processes | length' "$tmp/live.json" | tail -n 1) processes: $size bytes recorded, the same JSON replayed"

# bad input: one line, a non-zero exit
bad() {
	"$MEMTOP" "$@" -b >"$tmp/out" 2>"$tmp/err" && fail "memtop $* exited 0"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "memtop $* said: $(cat "$tmp/err")"
	grep -q '^memtop: ' "$tmp/err" || fail "memtop $*: $(cat "$tmp/err")"
}
bad --replay "$tmp/none"
bad --replay "$tmp"
bad --replay /etc/passwd
bad --replay "$tmp/rec" --begin 25:00
bad --replay "$tmp/rec" --begin "1999-01-01 00:00" --end "1999-01-01 00:01"
bad --record "$tmp/x" --replay "$tmp/rec"
bad --replay "$tmp/rec" --serve 9100
bad --record "$tmp/x" --openmetrics
# --openmetrics on a replay: one exposition, the last sample's, that promtool accepts
if command -v promtool >/dev/null; then
	"$MEMTOP" --replay "$tmp/rec" --openmetrics >"$tmp/om" || fail "--replay --openmetrics exited $?"
	promtool check metrics <"$tmp/om" >"$tmp/promtool" 2>&1 ||
		fail "promtool on a replay's exposition: $(head -5 "$tmp/promtool")"
	[ "$(grep -c '^memtop_memory_total_bytes ' "$tmp/om")" = 1 ] ||
		fail "not one exposition: $(grep -c '^memtop_memory_total_bytes ' "$tmp/om")"
	echo "ok --replay --openmetrics: one exposition, promtool passes"
fi
bad --keep 3
bad --record "$tmp/x" --keep 3
bad --record "$tmp/x" --record-max 12
bad --begin 10:00
printf "not a recording\n" >"$tmp/text"
bad --record "$tmp/text" -n 1
grep -qx "not a recording" "$tmp/text" || fail "--record changed a file that is not a recording"
