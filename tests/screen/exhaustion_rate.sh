#!/bin/sh
# memtop-test: anywhere
# The machine's forecast at a known rate: scenario exhaust256 (3200 grower takes 256 MiB/s
# of a 128G machine with 96G of MemAvailable + SwapFree for 40 s, a refresh a second,
# tests/helpers/scenario_machine.c), replayed with --json and on the screen one sample at
# a time. From the first refresh with 12 s of samples (doc/forecasts.md) until the growth
# stops, JSON's exhaustion_s is the truth, (mem_available_kb + swap_free_kb) / 256 MiB/s
# at that refresh, within 0.5 % (or a second), and null before; the header shows "memory
# lasts ~N min at this rate" in every one of those refreshes, N that time in minutes.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

scenario exhaust256
# the truth's growth and its stop (the first refresh after 0 where the room holds); a
# line a refresh to its stop: "T SECS", SECS the truth ("-": no forecast yet)
rate=$(jq -s '-.[0].room_rate_kb_s' "$tmp/exhaust256.truth")
stop=$(jq -s '[.[] | select(.t > 0 and .room_rate_kb_s == 0)][0].t' "$tmp/exhaust256.truth")
[ "$rate" = 262144 ] && [ "$stop" = 40 ] || fail "scenario exhaust256 grows $rate KiB/s to $stop s"
jq -r --argjson r "$rate" --argjson stop "$stop" 'select(.t <= $stop) |
	"\(.t) \(if .t < 12 then "-" else .room_kb / $r end)"' "$tmp/exhaust256.truth" >"$tmp/want"
last=$(wc -l <"$tmp/want")

# JSON, to the stop
jq -r '.system.exhaustion_s // "null"' "$tmp/exhaust256.json" | head -n "$last" |
	paste -d ' ' "$tmp/want" - | awk '
	$2 == "-" { if ($3 != "null") { print "t=" $1 ": exhaustion_s " $3 " before 12 s"; bad = 1 } next }
	{ n++; d = $3 - $2; if (d < 0) d = -d
	  if ($3 == "null" || (d > 1 && d > $2 * 0.005)) { print "t=" $1 ": exhaustion_s " $3 ", truth " $2; bad = 1 } }
	END { if (n < 20) { print "only " n " refreshes"; bad = 1 } exit bad }' >"$tmp/wrong" ||
	fail "JSON: $(head -5 "$tmp/wrong" | tr '\n' ' ')"
echo "JSON: exhaustion_s the truth's at all $(grep -vc ' -$' "$tmp/want") refreshes from 12 s to the stop at $stop s"

# the screen, from the sample before the first forecast to the stop: the header's
# forecast line at each sample visited
first=$(awk '$2 != "-" { print NR; exit }' "$tmp/want")
replay_start 160 40 exhaust256
replay_to $((first - 1))
replay_each "" "$last"
awk -v dir="$tmp" '
	{ line = "-"; f = dir "/screen." NR; seen = 0
	  while ((getline l <f) > 0) {
		seen = 1
		if (line == "-" && l ~ /^memory /) line = l }
	  close(f)
	  $0 = $0 "|" line }
	!seen { next }
	{ split($1, w, " ") }
	w[2] == "-" { if ($2 != "-") { print "t=" w[1] ": " $2 " before 12 s"; bad = 1 } next }
	{ n = $2; sub(/^memory lasts ~/, "", n); n += 0
	  d = n * 60 - w[2]; if (d < 0) d = -d
	  if ($2 !~ /^memory lasts ~[0-9]+ min at this rate; /) { print "t=" w[1] ": " $2; bad = 1 }
	  else if (d > 30 + w[2] * 0.005) { printf "t=%s: %s, truth %.1f min\n", w[1], $2, w[2] / 60; bad = 1 }
	  else shown++ }
	END { print shown; exit bad }' FS='|' "$tmp/want" >"$tmp/wrong" ||
	fail "the header: $(head -5 "$tmp/wrong" | tr '\n' ' ')"
echo "the header: the forecast in all $(cat "$tmp/wrong") refreshes from 12 s to the stop"
