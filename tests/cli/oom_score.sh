#!/bin/sh
# memtop-test: beside others
# --columns +oom: each process's OOM badness score is its /proc/PID/oom_score. Two
# children of the same size, one with oom_score_adj 800: -o oom puts that one first, as
# the OOM killer would pick it; the batch text shows the same scores; as another user
# the scores are still there (oom_score is world-readable).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
trap '[ -n "$kids" ] && kill $kids 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

start_child 20
plain=$child kids=$child
start_child 20
picked=$child kids="$kids $child"
echo 800 >"/proc/$picked/oom_score_adj" || fail "cannot raise the oom_score_adj of $picked"

score() { cat "/proc/$1/oom_score"; }
before_plain=$(score "$plain") before_picked=$(score "$picked")
"$MEMTOP" --json -n 1 --columns +oom -o oom -p "$plain,$picked" >"$tmp/json" ||
	fail "memtop --json exited $?"
"$MEMTOP" -b -n 1 --columns pid,oom,cmd -p "$plain,$picked" >"$tmp/batch" ||
	fail "memtop -b exited $?"
after_plain=$(score "$plain") after_picked=$(score "$picked")

# a score moves only with the child's memory and the machine's: read before and after
for who in plain picked; do
	eval pid=\$$who lo=\$before_$who hi=\$after_$who
	got=$(jq --argjson p "$pid" '.processes[] | select(.pid == $p) | .oom_score' "$tmp/json")
	[ "$got" = "$lo" ] || [ "$got" = "$hi" ] ||
		fail "$who child $pid: JSON oom_score $got, /proc says $lo then $hi"
	row=$(awk -v p="$pid" '$1 == p { print $2 }' "$tmp/batch")
	[ "$row" = "$lo" ] || [ "$row" = "$hi" ] ||
		fail "$who child $pid: batch OOM $row, /proc says $lo then $hi"
	echo "$who child $pid: oom_score $got (/proc $lo, $hi)"
done
[ "$(jq '.processes[0].pid' "$tmp/json")" = "$picked" ] ||
	fail "-o oom does not put the child with oom_score_adj 800 first: $(jq -c '[.processes[] | [.pid, .oom_score]]' "$tmp/json")"
jq -e 'all(.processes[]; has("oom_score"))' "$tmp/json" >/dev/null || fail "oom_score missing"
"$MEMTOP" --json -n 1 -p "$plain" | jq -e '.processes[0] | has("oom_score") | not' >/dev/null ||
	fail "oom_score printed without --columns +oom"

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$MEMTOP" --json -n 1 \
		--columns +oom -p "$picked" >"$tmp/nobody" || fail "memtop as nobody exited $?"
	jq -e '.processes[0].oom_score >= 800' "$tmp/nobody" >/dev/null ||
		fail "as nobody: $(jq -c '.processes[0] | {pid, oom_score}' "$tmp/nobody")"
fi
