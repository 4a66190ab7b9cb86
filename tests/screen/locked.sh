#!/bin/sh
# The LOCKED column (VmLck), off by default: the picker (f) shows it, the row shows the
# child's locked memory, W saves it in the settings file and the next start shows it.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
export XDG_CONFIG_HOME="$tmp/config"

"$HELPERS/lock_child" 6 >"$tmp/child" &
child=$!
wait_ready "$tmp/child" || fail "lock_child never got ready (mlock refused?)"

tm_start 140 30 "'$MEMTOP' -d 1 -p $child"
wait_for "PID USER" || fail "memtop did not start"
screen_text | grep -q 'LOCKED' && fail "LOCKED is shown by default"
tm send-keys f
wait_for "[ ] LOCKED" || fail "the picker does not list LOCKED unchecked"
n=$(screen_text | awk '/^\[/ { n++ } /^\[.\] LOCKED / { print n - 1; exit }')
tm send-keys Home
while [ "$n" -gt 0 ]; do tm send-keys Down; n=$((n - 1)); done
tm send-keys Space
wait_for "[x] LOCKED" || fail "Space did not show LOCKED"
tm send-keys Escape
wait_for "SWAP LOCKED" || fail "the table lacks LOCKED: $(screen_text | grep PID)"
# the child's row: LOCKED is the column after SWAP
col=$(screen_text | awk '/ PID / { for (i = 1; i <= NF; i++) if ($i == "LOCKED") print i }')
want=$(awk '$1 == "VmLck:" { print $2 }' "/proc/$child/status")
want=$(fmt_kb "$want")
got=$(screen_text | awk -v p="$child" -v c="$col" '$1 == p { print $c }')
[ "$got" = "$want" ] || fail "LOCKED on screen '$got', VmLck gives '$want'"
echo "LOCKED on screen: $got"

tm send-keys W
wait_for "settings saved" || fail "W did not save"
grep -q '^columns=.*locked' "$XDG_CONFIG_HOME/memtop/memtoprc" ||
	fail "the settings file lacks locked: $(cat "$XDG_CONFIG_HOME/memtop/memtoprc")"
tm send-keys q
tm_kill
TMUX_SOCK=memtop-test-$$-2
tm_start 140 30 "'$MEMTOP' -d 1 -p $child"
wait_for "SWAP LOCKED" || fail "the next start does not show the saved LOCKED column"
