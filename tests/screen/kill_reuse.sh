#!/bin/sh
# k never signals a process that took the pid of the one it was asked for. memtop runs
# in a PID namespace of its own (unshare), paused, with its signal's confirmation open
# on "victim"; the victim is killed from outside, and an "impostor" is made to take its
# pid (the namespace's ns_last_pid); y must spare the impostor and say the victim has
# exited. The same with the victim tagged (Space) instead of selected.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (a PID namespace, ns_last_pid)"
command -v unshare >/dev/null && command -v nsenter >/dev/null || skip "needs unshare, nsenter"
unshare --pid --fork --mount-proc true 2>/dev/null || skip "cannot make a PID namespace here"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
chmod 755 "$tmp"
kids=
trap '[ -n "$kids" ] && kill $kids 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# two copies of sleep, whose names tell them apart on screen
cp "$(command -v sleep)" "$tmp/victim"
cp "$(command -v sleep)" "$tmp/impostor"
# the namespace's first process (its pid 1) runs memtop and stays to reap it
printf '#!/bin/sh\n"$1" -d 2 --no-bpf\n' >"$tmp/ns.sh"
chmod 755 "$tmp/ns.sh"
tm_start 160 30 "unshare --pid --fork --mount-proc sh $tmp/ns.sh $MEMTOP"
wait_for "PID USER" || fail "memtop did not start in its namespace"
init=$(pgrep -f "^sh $tmp/ns.sh") || fail "no first process of the namespace"
ns_pid() { awk '$1 == "NSpid:" { print $NF }' /proc/$1/status; }
state() { awk '{ print $3 }' /proc/$1/stat 2>/dev/null; }
alive() { s=$(state $1) && [ -n "$s" ] && [ "$s" != Z ]; }
child_of() { pgrep -P "$1" | head -n 1; }

# victim: the victim runs in the namespace, a child of nsenter, which reaps it; sets
# $victim (its pid here), $vns (its pid there) and $ventry (the nsenter)
victim() {
	nsenter -t "$init" -p -m "$tmp/victim" 1000 &
	ventry=$!
	kids="$kids $ventry"
	eventually $HANG child_of $ventry >/dev/null || fail "the victim did not start"
	victim=$(child_of $ventry)
	eventually $HANG sh -c "[ \"\$(awk '{ print \$2 }' /proc/$victim/stat)\" = '(victim)' ]" ||
		fail "pid $victim never became the victim"
	vns=$(ns_pid $victim)
}
# impostor: kills the victim from outside, then starts the impostor in the namespace
# with the victim's pid there; sets $impostor (its pid here)
impostor() {
	kill "$victim"
	wait "$ventry"
	: >"$tmp/imp"
	nsenter -t "$init" -p -m sh -c "echo $((vns - 1)) >/proc/sys/kernel/ns_last_pid || exit
		\"$tmp/impostor\" 1000 & echo \$! >\"$tmp/imp\"; wait" &
	ientry=$!
	kids="$kids $ientry"
	eventually $HANG test -s "$tmp/imp" || fail "the impostor did not start"
	[ "$(cat "$tmp/imp")" = "$vns" ] || fail "the impostor took pid $(cat "$tmp/imp"), not $vns"
	impostor=$(pgrep -x impostor -P "$(child_of $ientry)") || fail "no impostor here"
	echo "victim: pid $vns of the namespace ($victim here); impostor: the same ($impostor here)"
}
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
