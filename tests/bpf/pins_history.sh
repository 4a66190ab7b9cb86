#!/bin/sh
# memtop-test: timeout 240
# A memtop started beside a recording service with --pin opens with the service's
# history: while a child grows by 32 MiB/s, a memtop started 20 s later prints on its
# first JSON line the time to exhaustion (which takes 12 s of samples to make) within 25 %
# of (MemAvailable + SwapFree) / the rate at which /proc/meminfo shows them fall, where one with
# --no-bpf (no service's programs, no history) prints null; and the screen, refreshing
# every 30 s, shows the forecast before its own samples could make one (5 of them, 120 s:
# the service's hour is taken at its second or third refresh, whatever the machine's
# speed).
. "$(dirname "$0")/lib.inc"
. "$(dirname "$0")/pins.inc"
need_bpf
avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
[ "$avail" -gt $((8 * 1024 * 1024)) ] || skip "needs 8 GiB available, has $avail KiB"

svc_start
"$HELPERS/grow_child" 32 150 >"$WORK/grow" &
KID=$!
KIDS="$KIDS $KID"
wait_ready "$WORK/grow" || fail "grow_child never got ready"
page_kb=$(($(getconf PAGESIZE) / 1024))
rss_at() { awk -v p="$page_kb" '{ print $2 * p }' "/proc/$KID/statm"; }
room() { awk '$1 == "MemAvailable:" || $1 == "SwapFree:" { s += $2 } END { print s }' /proc/meminfo; }
# 20 s of growth in the service's recording; the room's fall meanwhile
r0=$(rss_at) m0=$(room) t0=$(date +%s.%N)
grown() { [ "$(rss_at)" -ge $((r0 + 20 * 32768)) ]; }
eventually 60 grown || fail "the child did not grow 640 MiB"
rate=$(awk -v a="$m0" -v b="$(room)" -v s="$t0" -v e="$(date +%s.%N)" \
	'BEGIN { printf "%.0f", (a - b) / (e - s) }')

"$MEMTOP" --json -n 1 >"$OUT" 2>"$WORK/err" || fail "memtop exited $?: $(cat "$WORK/err")"
jq -e --arg r "BPF programs of memtop $SVC" '.bpf.reason == $r' "$OUT" >/dev/null ||
	fail "not beside the service: $(jq -c .bpf "$OUT")"
jq -r '[.system.exhaustion_s // "null", .system.mem_available_kb + .system.swap_free_kb] | @tsv' \
	"$OUT" | awk -v rate="$rate" '{ want = $2 / rate
	if ($1 == "null" || $1 < want * 0.75 || $1 > want * 1.25) {
		print "FAIL: first line exhaustion_s " $1 ", (MemAvailable + SwapFree) / their fall " want; exit 1 }
	printf "first line: exhaustion_s %s, (MemAvailable + SwapFree) / their fall %.0f\n", $1, want }' ||
	exit 1
"$MEMTOP" --json -n 1 --no-bpf >"$WORK/alone" 2>"$WORK/err" || fail "memtop --no-bpf exited $?"
[ "$(jq '.system.exhaustion_s' "$WORK/alone")" = null ] ||
	fail "memtop --no-bpf forecasts on its first line: $(jq -c .system "$WORK/alone")"

tm_start 120 40 "$MEMTOP" -d 30
wait_for "Tasks" || fail "memtop did not start"
wait_for "memory lasts" 95 || fail "the screen has no forecast: $(screen_text | head -8)"
echo "beside service $SVC: the forecast on the first line and the first screens (the room falls $rate KiB/s)"
