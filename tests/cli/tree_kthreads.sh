#!/bin/sh
# -K leaves out exactly the kernel threads (PF_KTHREAD in /proc/PID/stat's flags);
# --tree puts each child under its parent, in batch text and in JSON.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
parent=
trap '[ -n "$parent" ] && pkill -P "$parent"; [ -n "$parent" ] && kill "$parent" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

"$MEMTOP" --json -n 1 >"$tmp/all" || fail "memtop --json exited $?"
"$MEMTOP" --json -n 1 -K >"$tmp/user" || fail "memtop --json -K exited $?"
jq -e 'any(.processes[]; .pid == 2)' "$tmp/all" >/dev/null || fail "kthreadd (pid 2) is not listed"
jq -e 'any(.processes[]; .pid == 2) | not' "$tmp/user" >/dev/null || fail "-K lists kthreadd (pid 2)"
# each process listed without -K that is still there, one line: kthread or process (the
# flags in /proc/PID/stat, field 9, counted after the command's closing parenthesis), its
# pid, and whether -K listed it; one awk for them all (there may be thousands)
jq '.processes[].pid' "$tmp/user" >"$tmp/user.pids"
jq '.processes[].pid' "$tmp/all" | awk -v listed="$tmp/user.pids" '
	BEGIN { while ((getline p <listed) > 0) user[p] = 1 }
	{
		f = "/proc/" $1 "/stat"
		if ((getline s <f) <= 0) # gone since
			next
		close(f)
		sub(/.*\) /, "", s)
		split(s, v, " ")
		print (int(v[7] / 2097152) % 2 ? "kthread" : "process"), $1, ($1 in user ? "listed" : "left-out")
	}' >"$tmp/kinds"
p=$(awk '$1 == "kthread" && $3 == "listed" { print $2; exit }' "$tmp/kinds")
[ -z "$p" ] || fail "-K lists kernel thread $p"
for p in $(awk '$1 == "process" && $3 == "left-out" { print $2 }' "$tmp/kinds"); do
	[ -e "/proc/$p/stat" ] && fail "-K leaves out process $p, which is no kernel thread"
done
kept=$(grep -c '^process .* listed$' "$tmp/kinds")
dropped=$(grep -c '^kthread ' "$tmp/kinds")
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
