#!/bin/sh
# The header's forecast and the verdict name the same limit: scenario close2 (two cgroups
# running to their 200M limits, the second overtaking the first by less than a quarter of
# its time, tests/helpers/scenario_rec.c) replayed at 160x60 one sample at a time ("}"):
# at every sample where both lines are on screen, the forecast's cgroup ("/a reaches its
# 200M limit in ...") is the verdict's subject (JSON's verdict.subject), before and after
# the second overtakes the first, and the first stays named while it does so by little.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
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

tm_start 160 60 "'$MEMTOP' --replay '$tmp/close2.rec'"
wait_for "REPLAY 1/$n" || fail "the replay did not start at its first sample"
both=0 close=0 k=1
while :; do
	wait_for "REPLAY $k/$n" >/dev/null || fail "} did not reach sample $k"
	screen_text >"$tmp/screen"
	grep -q "REPLAY $k/$n" "$tmp/screen" || fail "the screen moved off sample $k"
	fc=$(awk '/ reaches its .* limit in / { print $1; exit }' "$tmp/screen")
	vd=$(sed -n "${k}p" "$tmp/subjects")
	if [ -n "$fc" ] && grep -q '^Verdict ' "$tmp/screen"; then
		both=$((both + 1))
		[ "$fc" = "$vd" ] || fail "sample $k: the forecast names $fc, the verdict $vd:
$(sed -n 1,8p "$tmp/screen")"
		if [ "$(sed -n "${k}p" "$tmp/close")" = close ]; then
			close=$((close + 1))
			[ "$fc" = /a ] || fail "sample $k: /b overtook /a by little and is named"
		fi
	fi
	[ $k -lt "$n" ] || break
	k=$((k + 1))
	tm send-keys '}'
done
echo "forecast and verdict named the same cgroup at $both samples ($close where /b overtook /a by little)"
[ $both -ge 10 ] && [ $close -ge 3 ] || fail "too few samples with both lines: $both ($close close)"
