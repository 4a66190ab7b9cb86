#!/bin/sh
# memtop-test: anywhere
# The verdict in OpenMetrics names what JSON's verdict names: the replay of scenario cg40
# (tests/helpers/scenario_rec.c: /leak, memory.max 200M, 4 MiB/s from 171 python3, beside
# a machine ~11 min from exhaustion) printed with --openmetrics at its last step has
# memtop_verdict_info{cause="cgroup_limit",subject="/leak"} and
# memtop_verdict_limit_in_seconds equal to that line's /leak limit_in_s in JSON; promtool
# (where installed) accepts the exposition.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario cg40
"$MEMTOP" --replay "$tmp/cg40.rec" --openmetrics --cgroups >"$tmp/om" ||
	fail "memtop --replay --openmetrics exited $?"
last=$(tail -1 "$tmp/cg40.json")
cause=$(echo "$last" | jq -r .verdict.cause)
subject=$(echo "$last" | jq -r .verdict.subject)
[ "$cause/$subject" = "cgroup_limit//leak" ] ||
	fail "the last line's verdict is $cause on $subject: $(echo "$last" | jq -c .verdict)"
grep -qx "memtop_verdict_info{cause=\"$cause\",subject=\"$subject\"} 1" "$tmp/om" ||
	fail "no verdict_info for $cause on $subject: $(grep verdict "$tmp/om" | tr '\n' ' ')"
want=$(echo "$last" | jq '.cgroups[] | select(.path == "/leak") | .limit_in_s')
got=$(awk '$1 == "memtop_verdict_limit_in_seconds" { print $2 }' "$tmp/om")
[ -n "$got" ] && [ "$want" != null ] &&
	awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d < 0.01 && d > -0.01) }' ||
	fail "memtop_verdict_limit_in_seconds '$got' for /leak's limit_in_s $want"
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmp/om" >"$tmp/lint" 2>&1 || fail "promtool: $(head -5 "$tmp/lint")"
fi
echo "openmetrics: verdict $cause on $subject, limit in $got s as JSON's limit_in_s $want"
