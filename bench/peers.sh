#!/bin/sh
# memtop against its peers, top (procps) and htop, with NPROCS idle processes added to the
# machine: CPU per refresh, CPU of a one-refresh run, time to the first screen, RSS. Every
# program runs in turn in each round, so the machine's noise falls on all of them alike.
# Prints figures; it is not a test.
#
#   sh bench/peers.sh                      (make bench runs it too, with the defaults)
#   NPROCS=10000 ROUNDS=3 sh bench/peers.sh
#   MEMTOP_ARGS=--no-bpf sh bench/peers.sh
#   BASE=/tmp/old/build/memtop NPROCS=10000 sh bench/peers.sh   (memtop against an earlier build)
#
# Knobs (environment): NPROCS (idle processes to add, 2000), TOTAL (instead of NPROCS: add
# what takes /proc to TOTAL processes, none if it has them already), ROUNDS (5), REFRESHES
# (refreshes in the long run, 11), DELAY (seconds between refreshes, 0.2: at least 0.2 and
# in tenths, as htop takes it), MEMTOP (binary, build/memtop), MEMTOP_ARGS (extra memtop
# options), TOP, HTOP (the peers' binaries), RAW (a file to copy the raw rows to), BASE
# (another memtop binary, an earlier build: its -b and its screen run in each round too,
# right after memtop's, and print as "base").
#
# Each round runs, one after the other:
#   memtop -b, top -b, memtop --json   -n 1, then -n REFRESHES, output to /dev/null, CPU
#                                      from wait4() (bench/idle_procs rusage);
#   memtop's screen, htop's screen     in a tmux pane of 120x40, 1 and REFRESHES refreshes:
#                                      memtop with -n, which exits; htop, which has no -n,
#                                      is killed with SIGKILL while asleep after its R-th
#                                      refresh, counted by its sleeps (idle_procs tty), and
#                                      its CPU comes from wait4() too;
#   the first screen of memtop, top    in a tmux pane of 120x40: from the fork of the
#   and htop                           program until the pane shows its table (a line of
#                                      titles PID USER..., a process below it), the pane
#                                      polled while it writes (idle_procs screen); and the time
#                                      it had spent by then waiting for a CPU, which other
#                                      work on the machine adds to the wall time.
# CPU per refresh = (CPU(REFRESHES) - CPU(1)) / (REFRESHES - 1): start-up is left out;
# us/proc = CPU per refresh / processes in /proc. Medians over the rounds, min..max their
# spread; a ratio is the median over the rounds of the ratio in each round. Peak RSS is the
# largest ru_maxrss (start-up included), end RSS the median VmRSS at the end of the long
# runs. Rounds in which other work on the machine took the number of processes more than
# 5 % (or 50) away from the start are left out (and said so).
set -eu

cd "$(dirname "$0")/.."
. bench/median.inc
NPROCS=${NPROCS:-2000}
TOTAL=${TOTAL:-}
ROUNDS=${ROUNDS:-5}
REFRESHES=${REFRESHES:-11}
DELAY=${DELAY:-0.2}
MEMTOP=${MEMTOP:-build/memtop}
MEMTOP_ARGS=${MEMTOP_ARGS:-}
TOP=${TOP:-top}
HTOP=${HTOP:-htop}
RAW=${RAW:-}
BASE=${BASE:-}
HELPER=build/bench/idle_procs

die() {
	echo "peers.sh: $*" >&2
	exit 1
}
if [ "$REFRESHES" -lt 2 ] || [ "$ROUNDS" -lt 1 ] || [ "$NPROCS" -lt 0 ]; then
	die "REFRESHES must be at least 2, ROUNDS at least 1, NPROCS at least 0"
fi
# htop takes its delay in tenths of a second; its start-up naps 75 ms, which the refresh
# counter must not take for the sleep after a refresh (it looks for half a delay)
tenths=$(awk -v d="$DELAY" 'BEGIN { t = d * 10; if (t == int(t) && t >= 2) print t }')
[ -n "$tenths" ] || die "DELAY must be in tenths of a second, 0.2 at least (it is $DELAY)"
half_ms=$((tenths * 50))
[ -x "$MEMTOP" ] || die "$MEMTOP is missing: run make build/memtop (or make bench)"
for p in "$TOP" "$HTOP" tmux; do
	command -v "$p" >/dev/null 2>&1 || die "no $p on this machine: sh scripts/deps.sh installs it"
