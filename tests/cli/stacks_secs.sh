#!/bin/sh
# memtop --stacks PID[:SECS]: a bad SECS (or PID before it) exits 2 with one "memtop: "
# line and nothing on stdout. Where stacks can be sampled (root, BPF), SECS is how long
# it samples; -d SECS still sets it without :SECS, and :SECS wins over -d.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kid=
trap '[ -n "$kid" ] && kill "$kid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

secs="--stacks PID:SECS needs seconds between 0.1 and 86400"
exits 2 "$secs, not '0'\$" --stacks 1:0
exits 2 "$secs, not 'abc'\$" --stacks 1:abc
exits 2 "$secs, not ''\$" --stacks 1:
exits 2 "$secs, not '1e9'\$" --stacks 1:1e9
exits 2 "$secs, not 'nan'\$" --stacks 1:nan --json
exits 2 "$secs, not '2:3'\$" --stacks 1:2:3
exits 2 "--stacks needs a PID, not 'abc'\$" --stacks abc:2
exits 2 "--stacks needs a PID, not ''\$" --stacks :2
exits 2 "-d needs seconds" --stacks 1:2 -d 0
# control characters come back escaped
exits 2 "$secs, not '\\\\e\\[2J'\$" --stacks "1:$(printf '\033[2J')"
# a good SECS gets as far as looking the process up
max=$(cat /proc/sys/kernel/pid_max)
exits 1 "no process $((max + 1))\$" --stacks $((max + 1)):0.2

sleep 300 &
kid=$!
err=$("$MEMTOP" --stacks $kid:0.1 2>&1 >/dev/null) || {
	echo "stacks unavailable, sampling time not checked: $err"
	exit 0
}
command -v jq >/dev/null || {
	echo "no jq: sampling time not checked"
	exit 0
}
# took LO HI ARGS...: memtop --json ARGS sampled between LO and HI seconds
took() {
	lo=$1 hi=$2
	shift 2
	"$MEMTOP" --json "$@" >"$tmp/out" 2>"$tmp/err" || fail "memtop --json $* exited $?: $(cat "$tmp/err")"
	s=$(jq .seconds "$tmp/out") || fail "memtop --json $*: not JSON: $(head -c 200 "$tmp/out")"
	awk -v s="$s" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(s >= lo && s < hi) }' ||
		fail "memtop --json $* sampled $s s, not $lo to $hi"
	printf '%-36s %s s\n' "$*" "$s"
}
# (the upper bounds tell the window asked for from -d's 8 s; a hang guard beside the
# window itself, however busy the machine)
took 0.5 8 --stacks $kid:0.5
took 0.5 8 --stacks $kid:0.5 -d 8
took 0.5 8 -d 8 --stacks $kid:0.5
took 8 60 --stacks $kid -d 8
took 1 8 --stacks $kid
