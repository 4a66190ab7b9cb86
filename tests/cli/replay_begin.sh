#!/bin/sh
# memtop-test: anywhere
# A replay from --begin prints on its first line what the live run printed at that
# sample: its rates from the sample before it (interval_s, system and process rates), its
# growth from the samples before that; every line after it too, up to --end. A --begin
# at the first sample prints its rates since boot, as the live run's first line did.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child="" grow=""
trap 'kill $child $grow 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

record_live 16 0.4 begin

# at1 SECONDS: the local time (YYYY-MM-DD HH:MM:SS) of a wall-clock time in seconds
at1() { date -d "@$1" '+%Y-%m-%d %H:%M:%S'; }
# replay_from OUT ARGS...: replays the recording with ARGS into OUT; prints the live line
# (its number) that the replay's first line is, by its time
replay_from() {
	_out=$1
	shift
	"$MEMTOP" --replay "$tmp/rec" --json "$@" >"$_out" 2>"$tmp/err" ||
		fail "--replay $* exited $?: $(cat "$tmp/err")"
	[ -s "$tmp/err" ] && fail "--replay $* said: $(cat "$tmp/err")"
	[ -s "$_out" ] || fail "--replay $* printed nothing"
	_ts=$(head -n 1 "$_out" | jq .ts)
	jq .ts "$tmp/live.json" | grep -nxF -- "$_ts" | cut -d: -f1
}

# --begin in the middle: the first line is live line k > 1, the same on every field; so
# is every line after it
t=$(sed -n 9p "$tmp/live.json" | jq '.ts | floor')
k=$(replay_from "$tmp/mid.json" --begin "$(at1 "$t")")
[ -n "$k" ] && [ "$k" -gt 1 ] || fail "--begin $(at1 "$t"): the first line is live line '$k'"
head -n 1 "$tmp/mid.json" | jq -e '.interval_s < 5' >/dev/null ||
	fail "--begin: the first line's rates are since boot: $(head -n 1 "$tmp/mid.json" | jq -c '{interval_s, procs_interval_s}')"
sed -n "$k,\$p" "$tmp/live.json" >"$tmp/live_k.json"
same_json "$tmp/live_k.json" "$tmp/mid.json"
[ "$(wc -l <"$tmp/mid.json")" = $((17 - k)) ] ||
	fail "--begin at line $k printed $(wc -l <"$tmp/mid.json") lines"
jq -e --argjson p "$grow" '[.processes[] | select(.pid == $p)] | length == 1' \
	"$tmp/mid.json" | head -n 1 | grep -q true || fail "the growing child is not in the first line"
echo "ok --begin at live line $k: the same lines, rates and growth as live"

# --begin and --end: the lines between them, the same as live. --end at a whole second
# near line 14's time with no sample within 5 ms of it: the JSON's times are rounded to
# the millisecond, and a sample 0.3 ms past the second shows as on it (before --end by
# the JSON, after it by the recording)
e=$(jq -s '[.[].ts] as $t | [($t[13] | floor) + (0, -1, 1)] |
	map(select(. as $e | all($t[]; . <= $e - 0.005 or . >= $e + 0.005))) | first' "$tmp/live.json")
[ "$e" != null ] || fail "no second near line 14 without a sample within 5 ms of it"
k2=$(replay_from "$tmp/range.json" --begin "$(at1 "$t")" --end "$(at1 "$e")")
[ "$k2" = "$k" ] || fail "--begin with --end starts at live line '$k2', without it at $k"
n=$(jq --argjson e "$e" 'select(.ts <= $e) | .ts' "$tmp/live_k.json" | wc -l)
[ "$(wc -l <"$tmp/range.json")" = "$n" ] ||
	fail "--begin to --end printed $(wc -l <"$tmp/range.json") lines, live has $n between them"
same_json "$tmp/live_k.json" "$tmp/range.json" "$n"
echo "ok --begin to --end: $n lines, the same as live"

# --begin at the first sample: its rates since boot, as the live run's first line
t1=$(head -n 1 "$tmp/live.json" | jq '.ts | floor')
k1=$(replay_from "$tmp/first.json" --begin "$(at1 "$t1")")
[ "$k1" = 1 ] || fail "--begin at the first sample starts at live line '$k1'"
same_json "$tmp/live.json" "$tmp/first.json"
echo "ok --begin at the first sample: the same as live, rates since boot"
