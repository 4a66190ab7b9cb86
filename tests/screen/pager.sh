#!/bin/sh
# memtop-test: sanitized
# l and s show lsof -p and strace -p in a pager inside memtop: at 80x24, l on a process
# with 60 files open shows lsof's lines for it, PgDn moves to the next page, / finds a
# file name below the first page, q returns to the table; s shows the strace lines of a
# process making system calls, more as they come, and q returns with strace ended and the
# process running on, not stopped.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
holder= kid=
trap '[ -n "$holder" ] && kill $holder 2>/dev/null; [ -n "$kid" ] && kill $kid 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v lsof >/dev/null || skip "lsof is not installed"

# tail -f keeps its 60 files open: the needle's is the last, below the first page
i=10
while [ $i -lt 69 ]; do
	: >"$tmp/file-$i"
	i=$((i + 1))
done
: >"$tmp/needle-$$"
tail -f "$tmp"/file-* "$tmp/needle-$$" >/dev/null 2>&1 &
holder=$!
holds() { [ "$(ls /proc/$holder/fd 2>/dev/null | wc -l)" -ge 60 ]; }
eventually $HANG holds || fail "tail never opened its files"

shows() { screen_text | awk -v p="$1" '$1 == p { f = 1 } END { exit !f }'; }
tm_start 80 24 "$MEMTOP -d 0.5 -p $holder"
eventually $HANG shows "$holder" || fail "memtop never showed $holder: $(screen_text)"
tm send-keys l
wait_for "lsof -p $holder (tail): lines 1-22 of" || fail "l opened no pager on lsof -p $holder"
wait_for "exited 0" || fail "lsof did not end well"
screen_text >"$tmp/page1"
grep -q "^COMMAND .*NAME" "$tmp/page1" || fail "no lsof header line: $(cat "$tmp/page1")"
grep -q "^tail  *$holder .* cwd .*$(pwd)" "$tmp/page1" || fail "lsof's lines for tail are not shown: $(cat "$tmp/page1")"
grep -q "needle-$$" "$tmp/page1" && fail "the needle's file is on the first page already"
lines=$(sed -n 's/.*lines 1-22 of \([0-9]*\).*/\1/p' "$tmp/page1")
[ "$lines" -ge 62 ] || fail "the pager holds $lines lines, lsof lists 62 files at least"
echo "l: lsof -p $holder in the pager, $lines lines"

# PgDn: the next 22 lines (the first of them below the first page's)
tm send-keys PgDn
wait_for "lines 23-44 of $lines" || fail "PgDn did not move a page down: $(screen_text | head -n 1)"
first=$(screen_text | sed -n 2p)
grep -qxF -- "$first" "$tmp/page1" && fail "after PgDn the first line shown was on the first page: $first"
tm send-keys Up
wait_for "lines 22-43 of $lines" || fail "Up did not move a line up"
echo "PgDn, Up moved: $(screen_text | head -n 1)"

# / finds the needle's file from the first line
tm send-keys Home
wait_for "lines 1-22 of $lines" || fail "Home did not go back to the first line"
tm send-keys /
wait_for "Search:" || fail "/ opened no search prompt"
tm send-keys -l "needle-$$"
tm send-keys Enter
wait_gone "Search:" || fail "Enter did not close the search"
wait_for "needle-$$" || fail "/ did not find the needle's file"
echo "/ found: $(screen_text | grep -o "needle-$$")"

tm send-keys q
wait_for "F1Help" || fail "q did not return to the table"
shows "$holder" || fail "the table does not show $holder again"
echo "q returned to the table"

# s: strace -p on a process making system calls (madvise, at 50 faults a second)
if [ "$(id -u)" != 0 ] || ! command -v strace >/dev/null; then
	echo "strace's part skipped: not root, or no strace"
	exit 0
fi
: >"$tmp/kid"
"$HELPERS/alloc_child" 1 50 "pager-$$" >"$tmp/kid" &
kid=$!
wait_ready "$tmp/kid" || fail "alloc_child never got ready"
tm_kill
tm_start 80 24 "$MEMTOP -d 0.5 -p $kid"
eventually $HANG shows "$kid" || fail "memtop never showed $kid"
tm send-keys s
wait_for "strace -p $kid (alloc_child)" || fail "s opened no pager on strace -p $kid"
wait_for "madvise(" || fail "no strace line of madvise"
count() { screen_text | head -n 1 | sed -n 's/.* of \([0-9]*\), running.*/\1/p'; }
n1=$(count)
[ -n "$n1" ] || fail "the title says no count of lines, or no running strace: $(screen_text | head -n 1)"
more() { [ "$(count)" -gt "$n1" ] 2>/dev/null; }
eventually $HANG more || fail "strace's lines stopped coming at $n1"
tracer() { pgrep -f "^strace -p $kid\$" >/dev/null; }
tracer || fail "no strace -p $kid runs"
echo "s: strace lines come in, $n1 then $(count)"
tm send-keys q
wait_for "F1Help" || fail "q did not return to the table"
untraced() { ! tracer && grep -q '^TracerPid:[[:space:]]*0$' /proc/$kid/status; }
eventually $HANG untraced || fail "strace -p $kid still runs after q"
grep -q '^State:[[:space:]]*[RS]' /proc/$kid/status || fail "$kid was left $(grep ^State /proc/$kid/status)"
echo "q: strace ended, $kid $(grep ^State /proc/$kid/status | tr -s '\t ' ' ')"
