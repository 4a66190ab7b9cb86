# Shared helpers for script tests. Source it: . "$TESTS/lib.sh"
: "${MEMTOP:=$(cd "$(dirname "$0")/../.." && pwd)/build/memtop}"
: "${HELPERS:=$(dirname "$MEMTOP")/tests}"
# no saved settings (memtop's W key) reach a test unless it makes its own
export XDG_CONFIG_HOME=/nonexistent/memtop-tests

# STAMP_SLACK_US: how far apart, per event, memtop's BPF time stamps may stand from the
# kernel trace's of the same tracepoint (the programs that run between the two take
# that long): a few microseconds on a machine, tens in the kernel lane's emulated guests,
# whose guest.sh sets it
: "${STAMP_SLACK_US:=3}"

fail() {
	printf "FAIL: %s\n" "$*"
	exit 1
}

skip() {
	printf "%s\n" "$*"
	exit 77
}

# tmux screen helpers: a private server per test, a new one (a new socket name) after each
# tm_kill, so that a tm_start never reaches a server that is still exiting
TMUX_SOCK="memtop-test-$$"
tm_servers=0
tm() { tmux -L "$TMUX_SOCK" "$@"; }
tm_kill() {
	tmux -L "$TMUX_SOCK" kill-server 2>/dev/null
	tm_servers=$((tm_servers + 1))
	TMUX_SOCK="memtop-test-$$-k$tm_servers"
}
# tm_start W H CMD...: runs CMD in a detached session of W x H
tm_start() {
	w=$1 h=$2
	shift 2
	tm -f /dev/null new-session -d -x "$w" -y "$h" "$@"
}
screen_text() { tm capture-pane -p; }
# cmd_rows: the process table's rows on screen as "PID COMMAND", COMMAND's cell whole (the
# tree's lines and marks first): the cells before it skipped one word each, as the titles
# count them, not by the titles' byte offset (a cell's "…", three bytes, would move it)
cmd_rows() {
	screen_text | awk '/^ *PID / { for (k = 1; k <= NF && $k != "COMMAND"; k++); k--; next }
		k && $1 ~ /^[0-9]+$/ { s = $0; sub(/^ +/, "", s)
			for (i = 1; i < k; i++) sub(/^[^ ]+ +/, "", s)
			sub(/^[^ ]+ /, "", s); print $1, s }'
}
# changed_from FILE [SECS]: waits (2 s by default) until the screen is no longer FILE's
# text (after a key that turns a page: false where it stays, the last page)
changed_from() { eventually "${2:-2}" _differs "$1"; }
_differs() { ! screen_text | cmp -s - "$1"; }
# HANG: how long a test waits for what memtop does at once (a screen after a key, a line
# after a refresh) before it calls memtop hung: far above any expected time, so that a
# slow, busy or sanitized run passes all the same (timings are bench/'s)
HANG=60
# wait_for TEXT [SECS]: waits (HANG by default) until the screen shows TEXT
wait_for() {
	i=0
	while [ $i -lt $((${2:-$HANG} * 10)) ]; do
		screen_text | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	printf "screen never showed '%s'; it shows:\n" "$1"
	screen_text
	return 1
}
# wait_bpf_on: waits (HANG) until the screen's BPF line says "BPF on". An OOM banner takes
# that line's place until acknowledged, and the kills of the tests beside (the machine's)
# show on every screen: a banner is acknowledged (y) as it comes.
wait_bpf_on() {
	i=0
	while [ $i -lt $((HANG * 10)) ]; do
		_s=$(screen_text)
		case $_s in *"BPF on"*) return 0 ;; *"[y: acknowledge"*) tm send-keys y ;; esac
		sleep 0.1
		i=$((i + 1))
	done
	printf "screen never showed 'BPF on'; it shows:\n"
	screen_text
	return 1
}
# wait_gone TEXT [SECS] (HANG by default)
wait_gone() {
	i=0
	while [ $i -lt $((${2:-$HANG} * 10)) ]; do
		screen_text | grep -qF -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	printf "screen still shows '%s':\n" "$1"
	screen_text
	return 1
}

# eventually SECS CMD...: runs CMD every 0.1 s until it succeeds, SECS seconds at most: for
# what a screen shows once memtop has taken a key, however busy the machine
eventually() {
	_e=$(($1 * 10))
	shift
	until "$@"; do
		_e=$((_e - 1))
		[ $_e -gt 0 ] || return 1
		sleep 0.1
	done
}

# tries N CMD...: runs CMD until it succeeds, N times at most (for a measure that other
# work on the machine may spoil: taken again); false if it never did; sets tries to the
# number of runs
tries() {
	_n=$1
	shift
	tries=1
	until "$@"; do
		[ $tries -lt "$_n" ] || return 1
		tries=$((tries + 1))
	done
}

# free_port N [PORT]: a TCP port on which nothing listens, for a test's server: from the
# test's pid and N (each test its own), below the kernel's range of ephemeral ports, which
# the connections of the tests running beside it take theirs from; with PORT, the first
# after it (a second server's)
free_port() {
	_p=$((20000 + ($$ * 7 + $1) % 12000))
	[ -z "${2:-}" ] || _p=$(($2 + 1))
	while ss -Hltn "sport = :$_p" | grep -q .; do _p=$((_p + 1)); done
	echo "$_p"
}

# nobody_turn: the tests that run processes as nobody (and count nobody's) take turns,
# from any clone: a lock on fd 8, 100 s at most
nobody_turn() {
	command -v flock >/dev/null || return 0
	exec 8>>/tmp/memtop-tests-nobody.lock
	flock -w 100 8 || fail "another test held /tmp/memtop-tests-nobody.lock for 100 s"
}

