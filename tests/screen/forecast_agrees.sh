#!/bin/sh
# memtop-test: anywhere
# The header's forecast and the verdict name the same limit: scenario close2 (two cgroups
# running to their 200M limits, the second overtaking the first by less than a quarter of
# its time, tests/helpers/scenario_rec.c) replayed at 160x60 one sample at a time ("}"):
# at every sample where both lines are on screen, the forecast's cgroup ("/a reaches its
# 200M limit in ...") is the verdict's subject (JSON's verdict.subject), before and after
# the second overtakes the first, and the first stays named while it does so by little.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

scenario close2
n=$(wc -l <"$tmp/close2.json")
jq -r '.verdict.subject // "-"' "$tmp/close2.json" >"$tmp/subjects"
# the samples where /b runs out sooner than /a, by less than a quarter: /a stays named
jq -r '[.cgroups[] | select(.path == "/a" or .path == "/b") | {(.path): .limit_in_s}] | add |
	if .["/a"] and .["/b"] and .["/b"] < .["/a"] and .["/b"] >= .["/a"] * 0.75 then "close" else "-" end' \
	"$tmp/close2.json" >"$tmp/close"
[ "$(grep -c close "$tmp/close")" -ge 3 ] ||
	fail "scenario close2 has fewer than 3 samples where /b overtakes /a by little"

both=0 close=0
sample() {
	fc=$(awk '/ reaches its .* limit in / { print $1; exit }' "$tmp/screen")
	vd=$(sed -n "${1}p" "$tmp/subjects")
	if [ -n "$fc" ] && grep -q '^Verdict ' "$tmp/screen"; then
		both=$((both + 1))
		[ "$fc" = "$vd" ] || fail "sample $1: the forecast names $fc, the verdict $vd:
$(sed -n 1,8p "$tmp/screen")"
		if [ "$(sed -n "${1}p" "$tmp/close")" = close ]; then
			close=$((close + 1))
			[ "$fc" = /a ] || fail "sample $1: /b overtook /a by little and is named"
		fi
	fi
}
replay_start 160 60 close2
replay_each sample
echo "forecast and verdict named the same cgroup at $both samples ($close where /b overtook /a by little)"
[ $both -ge 10 ] && [ $close -ge 3 ] || fail "too few samples with both lines: $both ($close close)"
