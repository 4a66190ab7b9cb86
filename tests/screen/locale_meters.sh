#!/bin/sh
# Under LANG=C the meters are drawn in ASCII and nothing else reaches the screen; under
# C.UTF-8 the bar is made of block characters.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
locale -a | grep -qix 'c\.utf-\?8' || skip "no C.UTF-8 locale"
export LC_ALL=C.UTF-8 # tmux itself and its captures speak UTF-8

# used memory of at least 1/30 of RAM fills at least two cells of the 95-cell bar
mib=$(awk '$1 == "MemTotal:" { print int($2 / 1024 / 30) + 1 }' /proc/meminfo)
[ "$mib" -le 4096 ] || skip "1/30 of RAM is $mib MiB; too much to allocate for a test"
start_child "$mib"

# one pane runs memtop under C, then, after q, under C.UTF-8
tm_start 100 30 "env LANG=C LC_ALL=C '$MEMTOP' -d 0.5; clear; env LANG=C.UTF-8 LC_ALL=C.UTF-8 '$MEMTOP' -d 0.5"
wait_for "PID USER" || fail "memtop under LANG=C did not start"
screen_text >"$tmp/c"
head -n 1 "$tmp/c"
head -n 1 "$tmp/c" | grep -Eq '^Mem\[\|\|[|#. ]* [0-9.]+[KMGT]/[0-9.]+[KMGT]\]$' ||
	fail "under LANG=C the Mem meter is not '|#.' bars: $(head -n 1 "$tmp/c")"
if LC_ALL=C grep -n '[^ -~]' "$tmp/c"; then
	fail "under LANG=C the screen holds characters outside printable ASCII"
fi
if grep -n 'M-' "$tmp/c"; then
	fail "under LANG=C the screen shows raw bytes as M- sequences"
fi
tm send-keys q
wait_for "Mem[██" || fail "under C.UTF-8 the Mem meter does not start with full blocks"
line=$(screen_text | head -n 1)
echo "$line"
if printf '%s\n' "$line" | grep -q '[|#]'; then
	fail "under C.UTF-8 the Mem meter uses ASCII bars: $line"
fi
