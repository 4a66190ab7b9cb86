#!/bin/sh
# memtop locks only its steady working set, within --lock-max: with 3,000 more processes
# to list (sleeping children), its VmLck (/proc/PID/status) once steady is at most the
# default cap of 16 MiB and more than nothing, its heap is not locked (no "lo" among the
# heap's VmFlags in /proc/PID/smaps), and JSON self.locked_kb says the same VmLck. With
# --lock-max 1M it locks at most 1 MiB; with --lock-max 0 nothing; a size it cannot read
# is refused in one line.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
trap '[ -n "$kids" ] && kill $kids 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"
[ "$(id -u)" = 0 ] || skip "needs root (memtop locks its memory as root only)"

"$HELPERS/many_children" 3000 >"$tmp/kids" &
kids=$!
wait_ready "$tmp/kids" || fail "many_children never got ready"

# locked CAP_KB ARGS...: memtop --json ARGS in the background; once it has printed three
# refreshes (it locks after the second), checks its VmLck against CAP_KB and the third
# line's JSON
vmlck() { awk '/^VmLck:/ { print $2 }' "/proc/$1/status"; }
locked() {
	cap=$1
	shift
	"$MEMTOP" --json -d 0.3 -n 200 "$@" >"$tmp/out" 2>"$tmp/err" &
	mt=$!
	eventually $HANG sh -c "[ \$(cat '$tmp/out' 2>/dev/null | wc -l) -ge 3 ]" ||
		fail "memtop $*: no third line: $(cat "$tmp/err")"
	lck=$(vmlck $mt)
	heap=$(awk '/\[heap\]/ { h = 1; next } /^[0-9a-f]+-/ { h = 0 } h && /^VmFlags:/' "/proc/$mt/smaps")
	procs=$(sed -n 3p "$tmp/out" | jq '.processes | length')
	json=$(sed -n 3p "$tmp/out" | jq .self.locked_kb)
	kill $mt
	wait $mt 2>/dev/null
	[ "$procs" -ge 3000 ] || fail "memtop $*: only $procs processes listed"
	[ "$lck" -le "$cap" ] || fail "memtop $*: VmLck $lck kB over the cap of $cap kB"
	[ "$json" = "$lck" ] || fail "memtop $*: self.locked_kb $json, VmLck $lck kB"
	printf '%s\n' "$heap" | grep -qw lo && fail "memtop $*: its heap is locked: $heap"
	echo "memtop $*: $procs processes, VmLck $lck kB (cap $cap kB), heap unlocked"
}
locked 16384
[ "$lck" -gt 0 ] || fail "default: nothing locked"
locked 1024 --lock-max 1M
locked 0 --lock-max 0

"$MEMTOP" --json -n 1 --lock-max lots >/dev/null 2>"$tmp/err" && fail "--lock-max lots accepted"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^memtop: --lock-max needs a size" "$tmp/err" ||
	fail "--lock-max lots: $(cat "$tmp/err")"
