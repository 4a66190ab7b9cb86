#!/bin/sh
# Drill-down overhead: what the detail screen's sampler costs the process it watches.
# `dd_grow loop 256` (tests/helpers, frame pointers) maps 256 MiB, touches every page and
# unmaps, over and over, printing the CPU time per page fault of each pass. memtop runs
# in tmux on it (-p PID -d 1) and its detail screen is opened (Enter) and closed (Esc)
# in turn, PHASE seconds each, PAIRS times; the passes of each phase are sorted out by
# when they were printed. Prints medians of ns per fault with the screen closed and
# open, the median over pairs of the slowdown (a closed phase and the open one after
# it are seconds apart, so slow drifts of the machine cancel out), the same for closed
# phases before and after one that was open (closing returns to the baseline), and
# memtop's own CPU while open and closed.
# UNWIND=dwarf (the default: stacks copied and unwound in memtop with CFI) or UNWIND=fp
# (frame pointers walked in the kernel) picks how the sampler takes stacks; in dwarf mode
# the line "memtop unwinding" gives the CPU memtop's reader spent reading and unwinding
# the copied stacks, per second open, and the ring buffer's bandwidth (from a memtop
# --stacks --json run of PHASE seconds on the same loop).
# Usage: sh bench/detail.sh [PAIRS]   (default 8; PHASE=3 seconds). Needs root and BPF;
# says it skipped (exit 0) without them.
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
PAIRS=${1:-8}
PHASE=${PHASE:-3}
UNWIND=${UNWIND:-dwarf}
MEMTOP=$PWD/build/memtop
DD=$PWD/build/tests/dd_grow
[ -x "$MEMTOP" ] && [ -x "$DD" ] || { echo "detail.sh: build first (make all)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "detail.sh: needs tmux" >&2; exit 1; }
if ! err=$("$MEMTOP" --stacks $$ -d 0.1 2>&1 >/dev/null); then
	echo "detail.sh: skipped, the sampler cannot run here: $err"
	exit 0
fi

tmp=$(mktemp -d /tmp/memtop-bench.XXXXXX)
sock=memtop-bench-$$ dd=""
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	if [ -n "$dd" ]; then
		kill "$dd" 2>/dev/null || true
	fi
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# dd_grow's passes, each line stamped with the monotonic time it was read at
"$DD" loop 256 | while read -r ns; do
	echo "$(cut -d' ' -f1 /proc/uptime) $ns"
done >"$tmp/passes" &
sleep 0.5
dd=$(pgrep -f "^$DD loop 256" | head -1)
[ -n "$dd" ] || { echo "detail.sh: dd_grow did not start" >&2; exit 1; }

links() { ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'anon_inode:bpf_link' || true; }
tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 \
	"echo \$\$ >'$tmp/mt'; exec '$MEMTOP' -d 1 -p $dd --unwind $UNWIND"
i=0
until [ -s "$tmp/mt" ] && tmux -L "$sock" capture-pane -p | grep -q dd_grow; do
	i=$((i + 1))
	[ $i -le 100 ] || { echo "detail.sh: memtop did not start" >&2; exit 1; }
	sleep 0.1
done
mt=$(cat "$tmp/mt")
base=$(links "$mt")
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; } # memtop's utime+stime, ticks
now() { cut -d' ' -f1 /proc/uptime; }

# phase STATE: PHASE seconds with the screen in STATE; appends "STATE start end ticks"
phase() {
	if [ "$1" = open ]; then
		tmux -L "$sock" send-keys Enter
		want=$((base + 4)) # the sampler's 4 programs
	else
		tmux -L "$sock" send-keys Escape
		want=$base
	fi
	i=0
	while [ "$(links "$mt")" -ne $want ]; do
		i=$((i + 1))
		[ $i -le 100 ] || { echo "detail.sh: the screen did not $1 (links $(links "$mt"))" >&2; exit 1; }
		sleep 0.05
	done
	sleep 0.3 # a pass that straddles the change is left out
	t0=$(now) c0=$(cpu "$mt")
	sleep "$PHASE"
	echo "$1 $t0 $(now) $(($(cpu "$mt") - c0))" >>"$tmp/phases"
}

phase closed
for p in $(seq "$PAIRS"); do
	phase open
	phase closed
done

echo "unwind: $UNWIND"
if [ "$UNWIND" = dwarf ] && command -v jq >/dev/null; then
	"$MEMTOP" --stacks "$dd" -d "$PHASE" --json >"$tmp/st.json"
	jq -r --arg s "$PHASE" '"memtop unwinding:               \(.unwind_cpu_s / ($s | tonumber) * 100 | . * 10 | round / 10) % of a core; \(.ring_records) stacks, \(.ring_bytes / ($s | tonumber) / 1e6 | . * 10 | round / 10) MB/s through the ring, \(.ring_dropped) dropped, \(.unwind_cache_hits) walks known"' "$tmp/st.json"
fi
hz=$(getconf CLK_TCK)
awk -v hz="$hz" -v phase="$PHASE" "$MEDIAN_AWK"'
	NR == FNR { st[NR] = $1; t0[NR] = $2; t1[NR] = $3; ticks[NR] = $4; np = NR; next }
	{ ts[++n] = $1; ns[n] = $2 }
	END {
		for (p = 1; p <= np; p++) {
			k = 0
			for (i = 1; i <= n; i++)
				if (ts[i] > t0[p] && ts[i] <= t1[p])
					v[++k] = ns[i]
			med[p] = k ? median(v, k) : 0
			cnt[p] = k
			if (st[p] == "open") { o[++no] = med[p]; oc[no] = ticks[p] } else { c[++nc] = med[p]; cc[nc] = ticks[p] }
		}
		for (p = 2; p <= np; p += 2) {
			slow[p / 2] = (med[p] / med[p - 1] - 1) * 100
			back[p / 2] = (med[p + 1] / med[p - 1] - 1) * 100
			added[p / 2] = med[p] - med[p - 1]
		}
		m = np / 2 - 0.5
		printf "%d pairs of %g s phases, %d passes of 65536 faults in all\n", m, phase, n
		printf "ns per fault, closed:            %.0f (phase medians %.0f..%.0f)\n", median(c, nc), c[1], c[nc]
		for (i = 1; i <= no; i++) oo[i] = o[i]
		printf "ns per fault, open:              %.0f\n", median(oo, no)
		printf "slowdown while open:             %+.1f %% (median over pairs; %+.0f ns per fault)\n", median(slow, m), median(added, m)
		printf "closed after open vs before:     %+.1f %% (median over pairs)\n", median(back, m)
		for (i = 1; i <= no; i++) ot[i] = oc[i]
		for (i = 1; i <= nc; i++) ct[i] = cc[i]
		printf "memtop CPU, open / closed:       %.1f %% / %.1f %% of a core\n",
			median(ot, no) / hz / phase * 100, median(ct, nc) / hz / phase * 100
	}' "$tmp/phases" "$tmp/passes"
