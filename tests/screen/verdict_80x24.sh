#!/bin/sh
# memtop-test: anywhere
# The verdict at 80x24: scenario cg40 (a cgroup growing 4 MB/s to its 200M limit beside a
# machine minutes from running short, tests/helpers/scenario_rec.c) replayed on the screen
# one sample at a time ("}"): at every sample whose verdict names a cause (JSON's
# verdict.cause is not "none"), the header shows "Verdict " and the start of that
# verdict's text, the forecast line beside it or not; and the table's column titles stay
# on one screen line at every sample, as causes and forecasts come and go.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/replay.inc"
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

title_line() { awk '/^ *PID / { print NR; exit }' "$1"; }
first= shown=0 wanted=0
sample() {
	t=$(title_line "$tmp/screen")
	[ -n "$t" ] || fail "sample $1: no column titles on screen: $(cat "$tmp/screen")"
	[ -n "$first" ] || first=$t
	[ "$t" = "$first" ] || fail "sample $1: the table's titles moved from line $first to line $t:
$(head -n 10 "$tmp/screen")"
	if [ "$(sed -n "${1}p" "$tmp/causes")" != none ]; then
		wanted=$((wanted + 1))
		want=$(sed -n "${1}p" "$tmp/texts" | cut -c1-40)
		line=$(grep '^Verdict ' "$tmp/screen")
		case $line in
		"Verdict $want"*) shown=$((shown + 1)) ;;
		*) echo "sample $1: no 'Verdict $want' on screen: $(sed -n 3,9p "$tmp/screen" | tr '\n' '|')" ;;
		esac
	fi
}
replay_start 80 24 cg40
replay_each sample
echo "verdict on screen at $shown of $wanted samples with a cause; the titles on line $first at all $n samples"
[ "$shown" = "$wanted" ] || fail "the verdict was missing at $((wanted - shown)) of $wanted samples"
