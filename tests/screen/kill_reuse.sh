#!/bin/sh
# k never signals a process that took the pid of the one it was asked for. memtop runs
# in a PID namespace of its own (unshare), paused, with its signal's confirmation open
# on "victim"; the victim is killed from outside, and an "impostor" is made to take its
# pid (the namespace's ns_last_pid); y must spare the impostor and say the victim has
# exited. The same with the victim tagged (Space) instead of selected.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (a PID namespace, ns_last_pid)"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
chmod 755 "$tmp"
kids=
trap '[ -n "$kids" ] && kill $kids 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
. "${TESTS:-$(dirname "$0")/..}/screen/pid_reuse.inc"
reuse_start 160 30
state() { awk '{ print $3 }' /proc/$1/stat 2>/dev/null; }
alive() { s=$(state $1) && [ -n "$s" ] && [ "$s" != Z ]; }

# filter: the table filtered to the victim alone, then paused (Z), so that its rows are
# those of the victim's time when y is pressed
filter() {
	tm send-keys '\'
	wait_for "Filter:" || fail "\\ opened no filter prompt"
	tm send-keys Escape
	wait_gone "ilter:" || fail "Esc did not clear the filter"
	tm send-keys '\'
	wait_for "Filter:" || fail "\\ opened no filter prompt"
	tm send-keys -l victim
	tm send-keys Enter
	wait_for ", 1 shown" || fail "the filter did not leave the victim's row"
	screen_text | grep -q "^ *$vns .*victim" || fail "the row shown is not pid $vns"
}

# --- the selected process ---
victim
filter
tm send-keys Z
wait_for "PAUSED" || fail "Z did not pause"
tm send-keys k
wait_for "Signal to send (number or name): 15" || fail "k did not offer signal 15"
tm send-keys Enter
wait_for "Send SIGTERM (15) to $vns (victim)? [y/N]" || fail "no confirmation for the victim"
impostor
tm send-keys y
wait_for "$vns (victim) has exited; nothing sent" || fail "y did not say the victim exited"
alive "$impostor" || fail "the impostor (pid $vns of the namespace) was killed"
screen_text | grep -q "Send SIGTERM" && fail "the confirmation is still open"

# --- a tagged process ---
kill "$impostor"
tm send-keys Z
wait_gone "PAUSED" || fail "Z did not resume"
victim
wait_for " $vns " || fail "the new victim is not on screen"
filter
tm send-keys Z
wait_for "PAUSED" || fail "Z did not pause"
tm send-keys Space
tm send-keys k
wait_for "Signal to send (number or name): 15" || fail "k did not offer signal 15"
tm send-keys Enter
wait_for "Send SIGTERM (15) to 1 tagged processes? [y/N]" || fail "no confirmation for the tag"
impostor
tm send-keys y
wait_for "sent SIGTERM to 0 tagged processes, 1 had exited" ||
	fail "y did not say the tagged victim exited"
alive "$impostor" || fail "the impostor (pid $vns of the namespace) was killed"
echo "the impostor lived through both"
