#!/bin/sh
# memtop-test: beside others
# \ and F4 filter rows by a command-line substring, Esc clears it; u shows one user.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
trap '[ -n "$kids" ] && kill $kids 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

start() { # NAME CMD...: runs CMD in the background until it says ready
	name=$1
	shift
	: >"$tmp/$name"
	"$@" >"$tmp/$name" &
	kids="$kids $!"
	wait_ready "$tmp/$name" || fail "$name never got ready: $(cat "$tmp/$name")"
}
marker=filter-$$
start mine "$HELPERS/alloc_child" 1 0 "$marker"
mine=$!
other=
if [ "$(id -u)" = 0 ]; then # a process of another user for u
	nobody_turn
	start other setpriv --reuid=nobody --regid=nogroup --clear-groups "$HELPERS/alloc_child" 1 0 other-$$
	other=$!
fi

rows() { screen_text | awk '/^ *PID USER / { t = 1; next } t && $1 ~ /^[0-9]+$/ { printf "%s ", $1 }'; }
shows_only() { # PID: the table holds just this pid, and the status line says 1 shown
	wait_for ", 1 shown" || fail "the table was not filtered to one row"
	[ "$(rows)" = "$1 " ] || fail "the filtered table shows '$(rows)', not $1"
}
shows_all() {
	i=0
	while screen_text | grep -q ', 1 shown'; do
		i=$((i + 1))
		[ $i -le 30 ] || fail "the filter did not clear: $(screen_text)"
		sleep 0.1
	done
	[ "$(rows | wc -w)" -gt 1 ] || fail "after clearing, rows are '$(rows)'"
}

tm_start 160 30 "$MEMTOP -d 0.5"
wait_for "Tasks" || fail "memtop did not start"
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys -l "$marker"
shows_only "$mine"
screen_text | grep -q "$marker\$" || fail "the filtered row does not show the marker"
tm send-keys Escape
shows_all

tm send-keys F4
wait_for "Filter:" || fail "F4 opened no filter prompt"
tm send-keys -l "$marker"
tm send-keys Enter
shows_only "$mine"
wait_for "filter: $marker" || fail "the bottom line does not name the kept filter"
tm send-keys '\'
wait_for "Filter: $marker" || fail "the filter prompt does not start with the kept filter"
tm send-keys Escape
shows_all

[ -n "$other" ] || { echo "not root: u is not checked"; exit 0; }
tm send-keys u
wait_for "Show user" || fail "u opened no user prompt"
tm send-keys -l nobody
tm send-keys Enter
# nobody's processes alone: this test's, and any of another test running meanwhile
users() { screen_text | awk '/^ *PID USER / { t = 1; next } t && $1 ~ /^[0-9]+$/ { print $2 }' | sort -u; }
only_nobody() { [ "$(users)" = nobody ] && rows | grep -qw "$other"; }
eventually $HANG only_nobody || fail "u nobody shows '$(rows)' of users $(users | tr '\n' ' '), not $other among nobody's"
tm send-keys u Enter
shows_all
