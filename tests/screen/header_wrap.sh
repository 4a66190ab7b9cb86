#!/bin/sh
# The header's figure lines come from the system figure table and fit the terminal: at 60
# columns and 20 lines the activity line leaves out PSI (the figure needed least) and keeps
# Faults/s, the memory line leaves out Shmem; at 60x40 each wraps those onto a line of its
# own, and the table starts lower (and from 30 lines a row lower still: the verdict's and
# the forecast's own).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

psi=PSI
[ -r /proc/pressure/memory ] && cat /proc/pressure/memory >/dev/null 2>&1 || psi="PSI off"
title_line() { screen_text | awk '/^ *PID / { print NR; exit }'; }

tm_start 140 30 "'$MEMTOP' -d 1"
wait_for "PID" || fail "memtop did not start"
screen_text | grep -q "^Faults/s .*$psi" || fail "at 140x30 the activity line lacks $psi: $(screen_text | grep Faults)"
screen_text | grep -q "^Avail .*Free .*Shmem [0-9]" || fail "at 140x30 the memory line lacks Shmem: $(screen_text | grep Avail)"
wide=$(title_line)
tm_kill
TMUX_SOCK=memtop-test-$$-2
tm_start 60 20 "'$MEMTOP' -d 1"
wait_for "PID" || fail "memtop did not start at 60x20"
screen_text | grep -q '^Faults/s [0-9-]' || fail "at 60x20 no Faults/s line"
screen_text | grep -q "PSI" && fail "at 60x20 PSI should be left out: $(screen_text | sed -n 3,6p)"
screen_text | grep -q "Shmem" && fail "at 60x20 Shmem should be left out: $(screen_text | sed -n 3,6p)"
# (from 30 lines the header has a row of its own for the verdict and the forecast)
[ "$(title_line)" = "$((wide - 1))" ] || fail "at 60x20 the table starts at line $(title_line), not $((wide - 1))"
tm_kill
TMUX_SOCK=memtop-test-$$-3
tm_start 60 40 "'$MEMTOP' -d 1"
wait_for "PID" || fail "memtop did not start at 60x40"
screen_text | grep -q "^$psi" || fail "at 60x40 PSI does not wrap onto its own line: $(screen_text | sed -n 3,7p)"
screen_text | grep -q "^Shmem [0-9]" || fail "at 60x40 Shmem does not wrap onto its own line: $(screen_text | sed -n 3,7p)"
[ "$(title_line)" = "$((wide + 2))" ] || fail "at 60x40 the table starts at line $(title_line), not $((wide + 2))"
echo "header: one memory and one activity line at 140x30 and 60x20 (Shmem and PSI left out), two each at 60x40"
