#!/bin/sh
# PSI totals: memtop_memory_pressure_{some,full}_seconds_total are counters equal to the
# total= of /proc/pressure/memory's some and full lines in seconds, between the file read
# before and after memtop; --json has the microseconds (psi_some_total_us) the same way;
# and a recording replays them.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ -r /proc/pressure/memory ] || {
	"$MEMTOP" --openmetrics | grep -q pressure_some_seconds && fail "PSI totals without PSI"
	skip "no /proc/pressure/memory (PSI off in this kernel)"
}
command -v jq >/dev/null || skip "needs jq"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

total() { awk -v k="$1" '$1 == k { for (i = 2; i <= NF; i++) if ($i ~ /^total=/) print substr($i, 7) }' /proc/pressure/memory; }
# between LOW HIGH VALUE
between() { awk -v l="$1" -v h="$2" -v v="$3" 'BEGIN { exit !(v >= l && v <= h) }'; }

sb=$(total some) fb=$(total full)
"$MEMTOP" --openmetrics >"$tmp/om" || fail "memtop --openmetrics exited $?"
sa=$(total some) fa=$(total full)
grep -q '^# TYPE memtop_memory_pressure_some_seconds_total counter$' "$tmp/om" ||
	fail "no counter family memtop_memory_pressure_some_seconds_total"
some=$(awk '$1 == "memtop_memory_pressure_some_seconds_total" { print $2 }' "$tmp/om")
full=$(awk '$1 == "memtop_memory_pressure_full_seconds_total" { print $2 }' "$tmp/om")
between "$(awk -v v="$sb" 'BEGIN { printf "%.6f", v / 1e6 }')" \
	"$(awk -v v="$sa" 'BEGIN { printf "%.6f", v / 1e6 }')" "$some" ||
	fail "some: $some s, the file $sb us before and $sa us after"
between "$(awk -v v="$fb" 'BEGIN { printf "%.6f", v / 1e6 }')" \
	"$(awk -v v="$fa" 'BEGIN { printf "%.6f", v / 1e6 }')" "$full" ||
	fail "full: $full s, the file $fb us before and $fa us after"
echo "OpenMetrics: some $some s (file $sb..$sa us), full $full s (file $fb..$fa us)"

sb=$(total some) fb=$(total full)
"$MEMTOP" --json -n 1 >"$tmp/j" || fail "memtop --json exited $?"
sa=$(total some) fa=$(total full)
js=$(jq .system.psi_some_total_us "$tmp/j") jf=$(jq .system.psi_full_total_us "$tmp/j")
[ "$js" -ge "$sb" ] && [ "$js" -le "$sa" ] || fail "JSON some $js us, the file $sb..$sa"
[ "$jf" -ge "$fb" ] && [ "$jf" -le "$fa" ] || fail "JSON full $jf us, the file $fb..$fa"
echo "JSON: some $js us, full $jf us"

# recorded, and replayed as recorded
"$MEMTOP" --record "$tmp/r.rec" -n 2 -d 0.2 --json >"$tmp/live" 2>/dev/null || fail "--record failed"
"$MEMTOP" --replay "$tmp/r.rec" --json >"$tmp/replay" || fail "--replay failed"
live=$(tail -n 1 "$tmp/live" | jq -c '.system | [.psi_some_total_us, .psi_full_total_us]')
back=$(tail -n 1 "$tmp/replay" | jq -c '.system | [.psi_some_total_us, .psi_full_total_us]')
[ "$live" = "$back" ] && [ "$live" != "[null,null]" ] || fail "recorded $live, replayed $back"
echo "recorded and replayed: $back"
