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

# provisionable from a file: a datasource variable that every query uses (no ${DS_...}
# input, which only the import dialog fills), and __requires naming Prometheus
jq -e '.templating.list[] | select(.name == "datasource" and .type == "datasource" and
	.query == "prometheus")' "$dash" >/dev/null || fail "no datasource variable"
grep -q 'DS_PROMETHEUS' "$dash" && fail "an import-only \${DS_PROMETHEUS} is left"
jq -e '[.. | objects | select(has("datasource")) | .datasource | objects | .uid] |
	length > 0 and all(. == "${datasource}")' "$dash" >/dev/null ||
	fail "a datasource other than \${datasource}"
jq -e '.__requires | any(.type == "datasource" and .id == "prometheus") and
	any(.type == "grafana")' "$dash" >/dev/null || fail "__requires lacks grafana or prometheus"
# PSI (a share, 0 to 1) on a panel of its own, in percent: no other query shares its axis
jq -e '[.panels[] | select(any(.targets[]; .expr | test("pressure")))] | length == 1 and
	(.[0] | .fieldConfig.defaults.unit == "percentunit" and
	all(.targets[]; .expr | test("pressure")))' "$dash" >/dev/null ||
	fail "PSI shares a panel's axis with other figures"
jq -e '[.panels[].gridPos | "\(.x),\(.y)"] | length == (unique | length)' "$dash" >/dev/null ||
	fail "two panels in one place"
echo "datasource variable, __requires, PSI on its own axis"
