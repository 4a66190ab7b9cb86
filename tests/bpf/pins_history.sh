#!/bin/sh
# memtop-test: quiet
# memtop-test: timeout 300
# A memtop started beside a recording service with --pin opens with the service's
# history: while a child grows by 32 MiB/s, a memtop started 20 s later prints on its
# first JSON line the time to exhaustion (which takes 12 s of samples to make) within 25 %
# of (MemAvailable + SwapFree) / the rate at which /proc/meminfo shows them fall (the median
# of half-second intervals'), where one with --no-bpf (no service's programs, no history)
# prints null; and the screen, at -d 600, shows the forecast before its own samples could
# make one (2 of them, 10 minutes: the service's hour is taken by a refresh as soon as it
# is read, not a delay later). Then
# the graphs: two memtops started together at -d 3 on 80x24 ASCII graph
# screens, one beside the service, one --no-bpf. While a memtop's history spans less than
# a minute its graphs' window is a minute and the lines start part way across; the one
# beside the service holds the service's samples since its start (20 s and more: the
# growth above), so its memory graph's line starts a quarter of the width (15 s) or more
# left of the --no-bpf one's, made of its own samples, which starts two thirds or more
# across (it would start there only past 20 s of its own).
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
# 20 s of growth in the service's recording; the room sampled every half second meanwhile,
# its rate of fall the median of the intervals' (memory another process frees once, as a
# test before this one's ends, moves one interval, not the rate)
r0=$(rss_at)
i=0
until [ "$(rss_at)" -ge $((r0 + 20 * 32768)) ]; do
	i=$((i + 1))
	[ $i -le 120 ] || fail "the child did not grow 640 MiB"
	echo "$(date +%s.%N) $(room)" >>"$WORK/room"
	sleep 0.5
done
rate=$(awk 'NR > 1 { printf "%.0f\n", (m - $2) / ($1 - t) } { t = $1; m = $2 }' "$WORK/room" |
	sort -n | awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }')

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

tm_start 120 40 "$MEMTOP" -d 600
wait_for "Tasks" || fail "memtop did not start"
wait_for "memory lasts" 55 || fail "the screen has no forecast: $(screen_text | head -8)"
tm_kill

# line_from FILE: the column (1 = the axis's first) where the memory graph's first series
# point is, "-" where none, and the plot's width; of an ASCII graph screen
line_from() {
	awk '/^Memory / { m = 1; next } m && / now$/ { exit }
		m && /\|/ { s = substr($0, index($0, "|") + 1); w = length(s)
			for (j = 1; j <= w; j++)
				if (substr(s, j, 1) ~ /[*+ox]/) { if (!f || j < f) f = j; break } }
		END { print (f ? f : "-"), w + 0 }' "$1"
}
for k in warm cold; do
	a=
	[ "$k" = warm ] || a=--no-bpf
	tmux -L "memtop-test-$$-$k" -f /dev/null new-session -d -x 80 -y 24 \
		"env LANG=C LC_ALL=C '$MEMTOP' -d 3 $a"
	KIDS="$KIDS $(tmux -L "memtop-test-$$-$k" display -p '#{pid}')" # killed on exit
done
for k in warm cold; do
	TMUX_SOCK="memtop-test-$$-$k"
	wait_for "PID USER" || fail "the $k memtop did not start"
	tm send-keys g
	wait_for "Memory and activity over time" || fail "g did not open the $k graph screen"
done
i=0
while :; do
	TMUX_SOCK="memtop-test-$$-warm" screen_text >"$WORK/warm"
	TMUX_SOCK="memtop-test-$$-cold" screen_text >"$WORK/cold"
	set -- $(line_from "$WORK/warm") $(line_from "$WORK/cold")
	[ "$1" != - ] && [ "$3" != - ] && [ $(($1 + $2 / 4)) -le "$3" ] && break
	i=$((i + 1))
	[ $i -le 300 ] || break
	sleep 0.1
done
for k in warm cold; do
	tmux -L "memtop-test-$$-$k" kill-server 2>/dev/null
done
TMUX_SOCK="memtop-test-$$"
cat "$WORK/warm" "$WORK/cold"
[ "$3" != - ] || fail "the --no-bpf memtop's memory graph shows no line"
[ "$1" != - ] && [ $(($1 + $2 / 4)) -le "$3" ] ||
	fail "beside the service the memory graph starts at column $1 of $2, the --no-bpf one's at $3: not the service's samples"
[ "$3" -ge $(($4 * 2 / 3)) ] ||
	fail "the --no-bpf memtop's line starts at column $3 of $4: the comparison proves nothing"
echo "beside service $SVC: the forecast on the first line and the first screens (the room falls $rate KiB/s);" \
	"the graphs from column $1 of $2 (--no-bpf: $3 of $4)"
