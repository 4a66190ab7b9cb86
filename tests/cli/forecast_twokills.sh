#!/bin/sh
# Fits that survive steps: /batch (300M); 6002 loader grows 4 MiB/s to the
# first OOM kill (47.98 s), then 6001 worker grows 4 MiB/s from its 100M to the second
# (97.96 s) (scenario_rec twokills). Between the two kills: from the third line after the
# first on, /batch's limit_in_s is within 25 % of the truth (the limit less the usage the
# scenario wrote, over 4 MiB/s; 0.1 s more for JSON's rounding) and its GROW/min within
# 25 % of the growth written; on no line does it say minutes while seconds are left.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario twokills
judge twokills "the forecast between the kills" '
	(map(select(.r.events | any(.type == "oom_kill" and .pid == 6002))) | .[0].i) as $k1 |
	(map(select(.r.events | any(.type == "oom_kill" and .pid == 6001))) | .[0].i) as $k2 |
	if $k1 == null or $k2 == null then "the kills show on lines \($k1) and \($k2)" else
	.[] | select(.i >= $k1 and .i < $k2) | . as $l |
	(.t.cgroups[] | select(.path == "/batch")) as $c | .cg["/batch"] as $g |
	[(select(.i >= $k1 + 3 and ($g.limit_in_s == null or
		(($g.limit_in_s - $c.limit_in_s) | absv) > 0.25 * $c.limit_in_s + 0.1)) |
		"limit_in_s \($g.limit_in_s) for \($c.limit_in_s)"),
	 (select(.i >= $k1 + 3 and ($g.growth_kb_per_min == null or
		(($g.growth_kb_per_min - 60 * $c.rate_kb_s) | absv) > 15 * $c.rate_kb_s)) |
		"growth_kb_per_min \($g.growth_kb_per_min) for \(60 * $c.rate_kb_s)"),
	 (select($g.limit_in_s != null and $g.limit_in_s >= 60 and $c.limit_in_s < 60) |
		"limit_in_s \($g.limit_in_s) for \($c.limit_in_s) s")] |
	.[] | "line \($l.i) (first kill on line \($k1)): \(.);" end'
echo "twokills: from the third line after the first kill, the time to the second is right"
