#!/bin/sh
# memtop-test: anywhere
# Time to exhaustion and its hold: scenario exhaust64 (3100 grower takes 64 MiB/s of a 32G
# machine with 26G of MemAvailable + SwapFree for 30 s, then holds its size, a refresh
# every 2 s, tests/helpers/scenario_machine.c), replayed with --json and on the screen one
# sample at a time. From the first refresh with 12 s of samples until the growth stops,
# JSON's system.exhaustion_s is (MemAvailable + SwapFree) / the growth of that refresh
# (within 1 %), and the header says "memory lasts ~N min at this rate" with N that time
# in minutes and "next OOM victim: 3100 (grower)", the largest; before, no forecast. Once
# the growth stops the last forecast is held 20 s with its age ("(as of A s ago)",
# exhaustion_s counting down from it), then the header says "memory steady now" for a
# minute, then nothing, and exhaustion_s is null from the hold's end (doc/forecasts.md).
# The real kernel's forecast: bpf/ and cli/fit tests run a live machine.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

scenario exhaust64
# the truth's growth, and when it stops: the first refresh after 0 where the room no
# longer shrinks
rate=$(jq -s '-.[0].room_rate_kb_s' "$tmp/exhaust64.truth")
stop=$(jq -s '[.[] | select(.t > 0 and .room_rate_kb_s == 0)][0].t' "$tmp/exhaust64.truth")
[ "$rate" = 65536 ] && [ "$stop" = 30 ] || fail "scenario exhaust64 grows $rate KiB/s to $stop s"
# what each refresh should say: "T STATE SECS AGE" (STATE none, runs (made), held, steady)
jq -r --argjson r "$rate" --argjson stop "$stop" -s '
	(.[] | select(.t == $stop) | .room_kb / $r) as $last |
	.[] | if .t < 12 then "\(.t) none - -"
	elif .t <= $stop then "\(.t) runs \(.room_kb / $r) -"
	elif .t - $stop <= 20 then "\(.t) held \($last - (.t - $stop)) \(.t - $stop)"
	elif .t - $stop <= 80 then "\(.t) steady - -"
	else "\(.t) none - -" end' "$tmp/exhaust64.truth" >"$tmp/want"

# JSON: exhaustion_s as wanted, the next victim the grower while there is a forecast
jq -r '[(.system.exhaustion_s // "null"), (.system.next_victim_pid // "null")] | @tsv' \
	"$tmp/exhaust64.json" | paste -d ' ' "$tmp/want" - | awk '
	$2 == "runs" || $2 == "held" {
		made++
		d = $5 - $3; if (d < 0) d = -d
		if ($5 == "null" || d > $3 * 0.01) { print "t=" $1 ": exhaustion_s " $5 ", want " $3 " (" $2 ")"; bad = 1 }
		if ($6 != 3100) { print "t=" $1 ": next_victim_pid " $6 ", not 3100"; bad = 1 }
		next }
	$5 != "null" { print "t=" $1 ": exhaustion_s " $5 ", want null (" $2 ")"; bad = 1 }
	END { if (made < 15) { print "only " made " forecasts"; bad = 1 } exit bad }' >"$tmp/wrong" ||
	fail "JSON: $(head -5 "$tmp/wrong" | tr '\n' ' ')"
echo "JSON: exhaustion_s as the truth's at $(grep -c 'runs\|held' "$tmp/want") refreshes (made, then held), null at the others"

# the screen: the header's forecast line at each sample visited
# (from the first, and the one before the first forecast)
first=$(awk '$2 != "none" { print NR; exit }' "$tmp/want")
replay_start 120 40 exhaust64
replay_to $((first - 1))
replay_each
awk -v dir="$tmp" '
	{ line = "-"; f = dir "/screen." NR; seen = 0
	  while ((getline l <f) > 0) {
		seen = 1
		if (line == "-" && l ~ /^memory /) line = l }
	  close(f)
	  $0 = $0 "|" line }
	!seen { next }
	function wrong(why) { print "t=" w[1] ": " why ": " $2; bad = 1 }
	{ split($1, w, " "); v = "next OOM victim: 3100 \\(grower\\)$" }
	w[2] == "none" { if ($2 != "-") wrong("a forecast where none is made"); next }
	w[2] == "steady" { if ($2 !~ "^memory steady now; " v) wrong("not steady"); next }
	{ if ($2 !~ "^memory lasts ~[0-9]+ min at this rate" (w[2] == "held" ? " \\(as of " w[4] " s ago\\)" : "") "; " v) {
		wrong("not the " w[2] " forecast"); next }
	  n = $2; sub(/^memory lasts ~/, "", n); n += 0
	  d = n * 60 - w[3]; if (d < 0) d = -d
	  if (d > 30 + w[3] * 0.01) wrong(sprintf("not %.1f min", w[3] / 60))
	  shown++ }
	END { if (shown < 15) { print "only " shown " forecasts shown"; bad = 1 } exit bad }' FS='|' "$tmp/want" >"$tmp/wrong" ||
	fail "the header: $(head -5 "$tmp/wrong" | tr '\n' ' ')"
echo "the header: the forecast at all $(grep -c 'runs' "$tmp/want") refreshes of the growth, held $(grep -c held "$tmp/want"), steady $(grep -c steady "$tmp/want"), then gone"
