#!/bin/sh
# The first screen and the peak resident size (VmHWM) of memtop against top and htop, at
# each of SIZES idle processes added, alone and beside a memtop service that pins its
# programs (--record --pin). Prints figures; it is not a test. As root (the service).
#
#   sh bench/first_peak.sh                       (2000 and 10000 processes, 3 rounds)
#   SIZES=10000 ROUNDS=5 sh bench/first_peak.sh
#
# Knobs (environment): SIZES (idle processes to add, one set after the other: "2000
# 10000"), ROUNDS (3), ROWS (rows of the table that make the first screen: 10), MEMTOP
# (build/memtop), TOP, HTOP, RAW (a file to copy the raw rows to), BASE (another memtop
# binary, an earlier build: its runs beside memtop's in each round, printed as "base").
#
# Each round runs, one after the other, alone: the first screen of memtop, top and htop in
# a 120x40 tmux pane (from the fork until the pane shows the titles PID USER and ROWS
# rows under them, polled while it writes: bench/idle_procs screen, with the CPU used by then
# and the time spent waiting for a CPU); the VmHWM (wait4's ru_maxrss) of memtop's screen
# drawing 3 refreshes at -d 1 (its BPF programs load after the first) and of `memtop --json
# -n 1`. Then a service is started (memtop --record FILE --pin -d 1), its pins awaited
# and 3 s more (its start-up), and the same runs of memtop and htop's first screen beside
# it; the service stopped. With BASE, memtop's and base's first screens take turns to go
# first, round by round.
# Medians over the rounds (min..max); a ratio is the median of the ratios in each round.
set -eu

cd "$(dirname "$0")/.."
. bench/median.inc
SIZES=${SIZES:-2000 10000}
ROUNDS=${ROUNDS:-3}
ROWS=${ROWS:-10}
MEMTOP=${MEMTOP:-build/memtop}
TOP=${TOP:-top}
HTOP=${HTOP:-htop}
RAW=${RAW:-}
BASE=${BASE:-}
HELPER=build/bench/idle_procs
PINS=/sys/fs/bpf/memtop

die() {
	echo "first_peak.sh: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || die "needs root (the service pins its BPF programs)"
[ -x "$MEMTOP" ] || die "$MEMTOP is missing: run make build/memtop"
for p in "$TOP" "$HTOP" tmux; do
	command -v "$p" >/dev/null 2>&1 || die "no $p on this machine: sh scripts/deps.sh installs it"
done
[ ! -e "$PINS" ] || die "$PINS exists: another memtop service runs; stop it first"
MEMTOP=$(cd "$(dirname "$MEMTOP")" && pwd)/$(basename "$MEMTOP")
if [ -n "$BASE" ]; then
	[ -x "$BASE" ] || die "BASE $BASE is not a program"
	BASE=$(cd "$(dirname "$BASE")" && pwd)/$(basename "$BASE")
fi
mkdir -p build/bench
${CC:-cc} -O2 -Wall -Wextra -Werror -D_GNU_SOURCE bench/idle_procs.c -o "$HELPER"
HELPER=$(pwd)/$HELPER

tmp=$(mktemp -d /tmp/memtop-first-peak.XXXXXX)
sock=memtop-first-peak-$$
spawner=''
svc=''
. bench/idle.inc
stop_svc() {
	[ -n "$svc" ] || return 0
	kill "$svc" 2>/dev/null || true
	wait "$svc" 2>/dev/null || true
	svc=
}
trap 'stop_svc; cleanup' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$tmp/home"
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home"

. bench/pane.inc
# first LABEL CMD...: "SIZE ROUND first LABEL ms polls run_ms wait_ms" into raw
first() {
	label=$1
	shift
	# shellcheck disable=SC2046
	set -- $(pane "'$HELPER' screen '$tmp/out' $*")
	[ "$1" != -1.0 ] || die "$label never showed $ROWS rows"
	echo "$n $r first $label $1 $2 $3 $4" >>"$tmp/raw"
}
# hwm LABEL screen|batch ARGS...: "SIZE ROUND hwm LABEL kB" into raw
hwm() {
	label=$1 how=$2 bin=$MEMTOP
	shift 2
	case $label in base*) bin=$BASE ;; esac
	if [ "$how" = screen ]; then
		# shellcheck disable=SC2046
		set -- $(pane "'$HELPER' tty '$tmp/out' 0 500 '$bin' $*")
	else
		# shellcheck disable=SC2046
		set -- $("$HELPER" rusage "$bin" "$@")
	fi
	[ "$4" = 0 ] || die "$label exited with status $4"
	echo "$n $r hwm $label $3" >>"$tmp/raw"
}
svc_start() {
	"$MEMTOP" --record "$tmp/svc.rec" --pin -d 1 >/dev/null 2>"$tmp/svc.err" &
	svc=$!
	i=0
	until [ -e "$PINS/meta" ]; do
		[ $i -lt 600 ] || die "the service pinned nothing: $(cat "$tmp/svc.err")"
		sleep 0.1
		i=$((i + 1))
	done
	# past its start-up (its first refreshes and recording, which take a CPU at 10,000
	# processes): the runs beside it meet a service at work, as they would one started
	# earlier, not the first of them one still starting
	sleep 3
}

M="'$MEMTOP'"
B="'$BASE'"
H="'$(command -v "$HTOP")'"
T="'$(command -v "$TOP")'"
echo "first screen ($ROWS rows, 120x40) and VmHWM; $(nproc) CPUs, $(uname -r)," \
	"load $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo "$("$TOP" -V 2>/dev/null | head -n 1); $("$HTOP" --version | head -n 1);" \
	"memtop $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
