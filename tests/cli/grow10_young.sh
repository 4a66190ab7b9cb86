#!/bin/sh
# GROW10 is null until ten minutes of samples exist: 2345 leaky, an hour old
# when the recording starts, grows 1 MiB a minute for 11 minutes (scenario_rec grow10).
# While the replay holds less than ten minutes of its samples, its growth10_kb_per_min
# is null (not GROW's value over the shorter span); from 600 s on it is there and within
# 10 % of the growth written. GROW (growth_kb_per_min) is there from 30 s on, so the
# null is GROW10's own.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario grow10
judge grow10 "GROW10 over the run" '
	(map(select(.t.t >= 600)) | length) as $late |
	if $late < 5 then "only \($late) lines at 600 s or later" else
	.[] | . as $l | (.t.processes[] | select(.pid == 2345)) as $p |
	(.r.processes[] | select(.pid == 2345)) as $q |
	[(select(.t.t < 599 and $q.growth10_kb_per_min != null) |
		"growth10_kb_per_min \($q.growth10_kb_per_min) after \(.t.t) s"),
	 (select(.t.t >= 600 and ($q.growth10_kb_per_min == null or
		(($q.growth10_kb_per_min - 60 * $p.rate_kb_s) | absv) > 6 * $p.rate_kb_s)) |
		"growth10_kb_per_min \($q.growth10_kb_per_min) for \(60 * $p.rate_kb_s) after \(.t.t) s"),
	 (select(.t.t >= 30 and $q.growth_kb_per_min == null) |
		"growth_kb_per_min null after \(.t.t) s")] |
	.[] | "line \($l.i): \(.);" end'
echo "grow10: GROW10 null for the first ten minutes, then the growth written"
