#!/bin/sh
# memtop-test: anywhere
# Rank by time: /leak (memory.max 200M) grows 4 MiB/s from 171 python3 leak.py, 38 s
# from its limit when the first forecast can be made, beside a machine whose
# MemAvailable runs out in ~11 min (scenario_rec cg40). From the first line with a
# forecast (the machine's or the cgroup's) to the last before the kill, the verdict names
# /leak, its time to the limit within 25 % of the truth (the limit less the usage the
# scenario wrote, over its growth) and its victim by its script, 171 leak.py.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario cg40
judge cg40 "the verdict from the first forecast on" '
	(map(select(.r.system.exhaustion_s != null or .cg["/leak"].limit_in_s != null)) |
	 .[0].i) as $first |
	if $first == null then "no line has a forecast" else
	.[] | select(.i >= $first) | . as $l | (.t.cgroups[] | select(.path == "/leak")) as $c |
	.r.verdict.text as $v | ($v | secs) as $said |
	select(.r.verdict.subject != "/leak" or ($v | contains("171 leak.py") | not) or
	       $said == null or (($said - $c.limit_in_s) | absv) > 0.25 * $c.limit_in_s) |
	"line \($l.i) (/leak \($c.limit_in_s) s from its limit): \($v);"
	end'
echo "cg40: from the first forecast on, every verdict names /leak, its time and 171 leak.py"
