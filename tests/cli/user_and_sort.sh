#!/bin/sh
# memtop-test: beside others
# -u keeps one user's processes; -o pid sorts ascending by pid, -o vsz descending by size.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# a process of another user, so that filtering by user has something to drop
[ "$(id -u)" = 0 ] || skip "needs root to run a process as nobody"
: >"$tmp/child"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$HELPERS/alloc_child" 1 >"$tmp/child" &
child=$!
wait_ready "$tmp/child" || skip "cannot run a process as nobody: $(cat "$tmp/child")"
nobody_uid=$(id -u nobody)
uid_of() { awk '$1 == "Uid:" { print $3 }' /proc/$1/status 2>/dev/null; }
[ "$(uid_of $child)" = "$nobody_uid" ] || fail "the child does not run as nobody"

"$MEMTOP" --json -n 1 >"$tmp/all" || fail "memtop --json exited $?"
jq -e --argjson p "$child" 'any(.processes[]; .pid == $p and .user == "nobody")' "$tmp/all" \
	>/dev/null || fail "without -u, nobody's pid $child is missing"

for user in root nobody; do
	uid=$(id -u $user)
	"$MEMTOP" --json -n 1 -u $user >"$tmp/out" || fail "memtop -u $user exited $?"
	jq -r '.processes[] | "\(.pid) \(.user)"' "$tmp/out" >"$tmp/rows"
	[ -s "$tmp/rows" ] || fail "-u $user shows no process"
	# owners of /proc/PID are the effective uids, read right after
	stat -c '%n %u' /proc/[0-9]* 2>/dev/null | sed 's|^/proc/||' >"$tmp/owners"
	awk -v user=$user -v uid="$uid" 'NR == FNR { owner[$1] = $2; next }
		$2 != user { print "-u " user " shows pid " $1 " of user " $2; bad = 1 }
		($1 in owner) && owner[$1] != uid { print "-u " user " shows pid " $1 " of uid " owner[$1]; bad = 1 }
		END { exit bad }' "$tmp/owners" "$tmp/rows" || fail "-u $user shows other users' processes"
	echo "-u $user: $(wc -l <"$tmp/rows") processes"
done
grep -q "^$child " "$tmp/rows" || fail "-u nobody misses pid $child"

sorted() { # FIELD SORT-FLAGS: the field in output order must equal itself sorted
	jq ".processes[].$1" "$tmp/out" >"$tmp/col"
	[ "$(wc -l <"$tmp/col")" -gt 2 ] || fail "too few processes to check the order"
	sort $2 "$tmp/col" | cmp -s - "$tmp/col" || fail "$1 is not in $2 order: $(head -n 20 "$tmp/col" | tr '\n' ' ')..."
}
"$MEMTOP" --json -n 1 -o pid >"$tmp/out" || fail "memtop -o pid exited $?"
sorted pid -n
jq -e '[.processes[].pid] | . == unique' "$tmp/out" >/dev/null || fail "-o pid is not strictly ascending"
"$MEMTOP" --json -n 1 -o vsz >"$tmp/out" || fail "memtop -o vsz exited $?"
sorted vsz_kb -nr
"$MEMTOP" --json -n 1 >"$tmp/out" || fail "memtop --json exited $?"
sorted rss_kb -nr
