#!/bin/sh
# In the tree view (t) - folds the selected process: its children are hidden, across
# refreshes, and its row is marked "+" before the command, as htop marks it; + unfolds it
# and the children show again; * folds every process with children, * again unfolds all.
# Outside the tree view - says it folds the tree.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
parent=
trap '[ -n "$parent" ] && pkill -P "$parent"; [ -n "$parent" ] && kill "$parent" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# a shell with two children, 8 and 16 MiB
marker=fold-$$
: >"$tmp/small"; : >"$tmp/large"
sh -c '"$0" 8 0 "$1" >"$2/small" & "$0" 16 0 "$1" >"$2/large" & wait' \
	"$HELPERS/alloc_child" "$marker" "$tmp" &
parent=$!
wait_ready "$tmp/small" && wait_ready "$tmp/large" || fail "the children never got ready"
small=$(pgrep -P "$parent" -f "alloc_child 8 ") large=$(pgrep -P "$parent" -f "alloc_child 16 ")
[ -n "$small" ] && [ -n "$large" ] || fail "no children of $parent found"

tm_start 160 30 "$MEMTOP -d 0.5"
wait_for "Tasks" || fail "memtop did not start"
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys -l "$marker"
tm send-keys Enter
wait_for ", 3 shown" || fail "the filter did not leave the shell and its two children"

# the table's rows, as "PID COMMAND" (the tree's lines and marks before the command)
table() { cmd_rows; }
pids() { table | awk '{ print $1 }' | sort -n | tr '\n' ' '; }
all=$(printf '%s\n' "$parent" "$small" "$large" | sort -n | tr '\n' ' ')
only_parent() { [ "$(pids)" = "$parent " ]; }
all_shown() { [ "$(pids)" = "$all" ]; }

tm send-keys -- -
wait_for "fold the tree view (t)" || fail "- outside the tree view did not say what it does"
all_shown || fail "- outside the tree view changed the rows: $(table)"

tm send-keys t
wait_for "RSS desc, tree" || fail "t did not turn the tree view on"
eventually $HANG all_shown || fail "the tree does not show the shell and its children: $(table)"
tm send-keys Home
tm send-keys -- -
eventually $HANG only_parent || fail "- on $parent did not hide its children: $(table)"
wait_for ", 1 shown" || fail "the status line does not count 1 row shown"
table | grep -q "^$parent + sh -c" || fail "the folded row is not marked +: $(table)"
next_refresh || fail "memtop did not refresh"
next_refresh || fail "memtop did not refresh"
only_parent || fail "the fold did not last a refresh: $(table)"
echo "-: $(table)"

tm send-keys +
eventually $HANG all_shown || fail "+ on $parent did not show its children again: $(table)"
table | grep -q "^$parent sh -c" || fail "the unfolded row is still marked: $(table)"
table | grep -q "^$large .*alloc_child 16" || fail "the larger child is not under its parent: $(table)"
echo "+: $(table | tr '\n' '|')"

tm send-keys '*'
eventually $HANG only_parent || fail "* did not fold every process with children: $(table)"
tm send-keys '*'
eventually $HANG all_shown || fail "a second * did not unfold all: $(table)"
echo "* folded all, * again unfolded all"
