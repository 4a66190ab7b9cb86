#!/bin/sh
# k on the selected process asks for a signal and a confirmation: y sends it (the child
# dies of SIGKILL), n sends nothing (the child lives on).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
trap '[ -n "$kids" ] && kill $kids 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

start() { # NAME MARKER: an alloc_child with MARKER in its command line
	: >"$tmp/$1"
	"$HELPERS/alloc_child" 1 0 "$2" >"$tmp/$1" &
	kids="$kids $!"
	wait_ready "$tmp/$1" || fail "alloc_child never got ready"
}
# our own children: once dead they are zombies, or gone when the shell reaped them already
state() { awk '{ print $3 }' /proc/$1/stat 2>/dev/null; }
alive() { s=$(state $1) && [ -n "$s" ] && [ "$s" != Z ]; }
start spared "spared-$$"
spared=$!
start victim "victim-$$"
victim=$!

tm_start 160 30 "$MEMTOP -d 0.5"
wait_for "PID USER" || fail "memtop did not start"
ask_kill() { # MARKER PID SIGNAL: filter to MARKER, k, SIGNAL, Enter
	tm send-keys '\'
	wait_for "Filter:" || fail "\\ opened no filter prompt"
	tm send-keys Escape # clears an earlier filter
	wait_gone "ilter:" || fail "Esc did not clear the filter"
	tm send-keys '\'
	wait_for "Filter:" || fail "\\ opened no filter prompt"
	tm send-keys -l "$1"
	tm send-keys Enter
	wait_for ", 1 shown" || fail "the filter did not leave one row"
	tm send-keys k
	wait_for "Signal to send (number or name): 15" || fail "k did not offer signal 15"
	tm send-keys BSpace BSpace
	tm send-keys -l "$3"
	tm send-keys Enter
	wait_for "to $2 (alloc_child)? [y/N]" || fail "no confirmation for pid $2"
}

ask_kill "spared-$$" "$spared" 15
tm send-keys n
wait_for "not sent" || fail "n did not say 'not sent'"
sleep 0.5
alive $spared || fail "after n, pid $spared is in state '$(state $spared)'"

ask_kill "victim-$$" "$victim" 9
screen_text | grep -q "Send SIGKILL (9) to $victim" || fail "the confirmation does not name SIGKILL"
tm send-keys y
wait_for "sent SIGKILL to $victim" || fail "y did not report the signal"
i=0
while alive $victim; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "pid $victim is still in state '$(state $victim)' after y"
	sleep 0.1
done
wait "$victim"
rc=$?
[ $rc -eq $((128 + 9)) ] || fail "the victim ended with status $rc, not killed by signal 9"
alive $spared || fail "the spared child died too"
