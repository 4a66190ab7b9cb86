#!/bin/sh
# memtop-test: alone
# The verdict's line on screen: on an idle machine, at 50 lines, "Verdict nothing wrong:
# ... available" stands under the activity line, above the status line; at 30 lines, where
# nothing is wrong, there is no such line and the table starts one line higher.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
title_line() { screen_text | awk '/^ *PID / { print NR; exit }'; }

tm_start 120 50 "'$MEMTOP' -d 1"
wait_for "Verdict nothing wrong: " || fail "no verdict line at 120x50"
screen_text >"$tmp/screen"
v=$(grep -n '^Verdict ' "$tmp/screen" | cut -d: -f1)
[ "$(sed -n "$((v + 1))p" "$tmp/screen" | cut -c1-6)" = "Tasks " ] ||
	fail "the verdict is not above the status line: $(sed -n "$((v - 1)),$((v + 1))p" "$tmp/screen")"
sed -n "$((v - 1))p" "$tmp/screen" | grep -q '^Faults/s ' ||
	fail "the verdict is not under the activity line: $(sed -n "$((v - 1)),$((v + 1))p" "$tmp/screen")"
grep -q '^Verdict nothing wrong: [0-9.]*[KMGT] of [0-9.]*[KMGT] available *$' "$tmp/screen" ||
	fail "the verdict line reads: $(grep '^Verdict' "$tmp/screen")"
tall=$(title_line)
tm_kill
TMUX_SOCK=memtop-test-$$-2
tm_start 120 30 "'$MEMTOP' -d 1"
wait_for "PID" || fail "memtop did not start at 120x30"
next_refresh || fail "memtop did not refresh"
screen_text | grep -q '^Verdict' && fail "at 120x30 an idle machine has a verdict line: $(screen_text | grep '^Verdict')"
[ "$(title_line)" = "$((tall - 1))" ] || fail "at 120x30 the table starts at line $(title_line), not $((tall - 1))"
echo "verdict line at 120x50 (line $v): $(sed -n "${v}p" "$tmp/screen" | tr -s ' ')"
