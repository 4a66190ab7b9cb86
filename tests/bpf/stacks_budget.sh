#!/bin/sh
# memtop-test: beside others
# memtop-test: timeout 600
# Past the budget of copied stacks (MEMTOP_STACKS_COPIES, here 500 a second a CPU, so that
# any machine passes it) a uniform sample is unwound and its counts scaled. map_loop maps,
# touches and unmaps one page 150,000 times, one mmap and one munmap call each time, far
# faster than the budget but no faster than 8,000 times a second (19 s at least, on a
# fast machine as on a slow one: some 15,000 copies, enough for the sample's counts to
# fall within the bounds below by three and a half standard errors and more; and the
# storm's first 100 ms, before its rate is known, whose copies past the window's cap are
# counted, not copied, a small part of it): memtop --stacks, attached before it starts,
# left events out (events_sampled_out), marks the mmap and munmap stacks estimated, and
# their scaled counts are within 10 % of each other, within 15 % of 150,000 each, and with
# the calls counted and not copied (calls_not_unwound) within 10 % of the 300,000 calls;
# the fault stacks' within 25 % of the user-mode faults seen (the sampled faults have a
# quarter of the budget of their own).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
. "$TESTS/map_loop.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'ml_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
N=150000
j() { jq -r "$1" "$tmp/out"; }

ml_start $N 1 8000
MEMTOP_STACKS_COPIES=500 "$MEMTOP" --stacks "$ML_PID:600" --json >"$tmp/out" 2>"$tmp/err" &
mt=$!
wait_links $mt $STACKS_LINKS || fail "memtop --stacks did not attach: $(cat "$tmp/err")"
ml_go
ml_wait
sleep 1.2 # a read of the stacks after the last call
kill -INT $mt
wait $mt
jq -e .stacks "$tmp/out" >/dev/null || fail "memtop --stacks: $(cat "$tmp/err")"
[ "$(j .calls)" -ge $((2 * N)) ] || fail "$(j .calls) calls seen, map_loop made $((2 * N))"
[ "$(j .events_sampled_out)" -gt 0 ] || fail "no events left out: the budget was not passed"
mm=$(j '[.stacks[] | select(.kind == "mmap") | .count] | add')
mu=$(j '[.stacks[] | select(.kind == "munmap") | .count] | add')
fa=$(j '[.stacks[] | select(.kind == "fault") | .count] | add')
[ "$(j '[.stacks[] | select(.kind == "mmap" or .kind == "munmap") | .estimated] | all')" = true ] ||
	fail "mmap and munmap stacks not marked estimated"
within "$mm" $N 15 || fail "mmap: $mm scaled, $N made"
within "$mu" $N 15 || fail "munmap: $mu scaled, $N made"
within $((mm + mu + $(j .calls_not_unwound))) $((2 * N)) 10 ||
	fail "calls: $mm + $mu scaled + $(j .calls_not_unwound) not unwound, $((2 * N)) made"
within "$mm" "$mu" 10 || fail "mmap $mm and munmap $mu differ by more than 10 %"
within "$fa" "$(j .faults_user)" 25 || fail "fault stacks: $fa, user-mode faults seen $(j .faults_user)"
echo "past the budget ($(j .events_sampled_out) events left out): mmap ~$mm, munmap ~$mu of $N; faults ~$fa of $(j .faults_user)"