done
MEMTOP=$(cd "$(dirname "$MEMTOP")" && pwd)/$(basename "$MEMTOP") # the panes start elsewhere
if [ -n "$BASE" ]; then
	[ -x "$BASE" ] || die "BASE $BASE is not a program"
	BASE=$(cd "$(dirname "$BASE")" && pwd)/$(basename "$BASE")
fi

# TOTAL: as many idle processes as take /proc to TOTAL processes (none if it has them)
if [ -n "$TOTAL" ]; then
	set -- /proc/[0-9]*
	NPROCS=$((TOTAL > $# ? TOTAL - $# : 0))
fi

# room for NPROCS more processes: pids, threads, memory (about 120 kB each, page tables and
# kernel stack)
threads=$(awk '{ split($4, a, "/"); print a[2] }' /proc/loadavg)
pid_max=$(cat /proc/sys/kernel/pid_max)
threads_max=$(cat /proc/sys/kernel/threads-max)
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ $((threads + NPROCS + 1000)) -le "$pid_max" ] ||
	die "$NPROCS more processes do not fit under pid_max $pid_max ($threads threads now)"
[ $((threads + NPROCS + 1000)) -le "$threads_max" ] ||
	die "$NPROCS more processes do not fit under threads-max $threads_max ($threads threads now)"
[ $((NPROCS * 200)) -le $((avail_kb / 2)) ] ||
	die "$NPROCS more processes need about $((NPROCS / 5)) MB; $((avail_kb / 1024)) MB available"

mkdir -p build/bench # the helper builds in a fraction of a second: always build it
${CC:-cc} -O2 -Wall -Wextra -Werror -D_GNU_SOURCE bench/idle_procs.c -o "$HELPER"
HELPER=$(pwd)/$HELPER

tmp=$(mktemp -d /tmp/memtop-peers.XXXXXX)
sock=memtop-peers-$$
spawner=
. bench/idle.inc
on_exit_clean

before=$(count_procs)
idle=0 spawn_s=0
if [ "$NPROCS" -gt 0 ]; then
	started=$(date +%s)
	"$HELPER" spawn "$NPROCS" >"$tmp/ready" &
	spawner=$!
	i=0
	until grep -q '^ready' "$tmp/ready" 2>/dev/null; do
		if ! kill -0 "$spawner" 2>/dev/null || [ $i -ge 1200 ]; then
			die "the idle processes did not start"
		fi
		sleep 0.1
		i=$((i + 1))
	done
	spawn_s=$(($(date +%s) - started))
	idle=$(count_idle "$spawner")
	[ "$idle" -ge $((NPROCS * 95 / 100)) ] || die "only $idle of $NPROCS idle processes are in /proc"
fi
nprocs=$(count_procs)

# the peers' settings files: none (an empty home), so a user's own stay out of the figures
mkdir -p "$tmp/home"
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home"

# batch LABEL N CMD...: CMD with output to /dev/null; appends "$r PROCS cpu LABEL N utime_us
# stime_us maxrss_kb end_rss_kb" to $tmp/raw (r: the round; PROCS: processes in /proc)
batch() {
	label=$1 n=$2 procs=$(count_procs)
	shift 2
	# shellcheck disable=SC2046 # the helper prints five numbers
	set -- $("$HELPER" rusage "$@")
	[ "$4" = 0 ] || die "$label -n $n exited with status $4"
	echo "$r $procs cpu $label $n $1 $2 $3 $5" >>"$tmp/raw"
}

. bench/pane.inc

# interactive LABEL N WANT CMD...: CMD in a pane, N refreshes; WANT is the status it must end
# with (137: killed after N refreshes). Appends the row as batch does, and its wall time
interactive() {
	label=$1 n=$2 want=$3 procs=$(count_procs)
	shift 3
	kill_at=0
	[ "$want" = 137 ] && kill_at=$n
	# shellcheck disable=SC2046 # the helper writes seven numbers
	set -- $(pane "'$HELPER' tty '$tmp/out' $kill_at $half_ms $*")
	[ "$4" = "$want" ] || die "$label ($n refreshes) ended with status $4, not $want"
	echo "$r $procs cpu $label $n $1 $2 $3 $5 $7" >>"$tmp/raw"
}

# first_screen LABEL CMD...: the time from the start of CMD to its first screen, in a pane
first_screen() {
	label=$1 procs=$(count_procs)
	shift
	# shellcheck disable=SC2046
	set -- $(pane "'$HELPER' screen '$tmp/out' $*")
	[ "$1" != -1.0 ] || die "$label never showed its table"
	echo "$r $procs first $label $1 $2 $3 $4" >>"$tmp/raw"
}

# memtop's own count, to check it sees the idle processes, and its BPF line
# shellcheck disable=SC2086 # MEMTOP_ARGS is a list of options
"$MEMTOP" $MEMTOP_ARGS -b -n 1 >"$tmp/one" 2>/dev/null || true
seen=$(sed -n 's/.* \([0-9][0-9]*\) processes,.*/\1/p' "$tmp/one")
bpfline=$(grep -m1 '^BPF' "$tmp/one" || true)
swap=$(awk '/^SwapTotal/ { t = $2 } /^SwapFree/ { f = $2 }
	END { print t ? (t - f) " kB of swap in use" : "no swap" }' /proc/meminfo)

echo "memtop and its peers: $nprocs processes in /proc ($idle idle ones added in ${spawn_s} s," \
	"$before before); memtop sees ${seen:-?}"
echo "$(nproc) CPUs, $(uname -r); ${bpfline:-BPF off}; $swap"
echo "$("$TOP" -V 2>/dev/null | head -n 1); $("$HTOP" --version | head -n 1);" \
	"memtop${MEMTOP_ARGS:+ $MEMTOP_ARGS}"
echo "$ROUNDS rounds of 1 and $REFRESHES refreshes at a delay of $DELAY s"
M="'$MEMTOP' $MEMTOP_ARGS -d $DELAY"
B="'$BASE' $MEMTOP_ARGS -d $DELAY"
H="'$(command -v "$HTOP")' -d $tenths"
T="'$(command -v "$TOP")' -d $DELAY"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	[ -t 2 ] && printf '  round %d/%d\r' "$r" "$ROUNDS" >&2
	for n in 1 "$REFRESHES"; do
		# shellcheck disable=SC2086
		batch memtop "$n" "$MEMTOP" $MEMTOP_ARGS -b -n "$n" -d "$DELAY"
	done
	for n in 1 "$REFRESHES"; do
		[ -z "$BASE" ] || batch base "$n" "$BASE" $MEMTOP_ARGS -b -n "$n" -d "$DELAY"
	done
	for n in 1 "$REFRESHES"; do
		batch top "$n" "$TOP" -b -n "$n" -d "$DELAY"
	done
	for n in 1 "$REFRESHES"; do
		# shellcheck disable=SC2086
		batch json "$n" "$MEMTOP" $MEMTOP_ARGS --json -n "$n" -d "$DELAY"
	done
	for n in 1 "$REFRESHES"; do
		interactive screen "$n" 0 "$M -n $n"
	done
	for n in 1 "$REFRESHES"; do
		[ -z "$BASE" ] || interactive bscreen "$n" 0 "$B -n $n"
	done
	for n in 1 "$REFRESHES"; do
		interactive htop "$n" 137 "$H"
	done
	first_screen screen "$M"
	first_screen top "$T"
	first_screen htop "$H"
	r=$((r + 1))
done
[ -t 2 ] && printf '              \r' >&2
if [ -n "$spawner" ] && [ "$(count_idle "$spawner")" -ne "$idle" ]; then
	echo "peers.sh: warning: $idle idle processes at the start," \
		"$(count_idle "$spawner") at the end" >&2
fi
[ -z "$RAW" ] || cp "$tmp/raw" "$RAW"

# rows of raw, in run order, each with its round and the processes in /proc at its start:
# "ROUND PROCS cpu LABEL N utime_us stime_us maxrss_kb end_rss_kb [wall_ms]" and
# "ROUND PROCS first LABEL ms polls run_ms wait_ms". A round is left out where other work on
# the machine had moved the number of processes by more than 5 % (or 50) from the start.
awk -v N="$REFRESHES" -v R="$ROUNDS" -v D="$DELAY" -v P0="$nprocs" -v BASE="$BASE" "$MEDIAN_AWK"'
# spread(v, n, fmt): the n values v[1..n] as "median (min..max)"; the median also in med
function spread(v, n, fmt,    i, lo, hi, c) {
	lo = 1e18; hi = -1e18
	for (i = 1; i <= n; i++) { c[i] = v[i]; if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
	med = median(c, n)
	return sprintf(fmt " (" fmt ".." fmt ")", med, lo, hi)
}
# over the rounds kept: the values f(x, r) of label x
function per_refresh(x, r) { return (many[x, r] - one[x, r]) / (N - 1) }
function collect(what, x, v,    i, r) {
	for (i = 1; i <= nk; i++) {
		r = kept[i]
		if (what == "per") v[i] = per_refresh(x, r)
		else if (what == "user") v[i] = (manyu[x, r] - oneu[x, r]) / (N - 1)
		else if (what == "sys") v[i] = (manys[x, r] - ones[x, r]) / (N - 1)
		else if (what == "us/proc") v[i] = per_refresh(x, r) * 1000 / procs[r]
		else if (what == "one") v[i] = one[x, r]
		else if (what == "endrss") v[i] = endrss[x, r]
		else if (what == "htop wall") v[i] = (walln[x, r] - wall1[x, r]) / (N - 1)
		else if (what == "first") v[i] = fwall[x, r]
		else if (what == "first run") v[i] = frun[x, r]
		else if (what == "first wait") v[i] = fwait[x, r]
		else if (what == "first net") v[i] = fwall[x, r] - fwait[x, r]
	}
}
function ratio(title, what, a, b, target,    i, va, vb, q) {
	collect(what, a, va); collect(what, b, vb)
	for (i = 1; i <= nk; i++) q[i] = va[i] / vb[i]
	printf "%-42s %s%s\n", title, spread(q, nk, "%.2f"), target ? "  (" target ")" : ""
}
{
	r = $1
	if (!(r in lo) || $2 < lo[r]) lo[r] = $2
	if ($2 > hi[r]) hi[r] = $2
}
$3 == "cpu" {
	x = $4; cpu = ($6 + $7) / 1000.0
	if ($5 == 1) {
		one[x, r] = cpu; oneu[x, r] = $6 / 1000.0; ones[x, r] = $7 / 1000.0; wall1[x, r] = $10
	} else {
		many[x, r] = cpu; manyu[x, r] = $6 / 1000.0; manys[x, r] = $7 / 1000.0
		endrss[x, r] = $9 / 1024.0; walln[x, r] = $10
	}
	if ($8 > peak[x, r]) peak[x, r] = $8
}
$3 == "first" { x = $4; fwall[x, r] = $5; frun[x, r] = $7; fwait[x, r] = $8; polls += $6; npolls++ }
END {
	# rounds kept: those whose runs all saw within 5 % (or 50) the number of processes there
	# were when the measures began
	tol = P0 * 0.05 > 50 ? P0 * 0.05 : 50
	for (r = 1; r <= R; r++)
		if (lo[r] >= P0 - tol && hi[r] <= P0 + tol) {
			kept[++nk] = r; procs[r] = (lo[r] + hi[r]) / 2; pc[nk] = procs[r]
		}
	if (!nk) {
		printf "peers.sh: no round kept: the number of processes moved from %d\n", P0 >"/dev/stderr"
		exit 1
	}
	printf "\n%d of %d rounds kept, at %s processes in /proc\n", nk, R, spread(pc, nk, "%.0f")

	nl = split(BASE != "" ? "memtop base top json screen bscreen htop" : "memtop top json screen htop",
		labels, " ")
	name["memtop"] = "memtop -b"; name["json"] = "memtop --json"; name["top"] = "top -b"
	name["screen"] = "memtop (screen)"; name["htop"] = "htop (screen)"
	name["base"] = "base -b"; name["bscreen"] = "base (screen)"
	printf "\nCPU, ms (median over rounds, min..max)\n"
	printf "%-16s %-22s %5s %5s %9s %-22s %8s %7s\n", "", "per refresh", "user", "sys",
		"us/proc", "one-refresh run", "peak RSS", "end RSS"
	for (l = 1; l <= nl; l++) {
		x = labels[l]
		collect("per", x, v); s = spread(v, nk, "%.1f")
		collect("user", x, v); u = median(v, nk)
		collect("sys", x, v); sy = median(v, nk)
		collect("us/proc", x, v); up = median(v, nk)
		collect("one", x, v); o = spread(v, nk, "%.0f")
		collect("endrss", x, v); e = median(v, nk)
		pk = 0
		for (i = 1; i <= nk; i++) if (peak[x, kept[i]] > pk) pk = peak[x, kept[i]]
		printf "%-16s %-22s %5.1f %5.1f %9.1f %-22s %5.1f MB %4.1f MB\n", name[x], s, u, sy, up, o,
			pk / 1024.0, e
		endm[x] = e; peakm[x] = pk / 1024.0
	}
	# to check the count of htop'"'"'s refreshes: it refreshes a delay after the end of the refresh
	# before, so a refresh takes the delay, its work and any wait for a CPU, never less than
	# the delay; a one-refresh run, killed in the sleep after the first screen, used about
	# the CPU htop had used by its first screen
	collect("htop wall", "htop", v); hw = median(v, nk)
	collect("one", "htop", v); h1 = median(v, nk)
	collect("first run", "htop", v); hf = median(v, nk)
	printf "htop: a refresh every %.0f ms of wall time (the delay is %.0f ms); CPU of a one-refresh\n",
		hw, D * 1000
	printf "run %.0f ms, CPU used by its first screen %.0f ms\n", h1, hf

	printf "\nfirst screen, ms from the start (median, min..max; %s, %.0f polls each on average)\n",
		"the pane captured when the program has drawn", polls / (npolls ? npolls : 1)
	printf "%-16s %-22s %11s %15s  %s\n", "", "wall time", "CPU by then", "waiting for CPU",
		"wall less the waiting"
	split("screen top htop", fl, " ")
	fname["screen"] = "memtop"; fname["top"] = "top"; fname["htop"] = "htop"
	for (l = 1; l <= 3; l++) {
		x = fl[l]
		collect("first", x, v); s = spread(v, nk, "%.0f"); fm[x] = med
		collect("first run", x, v); fr = median(v, nk)
		collect("first wait", x, v); fw = median(v, nk)
		collect("first net", x, v); fn = spread(v, nk, "%.0f"); fnm[x] = med
		printf "%-16s %-22s %11.0f %15.0f  %s\n", fname[x], s, fr, fw, fn
	}

	printf "\nratios (median over the rounds of the ratio in each round, min..max)\n"
	t = "target <= 0.1, 0.2 at the very least"
	ratio("per refresh, memtop -b / top -b", "per", "memtop", "top", t)
	ratio("per refresh, memtop (screen) / top -b", "per", "screen", "top", t)
	ratio("per refresh, memtop --json / top -b", "per", "json", "top", "")
	ratio("per refresh, memtop (screen) / htop", "per", "screen", "htop", "")
	ratio("per refresh, memtop -b / htop", "per", "memtop", "htop", "")
	ratio("one-refresh run, memtop -b / top -b", "one", "memtop", "top", "target <= 1.0")
	ratio("one-refresh run, memtop (screen) / htop", "one", "screen", "htop", "")
	ratio("first screen, memtop / top", "first", "screen", "top", "")
	ratio("first screen, memtop / htop", "first", "screen", "htop", "")
	printf "%-42s %.0f ms, %.0f ms less the waiting for a CPU (target <= 150)\n",
		"first screen, memtop", fm["screen"], fnm["screen"]
	printf "%-42s %.1f MB end, %.1f MB peak (target < 16 MB at 10000 processes)\n", "RSS, memtop -b",
		endm["memtop"], peakm["memtop"]
	printf "%-42s %.1f MB end, %.1f MB peak\n", "RSS, memtop (screen)", endm["screen"], peakm["screen"]
	if (BASE != "") {
		printf "%-42s %.1f MB end, %.1f MB peak\n", "RSS, base -b", endm["base"], peakm["base"]
		printf "%-42s %.1f MB end, %.1f MB peak\n", "RSS, base (screen)", endm["bscreen"],
			peakm["bscreen"]
		ratio("per refresh, memtop -b / base -b", "per", "memtop", "base", "")
		ratio("per refresh, memtop (screen) / base (screen)", "per", "screen", "bscreen", "")
		ratio("RSS end, memtop -b / base -b", "endrss", "memtop", "base", "")
		ratio("RSS end, memtop (screen) / base (screen)", "endrss", "screen", "bscreen", "")
	}
}' "$tmp/raw"
