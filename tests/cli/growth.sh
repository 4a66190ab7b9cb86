#!/bin/sh
# Growth: 8002 grower grows 5 MiB a second from the start of a 32 s recording, a refresh
# a second, beside 8001 idle (scenario_rec grow5). Replayed with -o grow, on every line
# from 30 s seen on (a growth needs 30 s seen: doc/forecasts.md) its GROW
# (growth_kb_per_min) is within 20 % of the 300 MiB/min written and of its RSS's growth
# over the run as the scenario wrote it, it sorts first and the others follow by growth,
# down, and idle shows a growth of 0; before 30 s it has none. In batch text, GROW shows
# when asked for: '-' for a process seen for a second only.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario_opts="-o grow"
scenario grow5
judge grow5 "GROW of the grower and the idle one" '
	(map(select(.t.t >= 30)) | length) as $late |
	.[0].t as $t0 | ($t0.processes[] | select(.pid == 8002)) as $p0 |
	if $late < 3 then "only \($late) lines at 30 s or later" else
	.[] | . as $l | (.t.processes[] | select(.pid == 8002)) as $p |
	(.r.processes[] | select(.pid == 8002)) as $q |
	(.r.processes[] | select(.pid == 8001) | .growth_kb_per_min) as $idle |
	(if .t.t > $t0.t then ($p.rss_kb - $p0.rss_kb) * 60 / (.t.t - $t0.t) else 0 end) as $rss_growth |
	[(select(.t.t < 30 and $q.growth_kb_per_min != null) |
		"growth \($q.growth_kb_per_min) at \(.t.t) s"),
	 (select(.t.t >= 30 and ($q.growth_kb_per_min == null or
		(($q.growth_kb_per_min - 60 * $p.rate_kb_s) | absv) > 0.2 * 60 * $p.rate_kb_s or
		(($q.growth_kb_per_min - $rss_growth) | absv) > 0.2 * $rss_growth)) |
		"growth \($q.growth_kb_per_min) for \(60 * $p.rate_kb_s), RSS written \($rss_growth)/min"),
	 (select($q.rss_kb != $p.rss_kb) | "RSS \($q.rss_kb) for \($p.rss_kb)"),
	 (select(.t.t >= 30 and $idle != 0) | "idle grows \($idle)"),
	 (select(.t.t >= 30 and .r.processes[0].pid != 8002) |
		"\(.r.processes[0].pid) \(.r.processes[0].comm) first"),
	 ([.r.processes[] | .growth_kb_per_min // -1e18] as $g |
		select($g != ($g | sort | reverse)) | "not in order of growth: \($g)")] |
	.[] | "line \($l.i) (\($l.t.t) s): \(.);" end'

# in batch text, GROW shows when asked for: '-' for a process seen under 30 s
"$MEMTOP" --replay "$tmp/grow5.rec" -b -o grow --columns pid,rss,grow,grow10,comm >"$tmp/batch" ||
	fail "batch replay exited $?"
grep -q "GROW10" "$tmp/batch" || fail "no GROW10 title: $(head -20 "$tmp/batch")"
awk '/^memtop / { n++ } $NF == "grower" { print n, $3 }' "$tmp/batch" >"$tmp/grow"
[ "$(awk '$1 == 2 { print $2 }' "$tmp/grow")" = "-" ] ||
	fail "GROW of a process seen 1 s: $(awk '$1 == 2' "$tmp/grow")"
[ "$(tail -1 "$tmp/grow")" = "33 +300M" ] || fail "GROW after 32 s: $(tail -1 "$tmp/grow")"
echo "grow5: GROW 300 MiB/min from 30 s on, first with -o grow, idle 0; '-' when seen 1 s"
