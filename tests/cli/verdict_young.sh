#!/bin/sh
# memtop-test: anywhere
# Growth from what is known: 5120 python3 grow.py, 10 s old at the start, grows 4 MiB/s
# in /young (memory.max 1G), which runs out before the machine (scenario_rec young).
# On every line where /young's growth is known and the process is under GROW's 30 s, the
# verdict names /young's growth (+4.0M/s, the rate the scenario wrote) and the process,
# marked young with its age ("14 s old", within 2 s of the truth).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario young
rate=$(fmt_kb "$(head -1 "$tmp/young.truth" | jq '.cgroups[] | select(.path == "/young") | .rate_kb_s | round')")
judge young "the verdict while the process is young" '
	map(select((.t.processes[] | select(.pid == 5120) | .age_s) < 30 and
		   .cg["/young"].growth_kb_per_min != null)) as $y |
	if ($y | length) < 3 then
		"only \($y | length) lines where /young grows and 5120 is under 30 s old"
	else $y[] | (.t.processes[] | select(.pid == 5120) | .age_s) as $age |
	.r.verdict.text as $v |
	($v | [match("([0-9]+) s old")] | first | if . then .captures[0].string | tonumber
						  else null end) as $said |
	select(($v | contains("/young") and contains($rate) and contains("5120 grow.py") | not) or
	       $said == null or (($said - $age) | absv) > 2) |
	"line \(.i) (5120 grow.py \($age) s old, /young \($rate)): \($v);" end' --arg rate "+$rate/s"
echo "young: every verdict names /young's $rate and 5120 grow.py with its age"
