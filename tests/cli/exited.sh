#!/bin/sh
# A process that exits is listed in JSON exited[] from the first refresh that finds it gone,
# with its pid, name, user and its RSS of the refresh before (its last), and in batch text
# under "Exited:". (That it goes after a minute is checked on the model's clock in the
# unit tests, tests/unit/test_model.c.)
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= mon=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; [ -n "$mon" ] && kill "$mon" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

start_child 16
"$MEMTOP" --json -d 0.2 -n 3000 >"$tmp/json" 2>"$tmp/err" &
mon=$!
"$MEMTOP" -b -d 0.2 -n 3000 >"$tmp/batch" 2>&1 &
bmon=$!

# until memtop listed the child in a refresh, then it exits (reaped: no zombie is left)
has() { # FILE JQ: whether the last whole line of FILE meets JQ
	l=$(tail -n 2 "$1" | grep '}$' | tail -n 1)
	[ -n "$l" ] && printf '%s\n' "$l" | jq -e "$2" >/dev/null 2>&1
}
i=0
until has "$tmp/json" "any(.processes[]; .pid == $child)"; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "child $child never listed: $(head -c 300 "$tmp/err")"
	sleep 0.1
done
kill "$child"
wait "$child" 2>/dev/null
gone=$child
child=
i=0
until has "$tmp/json" "any(.exited[]; .pid == $gone)"; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "$gone never listed in exited[]"
	sleep 0.1
done
i=0
until grep -q "pid $gone (alloc_child)" "$tmp/batch"; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "$gone never under Exited: in batch text"
	sleep 0.1
done
kill "$mon" "$bmon"
wait "$mon" "$bmon" 2>/dev/null
mon=

# the refresh that lists it in exited[] first, and the one before it, whose RSS is its last
n=$(grep '}$' "$tmp/json" | jq -s --argjson p "$gone" '
	([to_entries[] | select(any(.value.exited[]; .pid == $p)) | .key][0]) as $i
	| [.[$i - 1].processes[] | select(.pid == $p) | .rss_kb][0] as $last
	| (.[$i].exited[] | select(.pid == $p)) as $e
	| [$i, $last, $e.last_rss_kb, $e.comm, $e.user, ($e.exited_ts == .[$i].ts)]
	| map(tostring) | join(" ")') || fail "jq failed on $tmp/json"
set -- $(echo "$n" | tr -d '"')
[ "$1" -ge 1 ] || fail "exited[] had $gone on the first refresh"
[ "$2" = "$3" ] || fail "last_rss_kb $3, its rss_kb in the refresh before $2"
[ "$4" = alloc_child ] || fail "comm $4"
[ "$5" = "$(id -un)" ] || fail "user $5, not $(id -un)"
[ "$6" = true ] || fail "exited_ts is not the ts of the refresh that found it gone"
grep -q "^Exited: [0-9]* in the last minute$" "$tmp/batch" || fail "no Exited: line in batch text"
echo "ok pid $gone exited: last_rss_kb $3 (rss_kb before $2), comm $4, user $5"
