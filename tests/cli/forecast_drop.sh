#!/bin/sh
# Fits that survive steps: 7001 leaky takes 4 MiB/s of a 4G machine's
# MemAvailable + SwapFree (~4 min left) when 7100 builder exits at 61 s and frees 1.35G
# (~9 min left) (scenario_rec drop). From the line where the builder is gone, the
# machine's exhaustion_s is null or within 25 % of the truth (MemAvailable + SwapFree as
# written, over 4 MiB/s), and from the third line on it is there and within 25 %. A
# forecast stood before.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario drop
judge drop "the machine's forecast after the drop" '
	(map(select(.t.processes | any(.pid == 7100) | not)) | .[0].i) as $k |
	if $k == null then "7100 builder never exits" elif
	(map(select(.i < $k and .r.system.exhaustion_s != null)) | length) == 0 then
		"no line before the drop had a forecast"
	else .[] | select(.i >= $k) | .r.system.exhaustion_s as $e | .t.exhaustion_s as $x |
	select(if $e == null then .i >= $k + 3 else (($e - $x) | absv) > 0.25 * $x end) |
	"line \(.i) (builder gone on line \($k)): exhaustion_s \($e) for \($x);" end'
echo "drop: from the third line after the drop, the machine's forecast is right"
