#!/bin/sh
# memtop-test: beside others
# memtop --stacks TID:SECS, where TID is a thread that is not its process's leader: the
# sampler follows the thread's process, and stderr says so. map_loop's second thread
# maps, touches and unmaps 16 pages in a loop: the output is of its process (pid), with
# thousands of faults, no more than /proc/PID/stat's minor faults moved over the run,
# and mmap and munmap stacks.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
. "$TESTS/map_loop.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'ml_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available

minflt() { awk '{ print $10 }' "/proc/$ML_PID/stat"; }
ml_start 0 16
[ "$ML_TID" != "$ML_PID" ] || fail "map_loop's loop runs in its main thread"
ml_go
before=$(minflt)
"$MEMTOP" --stacks "$ML_TID:1.5" --json >"$tmp/out" 2>"$tmp/err" ||
	fail "memtop --stacks $ML_TID:1.5 failed: $(cat "$tmp/err")"
after=$(minflt)
grep -q "$ML_TID is a thread of process $ML_PID" "$tmp/err" ||
	fail "stderr does not name thread $ML_TID and its process $ML_PID: $(cat "$tmp/err")"
j() { jq -r "$1" "$tmp/out"; }
[ "$(j .pid)" = "$ML_PID" ] || fail "pid $(j .pid), not the process $ML_PID"
faults=$(j .faults)
[ "$faults" -ge 1000 ] || fail "$faults faults seen from a thread faulting in a loop"
[ "$faults" -le $((after - before)) ] || fail "$faults faults, /proc says $((after - before))"
for k in mmap munmap; do
	[ "$(j "[.stacks[] | select(.kind == \"$k\") | .count] | add // 0")" -gt 0 ] ||
		fail "no $k stacks"
done
echo "thread $ML_TID: process $ML_PID, $faults faults (/proc: $((after - before)))"
