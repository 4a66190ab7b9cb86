#!/bin/sh
# memtop-test: anywhere
# Growth you can trust: 50 short-lived processes, each growing 200 MiB in 2 s and exiting
# (two at a time, each seen in 5 refreshes half a second apart: samples enough for a fit,
# over less than GROW's 30 s), beside 4001 steady growing 1 MiB/s for the whole 100 s run
# (scenario_rec bursts). Replayed with -o grow: the steady grower heads the list on every
# line from 30 s seen on, its growth_kb_per_min within 20 % of the growth written; no
# short-lived one ever has a growth_kb_per_min or is marked a leak suspect
# (leak_suspect), in any line.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario_opts="-o grow"
scenario bursts
judge bursts "the bursts seen" '
	[.[].r.processes[] | select(.comm == "burst") | .pid] | unique | length |
	select(. < 50) | "only \(.) of the 50 bursts in the replay"'
judge bursts "the bursts' growth" '
	.[] | . as $l | .r.processes[] | select(.comm == "burst") |
	select(.growth_kb_per_min != null or .leak_suspect != null) |
	"line \($l.i) (\($l.t.t) s): burst \(.pid) growth \(.growth_kb_per_min) suspect \(.leak_suspect);"'
judge bursts "the head of -o grow" '
	map(select(.t.t >= 30)) as $late |
	if ($late | length) < 100 then "only \($late | length) lines at 30 s or later" else
	$late[] | (.t.processes[] | select(.pid == 4001) | 60 * .rate_kb_s) as $want |
	(.r.processes[] | select(.pid == 4001) | .growth_kb_per_min) as $got |
	select(.r.processes[0].pid != 4001 or $got == null or
	       (($got - $want) | absv) > 0.2 * $want) |
	"line \(.i) (\(.t.t) s): head \(.r.processes[0].pid) \(.r.processes[0].comm), 4001 grows \($got) for \($want);"
	end'
echo "bursts: 50 bursts, none with a growth; 4001 steady heads -o grow from 30 s on"
