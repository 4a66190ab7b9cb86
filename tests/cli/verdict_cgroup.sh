#!/bin/sh
# memtop-test: anywhere
# The verdict on a memory cgroup near its limit: 7301 grower grows 16 MiB a second for
# 16 s (256 MiB) in /verdict, limited to 300 MiB, then holds it (85 %) to the end at 60 s,
# while 7400 builder in the root cgroup grows 4 MiB/s, so that the machine has a forecast
# too (scenario_rec cg300, a refresh a second). Replayed with --cgroups, from the first
# line where /verdict's usage is 80 % of its limit on, the verdict is cause "cgroup_limit"
# with the cgroup's path as its subject, its limit and its share as written, and the
# grower named in its evidence as the process that grows in it, ahead of the machine's
# own forecast: on every such line, among them those with the grower holding, the last of
# which come after the cgroup's own forecast has ended (held 20 s: doc/forecasts.md), where
# its share alone (80 %) makes it the verdict. The first line, with nothing grown yet,
# does not name /verdict.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario cg300
judge cg300 "the verdict from 80 % on" '
	map((.t.cgroups[] | select(.path == "/verdict")) as $c |
	    select($c.usage_kb >= 0.8 * $c.limit_kb) | . + {c: $c}) as $near |
	($near | map(select(.t.processes[] | select(.pid == 7301) | .rate_kb_s == 0)) |
	 length) as $holding |
	if $holding < 30 then "only \($holding) lines at 80 % with the grower holding" else
	$near[] | .c as $c | (100 * $c.usage_kb / $c.limit_kb) as $pct |
	.r.verdict as $v | $v.evidence as $e |
	select($v.cause != "cgroup_limit" or $v.subject != "/verdict" or
	       $e.limit_kb != $c.limit_kb or $e.limit_kb != 307200 or $e.usage_pct == null or
	       $e.usage_pct < 80 or $e.usage_pct >= 100 or (($e.usage_pct - $pct) | absv) > 0.1 or
	       $e.pid != 7301 or ($v.text | startswith("/verdict 8") and contains(" of 300M") | not) or
	       .r.system.exhaustion_s == null) |
	"line \(.i) (\(.t.t) s, /verdict at \($pct) %, the machine lasts \(.r.system.exhaustion_s) s): \($v | tojson);"
	end'
judge cg300 "the first verdict" '.[0] | select(.r.verdict.subject == "/verdict") |
	"line 1 already names /verdict: \(.r.verdict.text)"'
echo "cg300: from 80 % on, the verdict names /verdict and 7301 grower: $(tail -1 "$tmp/cg300.json" | jq -r .verdict.text)"
