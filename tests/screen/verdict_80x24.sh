#!/bin/sh
# The verdict at 80x24: scenario cg40 (a cgroup growing 4 MB/s to its 200M limit beside a
# machine minutes from running short, tests/helpers/scenario_rec.c) replayed on the screen
# one sample at a time ("}"): at every sample whose verdict names a cause (JSON's
# verdict.cause is not "none"), the header shows "Verdict " and the start of that
# verdict's text, the forecast line beside it or not; and the table's column titles stay
# on one screen line at every sample, as causes and forecasts come and go.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

scenario cg40
n=$(wc -l <"$tmp/cg40.json")
jq -r '.verdict.cause' "$tmp/cg40.json" >"$tmp/causes"
jq -r '.verdict.text' "$tmp/cg40.json" >"$tmp/texts"
[ "$(grep -vc '^none$' "$tmp/causes")" -ge 5 ] ||
	fail "scenario cg40 gives fewer than 5 samples with a verdict's cause: $(sort "$tmp/causes" | uniq -c)"

tm_start 80 24 "'$MEMTOP' --replay '$tmp/cg40.rec'"
wait_for "REPLAY 1/$n" || fail "the replay did not start at its first sample"
title_line() { awk '/^ *PID / { print NR; exit }' "$1"; }
first= shown=0 wanted=0 k=1
while :; do
	wait_for "REPLAY $k/$n" >/dev/null || fail "} did not reach sample $k: $(screen_text | grep REPLAY)"
	screen_text >"$tmp/screen"
	grep -q "REPLAY $k/$n" "$tmp/screen" || fail "the screen moved off sample $k"
	t=$(title_line "$tmp/screen")
	[ -n "$t" ] || fail "sample $k: no column titles on screen: $(cat "$tmp/screen")"
	[ -n "$first" ] || first=$t
	[ "$t" = "$first" ] || fail "sample $k: the table's titles moved from line $first to line $t:
$(head -n 10 "$tmp/screen")"
	if [ "$(sed -n "${k}p" "$tmp/causes")" != none ]; then
		wanted=$((wanted + 1))
		want=$(sed -n "${k}p" "$tmp/texts" | cut -c1-40)
		line=$(grep '^Verdict ' "$tmp/screen")
		case $line in
		"Verdict $want"*) shown=$((shown + 1)) ;;
		*) echo "sample $k: no 'Verdict $want' on screen: $(sed -n 3,9p "$tmp/screen" | tr '\n' '|')" ;;
		esac
	fi
	[ $k -lt "$n" ] || break
	k=$((k + 1))
	tm send-keys '}'
done
echo "verdict on screen at $shown of $wanted samples with a cause; the titles on line $first at all $n samples"
[ "$shown" = "$wanted" ] || fail "the verdict was missing at $((wanted - shown)) of $wanted samples"
