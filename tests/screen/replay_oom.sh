#!/bin/sh
# memtop-test: alone
# A recording with an OOM kill in a memory cgroup (64 MiB, a child touching 200 MiB),
# replayed on the screen: the header says it is a replay and the sample's time; N jumps to
# the kill (the banner names the victim), { steps back to the sample before it, where the
# victim is still in the table; J jumps to a time typed. It causes an OOM kill on the
# machine, so it runs apart from the BPF tests that count them.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
rec=""
trap 'kill $rec 2>/dev/null; tm_kill; cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg
if command -v flock >/dev/null; then
	exec 9>/tmp/memtop-bpf-tests.lock
	flock -w 90 9 || skip "the BPF tests held their lock for 90 s"
fi

tag=rpoom$$
cg_make "memtop-$tag" $((64 << 20))
"$MEMTOP" --record "$tmp/rec" --json -d 0.3 >"$tmp/live.json" 2>"$tmp/err" &
rec=$!
# two samples before the kill, then the kill seen by the live run (30 s at most each)
lines() { [ "$(wc -l <"$tmp/live.json")" -ge "$1" ]; }
eventually $HANG lines 2 || fail "the recorder printed no 2 lines: $(cat "$tmp/err")"
cg_run "$cg_dir" "$tmp/victim" "$HELPERS/grow_child" 100 0 "victim-$tag"
victim=$cg_pid
wait "$victim" 2>/dev/null
rc=$?
[ $rc = 137 ] || fail "the child growing past 64 MiB exited $rc, not 137 (killed)"
killed() { jq -e --argjson p "$victim" 'select(any(.events[]?; .pid == $p and .earlier != true))' "$tmp/live.json" >/dev/null 2>&1; }
eventually $HANG killed
n=$(wc -l <"$tmp/live.json")
eventually $HANG lines $((n + 2)) || fail "the recorder stopped after the kill: $(cat "$tmp/err")"
kill $rec
wait $rec 2>/dev/null
rec=""
kills=$(jq -c --argjson p "$victim" '.events[] | select(.pid == $p and .earlier != true)' "$tmp/live.json" | wc -l)
[ "$kills" = 1 ] || fail "the live run saw $kills kills of $victim: $(cat "$tmp/err")"

tm_start 160 40 "$MEMTOP --replay $tmp/rec"
wait_for "REPLAY 1/" || fail "the header does not say it is a replay"
first=$(jq -r '.ts | floor | strftime("%H:%M:%S")' "$tmp/live.json" | head -n 1)
tm send-keys N
wait_for "pid $victim (grow_child)" || fail "N did not show the OOM banner of $victim"
at=$(screen_text | grep -o 'REPLAY [0-9]*/' | grep -o '[0-9]*')
tm send-keys '{'
wait_for "REPLAY $((at - 1))/" || fail "{ did not step back from sample $at"
wait_gone "pid $victim (grow_child)" || fail "the banner stays on the sample before the kill"
screen_text | grep -q "^ *$victim .*victim-$tag" || fail "the victim $victim is not in the table before its kill"
# Enter on the victim (selected by a search): its detail as recorded, its recorded graphs
tm send-keys / -l "victim-$tag"
tm send-keys Enter Escape
tm send-keys Enter
wait_for "Recorded: RSS" || fail "Enter in a replay did not open the recorded detail: $(screen_text | head -12)"
screen_text | grep -q "not recorded" || fail "the detail does not say what is not recorded"
tm send-keys 4
wait_for "RSS" || fail "no graphs in the replay's detail"
tm send-keys Escape
wait_for "REPLAY $((at - 1))/" || fail "Esc did not come back from the detail"
tm send-keys '}'
wait_for "pid $victim (grow_child)" || fail "} did not come back to the kill"

# J: to a time; the first sample's second takes to the start
first_ts=$(jq '.ts' "$tmp/live.json" | head -n 1)
when=$(date -d "@${first_ts%.*}" +%H:%M:%S)
tm send-keys J
wait_for "Jump to" || fail "J opened no prompt"
tm send-keys -l "$when"
tm send-keys Enter
wait_for "REPLAY 1/" || fail "J $when did not go to the first sample"
tm send-keys h
wait_for "previous OOM kill" || fail "the help does not list the replay's keys"
tm send-keys q q
echo "replayed: N showed the kill of $victim at sample $at, { the sample before it with the victim"
