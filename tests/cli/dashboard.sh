#!/bin/sh
# The Grafana dashboard (contrib/grafana-memtop.json) is valid JSON, and every metric its
# queries and annotations name is one memtop exports: in this machine's --openmetrics, or,
# for one that appears only after an event (an OOM kill), in doc/openmetrics.md.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
dash="$(dirname "$0")/../../contrib/grafana-memtop.json"
readme="$(dirname "$0")/../../doc/openmetrics.md"
jq -e '.panels | length > 0' "$dash" >/dev/null || fail "$dash is not a dashboard"
jq -r '.. | objects | .expr? // empty' "$dash" | grep -o 'memtop_[a-z0-9_]*' | sort -u >"$tmp/used"
[ -s "$tmp/used" ] || fail "no memtop metric in the dashboard's queries"
"$MEMTOP" --openmetrics | grep -v '^#' | grep -o '^memtop_[a-z0-9_]*' | sort -u >"$tmp/have"
grep -o '`memtop_[a-z0-9_]*`' "$readme" | tr -d '`' | sort -u >"$tmp/doc"
bad=0
while read -r m; do
	base=$(echo "$m" | sed 's/_\(bucket\|sum\|count\)$//')
	if grep -qx "$m" "$tmp/have"; then
		echo "$m: exported here"
	elif grep -qx "$m" "$tmp/doc" || grep -qx "$base" "$tmp/doc"; then
		echo "$m: in doc/openmetrics.md (not on this machine now)"
	else
		echo "FAIL: the dashboard queries $m, which memtop does not export"
		bad=1
	fi
done <"$tmp/used"
[ $bad = 0 ] || exit 1