: >"$tmp/raw"
for n in $SIZES; do
	stop_spawner
	start_spawner "$n"
	echo "$n idle processes added: $(count_procs) in /proc"
	# in_turn SUFFIX: the first screens of memtop and base (labels with SUFFIX), each
	# first in every other round, so that neither always meets what the run before
	# left (the machine's caches, a CPU still busy)
	in_turn() {
		if [ $((r % 2)) = 1 ] || [ -z "$BASE" ]; then
			first "memtop$1" "$M"
			[ -z "$BASE" ] || first "base$1" "$B"
		else
			first "base$1" "$B"
			first "memtop$1" "$M"
		fi
	}
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		[ -t 2 ] && printf '  %s: round %d/%d\r' "$n" "$r" "$ROUNDS" >&2
		in_turn ""
		first top "$T"
		first htop "$H"
		hwm screen screen -n 3 -d 1
		hwm json batch --json -n 1
		[ -z "$BASE" ] || hwm base_screen screen -n 3 -d 1
		[ -z "$BASE" ] || hwm base_json batch --json -n 1
		svc_start
		in_turn _svc
		first htop_svc "$H"
		hwm screen_svc screen -n 3 -d 1
		hwm json_svc batch --json -n 1
		[ -z "$BASE" ] || hwm base_screen_svc screen -n 3 -d 1
		[ -z "$BASE" ] || hwm base_json_svc batch --json -n 1
		stop_svc
		r=$((r + 1))
	done
	echo "load $(cut -d' ' -f1-3 /proc/loadavg) after $n"
done
[ -t 2 ] && printf '                     \r' >&2
[ -z "$RAW" ] || cp "$tmp/raw" "$RAW"

awk -v SIZES="$SIZES" "$MEDIAN_AWK"'
function spread(v, k, fmt,    i, lo, hi, c) {
	lo = 1e18; hi = -1e18
	for (i = 1; i <= k; i++) { c[i] = v[i]; if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
	return sprintf(fmt " (" fmt ".." fmt ")", median(c, k), lo, hi)
}
$3 == "first" { k = ++nf[$1, $4]; fw[$1, $4, k] = $5; fr[$1, $4, k] = $7; fq[$1, $4, k] = $8; rr[$1, $4, k] = $2 }
$3 == "hwm" { k = ++nh[$1, $4]; hw[$1, $4, k] = $5 / 1024.0 }
END {
	ns = split(SIZES, sz, " ")
	for (s = 1; s <= ns; s++) {
		n = sz[s]
		printf "\n%d idle processes added\n", n
		printf "%-34s %-24s %11s %15s\n", "first screen, ms", "wall (min..max)", "CPU by then",
			"waiting for CPU"
		nl = split("memtop base top htop memtop_svc base_svc htop_svc", L, " ")
		name["base"] = "base alone"; name["base_svc"] = "base beside the service"
		name["memtop"] = "memtop alone"; name["top"] = "top"; name["htop"] = "htop"
		name["memtop_svc"] = "memtop beside a --pin service"
		name["htop_svc"] = "htop beside the service"
		for (l = 1; l <= nl; l++) {
			x = L[l]; k = nf[n, x]
			if (!k) continue
			for (i = 1; i <= k; i++) { w[i] = fw[n, x, i]; c[i] = fr[n, x, i]; q[i] = fq[n, x, i] }
			printf "%-34s %-24s %11.0f %15.0f\n", name[x], spread(w, k, "%.0f"), median(c, k),
				median(q, k)
		}
		k = nf[n, "memtop"]
		if (nf[n, "base"])
			for (i = 1; i <= k; i++) q[i] = fw[n, "memtop", i] / fw[n, "base", i]
		if (nf[n, "base"])
			printf "%-34s %s\n", "memtop alone / base alone", spread(q, k, "%.2f")
		if (nf[n, "base_svc"])
			for (i = 1; i <= k; i++) q[i] = fw[n, "memtop_svc", i] / fw[n, "base_svc", i]
		if (nf[n, "base_svc"])
			printf "%-34s %s\n", "memtop beside / base beside", spread(q, k, "%.2f")
		for (i = 1; i <= k; i++) q[i] = fw[n, "memtop", i] / fw[n, "htop", i]
		printf "%-34s %s\n", "memtop alone / htop", spread(q, k, "%.2f")
		for (i = 1; i <= k; i++) q[i] = fw[n, "memtop_svc", i] / fw[n, "htop_svc", i]
		printf "%-34s %s\n", "memtop beside / htop beside", spread(q, k, "%.2f")
		printf "%-34s %s\n", "VmHWM, MiB", "median (min..max)"
		nv = split("screen json screen_svc json_svc base_screen base_json base_screen_svc base_json_svc", V, " ")
		hname["base_screen"] = "base: screen"; hname["base_json"] = "base: --json -n 1"
		hname["base_screen_svc"] = "base: screen beside"
		hname["base_json_svc"] = "base: --json -n 1 beside"
		hname["screen"] = "screen, 3 refreshes"; hname["json"] = "--json -n 1"
		hname["screen_svc"] = "screen beside the service"
		hname["json_svc"] = "--json -n 1 beside the service"
		for (l = 1; l <= nv; l++) {
			x = V[l]; k = nh[n, x]
			if (!k) continue
			for (i = 1; i <= k; i++) w[i] = hw[n, x, i]
			printf "%-34s %s\n", hname[x], spread(w, k, "%.1f")
		}
	}
}' "$tmp/raw"
