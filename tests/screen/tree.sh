#!/bin/sh
# t and F5 show processes under their parents, children in sort order, with the tree's
# lines before the command, which keeps room for itself at 80 columns; kernel threads'
# [names] stay whole in a narrow column; K hides kernel threads and shows them again.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
parent=
trap '[ -n "$parent" ] && pkill -P "$parent"; [ -n "$parent" ] && kill "$parent" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

locale -a | grep -qix 'c\.utf-\?8' || skip "no C.UTF-8 locale"
export LC_ALL=C.UTF-8 # the tree's lines are box-drawing characters

# a shell with two children, 8 and 16 MiB: by RSS the larger child comes first
marker=tree-$$
: >"$tmp/small"; : >"$tmp/large"
sh -c '"$0" 8 0 "$1" >"$2/small" & "$0" 16 0 "$1" >"$2/large" & wait' \
	"$HELPERS/alloc_child" "$marker" "$tmp" &
parent=$!
wait_ready "$tmp/small" && wait_ready "$tmp/large" || fail "the children never got ready"

tm_start 160 30 "$MEMTOP -d 0.5"
wait_for "Tasks" || fail "memtop did not start"
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys -l "$marker"
tm send-keys Enter
wait_for ", 3 shown" || fail "the filter did not leave the shell and its two children"

# the table's rows after the header, as "PID COMMAND"
table() { screen_text | awk '/^ *PID USER / { t = 1; next } t && $1 ~ /^[0-9]+$/ { print $1, substr($0, index($0, $14)) }'; }
tm send-keys t
wait_for "RSS desc, tree" || fail "t did not turn the tree view on"
table >"$tmp/tree"
large=$(awk '/alloc_child 16 / { print $1 }' "$tmp/tree")
small=$(awk '/alloc_child 8 / { print $1 }' "$tmp/tree")
printf '%s %s\n%s ├─ %s\n%s └─ %s\n' "$parent" "sh -c" "$large" "$HELPERS/alloc_child 16" \
	"$small" "$HELPERS/alloc_child 8" >"$tmp/want"
# each row starts as wanted: the pid, then the tree's lines and the command
awk 'NR == FNR { want[FNR] = $0; next } index($0, want[FNR]) != 1 { bad = 1 } END { exit bad || FNR != 3 }' \
	"$tmp/want" "$tmp/tree" || fail "the tree view shows
$(cat "$tmp/tree")
instead of rows starting
$(cat "$tmp/want")"

# at 80 columns: fewer columns, and each child keeps its lines and its program's name
commands() { cmd_rows; }
tm resize-window -x 80 -y 30
room() { screen_text | awk '/^ *PID / { exit !(index($0, "COMMAND") <= 80 - 24 + 1) }'; }
eventually $HANG room || fail "the tree view at 80 columns did not make room for the command"
# the rows as drawn after the titles (read again until the frame is whole, 10 s at most)
narrow() {
	commands >"$tmp/narrow"
	grep -q "^$large ├─ alloc_child 16" "$tmp/narrow" && grep -q "^$small └─ alloc_child 8" "$tmp/narrow"
}
eventually $HANG narrow || fail "at 80 columns the tree view shows
$(cat "$tmp/narrow")"

tm send-keys F5
wait_gone ", tree" || fail "F5 did not turn the tree view off"
commands | grep -q '[├└]─' && fail "the tree's lines stay without the tree view: $(commands)"

# a narrow COMMAND column drops a program's directory, never a kernel thread's name
tm send-keys '\'
wait_for "Filter: $marker" || fail "\\ opened no filter prompt"
tm send-keys C-u
tm send-keys -l "kworker/"
tm send-keys Enter
wait_for "[kworker/" || fail "no kworker shown"
# (a kernel thread's name ends in "]"; a process whose command line holds "kworker/", as
# this script's own grep, is not one)
commands | awk '$NF ~ /\]$/ && $2 !~ /^\[kworker\// { bad = 1 } END { exit bad }' ||
	fail "kernel threads' names cut at a slash: $(commands)"

# K: the kernel's kthreadd (pid 2) is shown, hidden, shown again
tm send-keys '\'
wait_for "Filter: kworker/" || fail "\\ opened no filter prompt"
tm send-keys C-u
tm send-keys -l kthreadd
tm send-keys Enter
wait_for "[kthreadd]" || fail "kthreadd is not shown"
tm send-keys K
wait_for ", 0 shown" || fail "K did not hide kthreadd"
tm send-keys K
wait_for "[kthreadd]" || fail "a second K did not show kthreadd again"
