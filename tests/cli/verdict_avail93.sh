#!/bin/sh
# memtop-test: anywhere
# Words that match the state: 93 % of 8G available and a process leaking
# 4 MiB/s, no cgroup limit (scenario_rec avail93): memory lasts ~31 min, not short. No
# line's verdict says "short", and every line with the machine's trend (exhaustion_s)
# says it as a trend: "shrinks" and the rate the scenario wrote (4.0M/s).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario avail93
rate=$(fmt_kb "$(head -1 "$tmp/avail93.truth" | jq '0 - .room_rate_kb_s | round')")
judge avail93 "the words of the verdict" '
	(.[] | select(.r.verdict.text | test("short")) | "line \(.i): \(.r.verdict.text);"),
	(map(select(.r.system.exhaustion_s != null)) as $f |
	 if ($f | length) < 10 then "only \($f | length) lines have the machine'"'"'s trend" else
	 $f[] | select(.r.verdict.text | contains("shrinks") and contains($rate) | not) |
	 "line \(.i) (shrinks \($rate)): \(.r.verdict.text);" end)' --arg rate "$rate/s"
echo "avail93: no line says short; each with the trend says it shrinks $rate/s"
