#!/bin/sh
# memtop-test: anywhere
# The verdict on a system-wide leak: 9100 leaky grows 64 MiB a second from the start of a
# 37 s recording, a refresh a second, on a machine with 10G available (scenario_rec
# leak64). Once the forecast has its 20 s and the process its growth (30 s of samples),
# memory lasts under an hour at that rate, and the verdict names the process: on every
# line from 30 s on, cause "system_leak", subject 9100, its growth within 25 % of the
# 64 MiB/s written (GROW is over the last minute, which it spent growing), and the
# forecast in the evidence, within 25 % of the time the scenario's MemAvailable lasts.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario leak64
judge leak64 "the verdict from 30 s on" '
	map(select(.t.t >= 30)) as $late |
	if ($late | length) < 5 then "only \($late | length) lines at 30 s or later" else
	$late[] | (.t.processes[] | select(.pid == 9100) | .rate_kb_s) as $rate |
	.t.exhaustion_s as $left | .r.verdict as $v | $v.evidence as $e |
	select($v.cause != "system_leak" or $v.subject != 9100 or $e.pid != 9100 or
	       $e.comm != "leaky" or ($v.text | startswith("9100 leaky grows +") | not) or
	       $e.growth_kb_per_s == null or (($e.growth_kb_per_s - $rate) | absv) > 0.25 * $rate or
	       $e.exhaustion_s == null or $e.exhaustion_s <= 0 or $e.exhaustion_s >= 3600 or
	       (($e.exhaustion_s - $left) | absv) > 0.25 * $left) |
	"line \(.i) (\(.t.t) s, \($rate) KiB/s, \($left) s left): \($v | tojson);" end'
echo "leak64: from 30 s on, the verdict is 9100 leaky's leak: $(tail -1 "$tmp/leak64.json" | jq -r .verdict.text)"
