#!/bin/sh
# htop's keys: Space tags three of four processes, one k with SIGTERM ends exactly those
# three; c tags a process with those under it, U untags; F follows the selected process
# through a re-sort; an unknown key says so; o opens the OOM kills from every screen that
# takes it and Esc returns there; l shows lsof -p on the selected process in the pager and
# q brings the table back, s strace -p; without them on PATH a line says so.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
trap 'for k in $kids; do kill $k 2>/dev/null; done; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# kid MIB NAME: an alloc_child of MIB MiB, its pid in $kid
kid() {
	: >"$tmp/$2"
	"$HELPERS/alloc_child" "$1" 0 "$2-$$" >"$tmp/$2" &
	kid=$!
	kids="$kids $kid"
	wait_ready "$tmp/$2" || fail "alloc_child $2 never got ready"
}
esc=$(printf '\033')
# the pid of the row drawn in the selected row's colors (black on cyan)
selected_pid() { tm capture-pane -p -e | grep "$esc\[46m" | sed "s/$esc\[[0-9;]*m//g" | awk '$1 ~ /^[0-9]+$/ { print $1; exit }'; }
selected_is() { [ "$(selected_pid)" = "$1" ]; }
shows() { [ "$(screen_text | awk -v p="$1" '$1 == p' | wc -l)" = 1 ]; }
alive() { kill -0 "$1" 2>/dev/null && ! grep -q '^State:.*Z' /proc/$1/status 2>/dev/null; }

kid 4 ta && a=$kid
kid 4 tb && b=$kid
kid 4 tc && c=$kid
kid 4 td && d=$kid

# sorted by pid (-o pid): a, b, c, d, named anew in pid order (the pids may have wrapped
# between two of them); Space on a, b, c (each Space selects the next row)
set -- $(printf '%s\n' "$a" "$b" "$c" "$d" | sort -n)
a=$1 b=$2 c=$3 d=$4
# watch ARGS PID: memtop ARGS until PID's row shows
watch() {
	tm_start 120 30 "$MEMTOP -d 0.5 $1"
	eventually $HANG shows "$2" || fail "memtop $1 never showed $2: $(screen_text)"
}
watch "-o pid -p $a,$b,$c,$d" "$d"
tm send-keys x
wait_for "unknown key x, h for help" || fail "x did not say it is unknown"
tm send-keys Home Space Space Space
eventually $HANG selected_is "$d" ||
	fail "three Spaces did not select the fourth row"
tm send-keys k
wait_for "Signal" || wait_for "signal" || fail "k opened no signal prompt"
tm send-keys Enter
wait_for "to 3 tagged processes? [y/N]" || fail "the confirmation does not name 3 tagged processes"
tm send-keys y
for p in $a $b $c; do
	eventually $HANG sh -c "! kill -0 $p 2>/dev/null || grep -q '^State:.*Z' /proc/$p/status" ||
		fail "tagged pid $p still runs"
done
wait "$a" "$b" "$c" 2>/dev/null
alive "$d" || fail "the untagged pid $d was killed too"
wait_for "sent SIGTERM to 3 tagged processes" || fail "no line says what was sent"
echo "Space tagged $a $b $c; one k with SIGTERM ended them, $d runs"
tm_kill

# F: the largest first (sorted by RSS), Home: the view keeps its first row; F follows the
# selected process, so I (the smallest first) leaves the selection on it, last
kid 8 fa && small=$kid
kid 40 fb && large=$kid
watch "-p $small,$large" "$large"
tm send-keys Home
eventually $HANG selected_is "$large" ||
	fail "Home did not select the largest: $(selected_pid)"
tm send-keys F
wait_for "following $large" || fail "F did not say whom it follows"
tm send-keys I
sorted_small_first() { screen_text | awk '$1 ~ /^[0-9]+$/ { print $1; exit }' | grep -qx "$small"; }
eventually $HANG sorted_small_first || fail "I did not put the smallest first"
[ "$(selected_pid)" = "$large" ] || fail "F: after the re-sort the selection is on $(selected_pid), not $large"
echo "F followed $large through a re-sort"

# c tags the selected process and those under it (here: itself), U untags all
tm send-keys c
wait_for "1 tagged (1 in all)" || fail "c did not tag the selected process"
tm send-keys U k Enter
wait_for "to $large (alloc_child)? [y/N]" || fail "after U, k does not offer the selected process: $(screen_text | tail -n 1)"
tm send-keys n
wait_for "not sent" || fail "n did send"
alive "$large" || fail "n killed $large"

# l: lsof -p on the selected process, in the pager; q returns (tests/screen/pager.sh
# scrolls and searches it)
if command -v lsof >/dev/null; then
	tm send-keys l
	wait_for "lsof -p $large (alloc_child)" || fail "l did not open the pager on lsof"
	wait_for "exited 0" || fail "lsof never ended"
	screen_text | grep -q "^alloc_chi.* $large .*alloc_child" || fail "lsof -p $large does not list alloc_child: $(screen_text)"
	tm send-keys q
	wait_for "F1Help" || fail "q did not bring the table back"
	echo "l ran lsof -p $large"
fi
if command -v strace >/dev/null && [ "$(id -u)" = 0 ]; then
	tm send-keys s
	wait_for "strace -p $large (alloc_child)" || fail "s did not open the pager on strace"
	wait_for "attached" || fail "strace did not attach"
	tm send-keys q
	wait_for "F1Help" || fail "q did not bring the table back"
	alive "$large" || fail "strace's end ended $large"
	echo "s ran strace -p $large, q ended it, memtop stayed"
fi

# o on every screen that takes it: the history, Esc back
for s in "C:Cgroups " "L:PSS and USS" "X:Exited processes" "A:Memory account" "n:NUMA nodes"; do
	key=${s%%:*} mark=${s#*:}
	tm send-keys "$key"
	wait_for "$mark" || fail "$key did not open its screen ($mark)"
	tm send-keys o
	wait_for "OOM kills, newest first" || fail "o did nothing on the screen of $key"
	tm send-keys Escape
	wait_for "$mark" || fail "Esc from the history did not return to the screen of $key"
	tm send-keys Escape
	wait_for "F1Help" || fail "Esc did not return from the screen of $key"
done
echo "o opened the history from C, L, X, A and n, Esc returned to each"
tm_kill

# without lsof and strace on PATH
tm_start 120 30 "PATH=/nonexistent $MEMTOP -d 0.5 -p $large"
eventually $HANG shows "$large" ||
	fail "the process never showed"
tm send-keys l
wait_for "lsof is not installed" || fail "l without lsof said nothing: $(screen_text | tail -n 1)"
tm send-keys s
wait_for "strace is not installed" || fail "s without strace said nothing"
echo "without them: 'lsof is not installed', 'strace is not installed'"