# nobody_idle: for the tests that count all of nobody's processes: its turn, then another
# test's processes of nobody, still ending, waited for (10 s at most), else a skip
nobody_idle() {
	nobody_turn
	i=0
	while [ -n "$(ps -u nobody -o pid= 2>/dev/null)" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -z "$(ps -u nobody -o pid= 2>/dev/null)" ] || skip "nobody runs processes already"
}

# wait_ready FILE: waits (HANG) until a helper wrote "ready" to FILE
wait_ready() { eventually $HANG grep -qs ready "$1"; }

# start_child ARGS...: starts alloc_child ARGS (MIB [FAULTS_PER_S [MARKER]]) with its output
# in $tmp/child and waits until it is ready; sets $child for the test's EXIT trap to kill
start_child() {
	: >"$tmp/child"
	"$HELPERS/alloc_child" "$@" >"$tmp/child" &
	child=$!
	wait_ready "$tmp/child" || fail "alloc_child never got ready"
}

# _asleep PID: the process runs sleep(1) and sleeps (read without a fork: 300 of them)
_asleep() {
	{ read -r _c <"/proc/$1/comm" && read -r _st <"/proc/$1/stat"; } 2>/dev/null || return 1
	[ "$_c" = sleep ] && set -- $_st && [ "$3" = S ]
}

# start_sleepers N: N idle processes (sleep 600), their pids added to $sleepers for the
# test's exit trap to kill; it returns once each is asleep in sleep(1) (no longer the
# shell's fork, nor loading: their statm and fault counts stand still from then on)
start_sleepers() {
	_n=$1 _new=
	while [ "$_n" -gt 0 ]; do
		sleep 600 &
		_new="$_new $!"
		_n=$((_n - 1))
	done
	sleepers="$sleepers$_new"
	for _p in $_new; do
		eventually $HANG _asleep "$_p" || fail "sleep $_p never got to sleep"
	done
}

# screen_clock: the clock at the end of the status line (of the process or the cgroup
# table); next_refresh [SECS]: waits (10 s by default) until it changes, that is until
# memtop has refreshed
# banner_text: the OOM banner's line on the screen (anchored at the line's start, so that a
# process whose command line holds "OOM kill: pid", the tests' own grep, never matches)
banner_text() { screen_text | grep -E '^([0-9]{2}:[0-9]{2}:[0-9]{2} +)?OOM kill: pid [0-9]'; }
screen_clock() { screen_text | grep -E '^(Tasks|Cgroups|Slab caches) ' | grep -o '[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$'; }
next_refresh() {
	c=$(screen_clock) i=0
	while [ "$(screen_clock)" = "$c" ]; do
		i=$((i + 1))
		[ $i -le $((${1:-10} * 10)) ] || return 1
		sleep 0.1
	done
}

# fmt_kb KIB...: each size as memtop shows it ("512K", "9.8M", "300M"), one a line, by
# memtop's own fmt_kb (src/base/text.c, built into build/tests/fmt_kb), for tests that compare
# what the screen shows with /proc
fmt_kb() { "$HELPERS/fmt_kb" "$@"; }
# pss_shown CELL PID: CELL is the process's Pss (smaps_rollup, read now) as fmt_kb gives
# it, within 48 kB: its share of the shared libraries it maps moves as other processes,
# the test's own awk and tmux among them, map them while memtop reads (cli/pss_uss.sh)
pss_shown() {
	_pss=$(awk '$1 == "Pss:" { print $2 }' "/proc/$2/smaps_rollup") && [ -n "$_pss" ] || return 1
	for _d in -48 0 48; do
		[ "$1" = "$(fmt_kb $((_pss + _d)))" ] && return 0
	done
	return 1
}
# FMT_KB_AWK: the same as an awk function fmt_kb(KIB), KIB below 0 taken as 0 and its
# fraction dropped: awk "$FMT_KB_AWK"'...' (the helper runs once for each size)
export HELPERS
FMT_KB_AWK='
function fmt_kb(kb,  cmd, s) {
	kb = sprintf("%.0f", kb < 0 ? 0 : int(kb))
	if (kb in FMT_KB_DONE)
		return FMT_KB_DONE[kb]
	cmd = "\047" ENVIRON["HELPERS"] "/fmt_kb\047 " kb
	if ((cmd | getline s) <= 0) { # then no figure on screen is this one
		print "fmt_kb: " cmd " printed nothing" >"/dev/stderr"
		s = "(fmt_kb failed)"
	}
	close(cmd)
	return FMT_KB_DONE[kb] = s
}'

# exits STATUS PATTERN ARGS...: memtop ARGS exits STATUS with one line on stderr matching
# "memtop: PATTERN" (ERE) and prints nothing on stdout; needs $tmp
exits() {
	want=$1 pattern=$2
	shift 2
	"$MEMTOP" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq "$want" ] || fail "memtop $* exited $rc, not $want: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "memtop $*: stderr is not one line: $(cat "$tmp/err")"
	grep -Eq "^memtop: $pattern" "$tmp/err" || fail "memtop $*: stderr says: $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] || fail "memtop $* printed: $(head -3 "$tmp/out")"
	printf '%-36s %s\n' "$*" "$(cat "$tmp/err")" | cat -v # the arguments may hold ESC
}

# wait_file FILE [SECS]: waits (10 s by default) until FILE is not empty, e.g. the exit
# status a command run in tmux writes when it ends
wait_file() {
	i=0
	until [ -s "$1" ]; do
		i=$((i + 1))
		[ $i -le $((${2:-10} * 10)) ] || return 1
		sleep 0.1
	done
}
