#!/bin/sh
# The first line's rates: on the first refresh a process's rates are averages over its
# life so far (as top shows them), and JSON says so: each process carries rate_since_s,
# its age, and minflt_per_s x rate_since_s is the faults it took in that life. On later
# lines a process seen before has no rate_since_s: its rates span interval_s (processes'
# /proc counters: procs_interval_s); one that started in between carries its age.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= late=
trap 'kill $child $late 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

start_child 8 2000
old=$child
sleep 1
hz=$(getconf CLK_TCK)
age() { awk -v hz="$hz" -v up="$(cut -d' ' -f1 /proc/uptime)" '{ print up - $22 / hz }' "/proc/$1/stat"; }
minflt() { awk '{ print $10 }' "/proc/$1/stat"; }

a0=$(age "$old") f0=$(minflt "$old")
"$MEMTOP" --json -n 3 -d 3 >"$tmp/out" &
mt=$!
# a second after the 2nd line, 2 s before the 3rd refresh: a process none saw before the
# 3rd, younger than the interval
two_lines() { [ "$(wc -l <"$tmp/out")" -ge 2 ]; }
eventually $HANG two_lines || fail "memtop printed no 2 lines"
sleep 1
"$HELPERS/alloc_child" 0 >/dev/null &
late=$!
wait "$mt" || fail "memtop --json exited $?"
a1=$(age "$old") f1=$(minflt "$old")

jq -s -e 'all(.[0].processes[]; .rate_since_s > 0)' "$tmp/out" >/dev/null ||
	fail "on the first line not every process has rate_since_s"
got=$(jq -s --argjson p "$old" '.[0].processes[] | select(.pid == $p) |
	"\(.rate_since_s) \(.minflt_per_s * .rate_since_s)"' -r "$tmp/out")
awk -v g="$got" -v a0="$a0" -v a1="$a1" -v f0="$f0" -v f1="$f1" 'BEGIN {
	split(g, v, " ")
	if (v[1] < a0 - 0.05 || v[1] > a1 + 0.05) { print "rate_since_s " v[1] ", the child was " a0 " to " a1 " s old"; exit 1 }
	if (v[2] < f0 * 0.97 - 20 || v[2] > f1 * 1.03 + 20) { print "minflt_per_s x rate_since_s " v[2] ", the child took " f0 " to " f1 " faults"; exit 1 }
	print "first line: the child aged " v[1] " s, " v[2] " faults (/proc: " f0 " to " f1 ")" }' ||
	fail "the first line's rates of pid $old do not span its life"
jq -s -e --argjson p "$old" '.[1:][] | .processes[] | select(.pid == $p) | has("rate_since_s") | not' \
	"$tmp/out" >/dev/null || fail "pid $old has rate_since_s on a later line"
# the span between the lines' reads of /proc, whatever the machine's load made it
jq -s -e '[range(1; length) as $k | .[$k].procs_interval_s - (.[$k].ts - .[$k - 1].ts)] |
	all(. > -0.5 and . < 0.5)' "$tmp/out" >/dev/null ||
	fail "procs_interval_s: $(jq -c .procs_interval_s "$tmp/out" | tr '\n' ' '), ts $(jq -c .ts "$tmp/out" | tr '\n' ' ')"
jq -s -e --argjson p "$late" '.[2].procs_interval_s as $i | .[2].processes[] |
	select(.pid == $p) | .rate_since_s > 0 and .rate_since_s < $i' "$tmp/out" >/dev/null ||
	fail "the process started between refreshes ($late): $(jq -s -c --argjson p "$late" '.[2].processes[] | select(.pid == $p)' "$tmp/out")"
