#!/bin/sh
# Forecasts end with their cause: /leak's grower, 171 python3 (leak.py), is killed by the
# OOM killer at 49.75 s; the cgroup holds 72K after, and nothing grows on the machine
# (scenario_rec killend). From the line that shows the kill on: no time to /leak's limit,
# no exhaustion_s (the truth has no growth), no "lasts", "short" or "reaches it" in the
# verdict, and the killed process is not named as growing. A forecast stood before.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario killend
judge killend "the lines from the kill on" '
	(map(select(.r.events | any(.type == "oom_kill" and .pid == 171))) | .[0].i) as $k |
	if $k == null then "no line shows the OOM kill of 171" elif
	(map(select(.i < $k and .cg["/leak"].limit_in_s != null)) | length) == 0 then
		"no line before the kill had a forecast for /leak"
	else .[] | select(.i >= $k) | . as $l | .r.verdict.text as $v |
	[(select(.cg["/leak"].limit_in_s != null) |
		"/leak limit_in_s \(.cg["/leak"].limit_in_s) with \(.cg["/leak"].nprocs) processes"),
	 (select(.r.system.exhaustion_s != null and .t.exhaustion_s == null) |
		"exhaustion_s \(.r.system.exhaustion_s) while nothing grows"),
	 (select($v | test("lasts|short|reaches it")) | "verdict \($v)"),
	 (select($v | test("171 leak.py") and test("grow|[+][0-9]")) |
		"the killed process named as growing: \($v)")] |
	.[] | "line \($l.i) (kill on line \($k)): \(.);" end'
echo "killend: from the kill on, no forecast and no verdict based on one"
