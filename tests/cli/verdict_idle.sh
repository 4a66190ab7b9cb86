#!/bin/sh
# memtop-test: quiet
# The verdict on an idle machine: nothing is wrong. JSON verdict has cause "none", no
# subject, the text "nothing wrong: ... available" with MemAvailable and MemTotal as its
# evidence; batch text prints it as "Verdict: nothing wrong". Counted over the refreshes
# after the first (whose rates span the time since boot): most of them must say so, so a
# moment of another program's swapping does not fail the test, and each verdict is printed
# when they do not.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v jq >/dev/null || skip "needs jq"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

"$MEMTOP" --json -n 7 -d 0.5 >"$tmp/out" || fail "memtop --json exited $?"
jq -e -s 'all(.[]; (.verdict | type) == "object" and (.verdict.text | type) == "string" and
	(.verdict.cause | type) == "string" and (.verdict.evidence | type) == "object")' \
	"$tmp/out" >/dev/null || fail "a line lacks the verdict object: $(head -c 300 "$tmp/out")"
none=$(jq -s '[.[1:][] | .verdict | select(.cause == "none" and .subject == null and
	(.text | startswith("nothing wrong: ")) and .evidence.mem_available_kb > 0 and
	.evidence.mem_total_kb >= .evidence.mem_available_kb)] | length' "$tmp/out")
[ "$none" -ge 4 ] || fail "only $none of 6 refreshes say nothing is wrong:" \
	"$(jq -c '.verdict' "$tmp/out" | tr '\n' ' ')"
# the text's sizes are the evidence's
jq -e -s '[.[1:][] | .verdict | select(.cause == "none")][0] as $v |
	$v.text | test("^nothing wrong: [0-9.]+[KMGT] of [0-9.]+[KMGT] available$")' "$tmp/out" \
	>/dev/null || fail "the text is not 'nothing wrong: A of T available': $(tail -1 "$tmp/out" | jq -c .verdict)"

"$MEMTOP" -b -n 4 -d 0.5 >"$tmp/batch" || fail "memtop -b exited $?"
[ "$(grep -c '^Verdict: ' "$tmp/batch")" = 4 ] || fail "not one Verdict: line a refresh: $(grep -c '^Verdict: ' "$tmp/batch")"
[ "$(grep -c '^Verdict: nothing wrong: ' "$tmp/batch")" -ge 2 ] ||
	fail "batch text does not say nothing is wrong: $(grep '^Verdict' "$tmp/batch" | tr '\n' ' ')"
echo "idle: $none of 6 refreshes say $(jq -r -s '[.[1:][] | .verdict | select(.cause == "none")][0].text' "$tmp/out")"
