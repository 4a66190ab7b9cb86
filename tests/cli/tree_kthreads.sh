#!/bin/sh
# -K leaves out exactly the kernel threads (PF_KTHREAD in /proc/PID/stat's flags);
# --tree puts each child under its parent, in batch text and in JSON.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
parent=
trap '[ -n "$parent" ] && pkill -P "$parent"; [ -n "$parent" ] && kill "$parent" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

# flags from /proc/PID/stat (field 9, counted after the command's closing parenthesis)
kthread() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ exit !(int($7 / 2097152) % 2) }'; }

"$MEMTOP" --json -n 1 >"$tmp/all" || fail "memtop --json exited $?"
"$MEMTOP" --json -n 1 -K >"$tmp/user" || fail "memtop --json -K exited $?"
jq -e 'any(.processes[]; .pid == 2)' "$tmp/all" >/dev/null || fail "kthreadd (pid 2) is not listed"
jq -e 'any(.processes[]; .pid == 2) | not' "$tmp/user" >/dev/null || fail "-K lists kthreadd (pid 2)"
kept=0 dropped=0
for p in $(jq '.processes[].pid' "$tmp/all"); do
	listed=$(jq --argjson p "$p" 'any(.processes[]; .pid == $p)' "$tmp/user")
	[ -e "/proc/$p/stat" ] || continue # gone since
	if kthread "$p"; then
		[ "$listed" = false ] || fail "-K lists kernel thread $p"
		dropped=$((dropped + 1))
	elif [ "$listed" = true ]; then
		kept=$((kept + 1))
	elif [ -e "/proc/$p/stat" ]; then
		fail "-K leaves out process $p, which is no kernel thread"
	fi
done
[ "$dropped" -gt 0 ] && [ "$kept" -gt 0 ] || fail "-K kept $kept, dropped $dropped"
echo "-K: dropped $dropped kernel threads, kept $kept processes"

# a shell with two children, 8 and 16 MiB; --tree: the shell, then the larger child
: >"$tmp/small"
: >"$tmp/large"
sh -c '"$0" 8 0 >"$1/small" & "$0" 16 0 >"$1/large" & wait' "$HELPERS/alloc_child" "$tmp" &
parent=$!
wait_ready "$tmp/small" && wait_ready "$tmp/large" || fail "the children never got ready"
large=$(pgrep -P "$parent" -f 'alloc_child 16')
small=$(pgrep -P "$parent" -f 'alloc_child 8')
[ -n "$large" ] && [ -n "$small" ] || fail "cannot find the children of $parent"
# the tree's lines in UTF-8, and in ASCII under LANG=C
for loc in C.UTF-8:├─:└─ C:\|-:\`-; do
	IFS=: read -r lc mid end <<EOF_
$loc
EOF_
	LC_ALL=$lc "$MEMTOP" -b -n 1 --tree -p "$small,$parent,$large" >"$tmp/batch" ||
		fail "memtop -b --tree exited $?"
	awk '/^ *PID USER / { t = 1; next } t && $1 ~ /^[0-9]+$/ { print $1, $14 }' "$tmp/batch" >"$tmp/rows"
	printf '%s sh\n%s %s\n%s %s\n' "$parent" "$large" "$mid" "$small" "$end" >"$tmp/want"
	cmp -s "$tmp/rows" "$tmp/want" || fail "--tree rows under $lc (pid, first word of the command):
$(cat "$tmp/rows")
want
$(cat "$tmp/want")"
done
"$MEMTOP" --json -n 1 --tree -p "$small,$parent,$large" >"$tmp/tree" || fail "--json --tree exited $?"
[ "$(jq -c '[.processes[].pid]' "$tmp/tree")" = "[$parent,$large,$small]" ] ||
	fail "--json --tree order: $(jq -c '[.processes[].pid]' "$tmp/tree")"
