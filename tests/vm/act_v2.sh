#!/bin/sh
# The actions that only cgroup v2 has, on a real kernel as the kernel lane boots it (make
# test-kernels; this project's machine is v1): on one cgroup, from the cgroup screen,
# each confirmed with y and checked against the kernel's files:
# - H sets memory.high to 32M (the file says 33554432); a child then touching 96 MiB is
#   throttled at it: memory.events counts high events;
# - R reclaims 16M of page cache (a file read in the cgroup): memory.stat's file falls by
#   at least 8 MiB, or on a kernel without memory.reclaim (before 5.19) R says why;
# - k kills the cgroup: cgroup.kill where the kernel has it (5.14), else each process; the
#   child dies of SIGKILL and cgroup.procs is empty.
: "${TESTS:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$TESTS/bpf/lib.inc"
. "$TESTS/screen/act.inc"
[ "$(id -u)" = 0 ] || skip "needs root"
grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || skip "no cgroup v2 memory controller"
command -v tmux >/dev/null || skip "needs tmux"

name=memtop-actv2-$$
memcg "$name" $((512 << 20))
file=$WORK/cache
dd if=/dev/zero of="$file" bs=1M count=64 status=none || fail "writing $file"
sync
echo 1 >/proc/sys/vm/drop_caches
mkfifo "$WORK/go"
in_memcg sh -c 'cat "$0" >/dev/null; read x <"$1"; exec "$2" 96 1 600' "$file" "$WORK/go" "$HOG"
child=$KID
stat_file() { awk '$1 == "file" { print $2 }' "$CG/memory.stat"; }
cached() { [ "$(stat_file)" -ge $((48 << 20)) ]; }
eventually $HANG cached || fail "the file was not cached in the cgroup: $(stat_file)"

act_start --cgroups
act_pick_cgroup "/$name"
tm send-keys H
wait_for "memory.high of /$name, now max" || fail "H did not show memory.high now"
tm send-keys -l 32M
tm send-keys Enter
wait_for "Set memory.high of /$name max -> 32M? [y/N]" || fail "no confirmation"
tm send-keys y
wait_for "memory.high of /$name set max -> 32M by you" || fail "y did not say it"
[ "$(cat "$CG/memory.high")" = $((32 << 20)) ] || fail "memory.high is $(cat "$CG/memory.high")"

# reclaim, before the child grows
before=$(stat_file)
tm send-keys R
if [ -e "$CG/memory.reclaim" ]; then
	wait_for "Reclaim from /$name (" || fail "R did not ask how much"
	tm send-keys -l 16M
	tm send-keys Enter
	wait_for "Reclaim 16M from /$name (memory.reclaim)? [y/N]" || fail "no confirmation"
	tm send-keys y
	wait_for "memory.reclaim of /$name: " || fail "y did not say it"
	after=$(stat_file)
	[ $((before - after)) -ge $((8 << 20)) ] || fail "page cache $before -> $after: not reclaimed"
	echo "memory.reclaim: page cache $before -> $after"
else
	wait_for "this kernel has no memory.reclaim (Linux 5.19 and later)" || fail "R did not say why"
fi

# throttled at memory.high
high_events() { awk '$1 == "high" { print $2 }' "$CG/memory.events"; }
echo go >"$WORK/go"
throttled() { [ "$(high_events)" -gt 0 ]; }
eventually $HANG throttled || fail "no high event in memory.events"
echo "memory.high: $(high_events) high events"

# kill
tm send-keys k
if [ -e "$CG/cgroup.kill" ]; then how="(cgroup.kill, its subtree too)"; else how="(SIGKILL each, by pidfd)"; fi
wait_for "Kill /$name: 1 processes $how? [y/N]" || fail "k asked for no confirmation"
tm send-keys y
wait "$child" 2>/dev/null
rc=$?
[ $rc = 137 ] || fail "the child should have died of SIGKILL (137), exited $rc"
[ -z "$(cat "$CG/cgroup.procs")" ] || fail "processes left: $(cat "$CG/cgroup.procs")"
echo "killed $how"
