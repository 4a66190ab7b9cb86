#!/bin/sh
# memtop-test: timeout 900
# The actions on a cgroup v2 memory cgroup, on a real kernel as the kernel lane boots it
# (make test-kernels; this project's machine is v1), each from the cgroup screen,
# confirmed with y and checked against the kernel's files. One cgroup, memory.max 64 MiB
# and no swap, holds 48 MiB of page cache (a file on /var/tmp, a disk: on /tmp, tmpfs,
# its pages would be shmem, which only swap can take) and a child, step_grow, that grows
# when told to:
# - R reclaims 16M: memory.stat's file falls by at least 8 MiB; a kernel without
#   memory.reclaim (before 5.19) has R say why;
# - L raises memory.max 64M -> 256M: the child then touches 96 MiB, which the old limit
#   could not hold without swap, and lives (no OOM kill in memory.events);
# - H sets memory.high to 32M, below the cgroup's usage, swap now allowed: the child's
#   next 48 MiB are throttled. Before H, of each MiB it touched at least 3/4 stayed
#   charged to the cgroup (memory.current); after, at most 1/2. The kernel's reclaim in
#   the cgroup (memory.stat pgscan), its high events (memory.events) and memtop's own
#   reclaim stall total for the cgroup (BPF, reclaim_stall_ns) all rise by more during
#   the throttled growth than during the free one. Outcomes counted, not times;
# - k kills the cgroup: cgroup.kill where the kernel has it (5.14), else each process by
#   pidfd, as the confirmation says; the child dies of SIGKILL, cgroup.procs is empty.
: "${TESTS:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$TESTS/bpf/lib.inc"
. "$TESTS/screen/act.inc"
need_bpf reclaim
grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || skip "no cgroup v2 memory controller"
command -v tmux >/dev/null || skip "needs tmux"
[ -x "$HELPERS/step_grow" ] || fail "build first: $HELPERS/step_grow"

name=memtop-actv2-$$
memcg "$name" $((64 << 20))
echo 0 >"$CG/memory.swap.max" || fail "no memory.swap.max"
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$CG/memory.stat"; }
event() { awk -v k="$1" '$1 == k { print $2 }' "$CG/memory.events"; }
current() { cat "$CG/memory.current"; }
mib() { echo $(($1 >> 20)); }

# the page cache: read by a process in the cgroup, so charged to it
file=/var/tmp/memtop-actv2.$$
RMFILES=$file
dd if=/dev/zero of="$file" bs=1M count=48 oflag=direct status=none || fail "writing $file"
in_memcg cat "$file"
wait "$KID" || fail "cat $file in the cgroup failed"
# (memory.stat's figures are flushed from per-CPU counters now and then: waited for)
cached() { [ "$(stat_of file)" -ge $((32 << 20)) ]; }
eventually $HANG cached || fail "the file was not cached in the cgroup: $(grep -E '^(file|shmem) ' "$CG/memory.stat" | tr '\n' ' ')"

# the child, told how much to grow through a fifo held open here
mkfifo "$WORK/steps"
exec 3<>"$WORK/steps"
# (its redirections inside: sh gives a command run in the background /dev/null for input)
in_memcg sh -c 'exec "$0" <"$1" >"$2"' "$HELPERS/step_grow" "$WORK/steps" "$WORK/grow.out"
child=$KID
grown() { grep -qx "touched $1" "$WORK/grow.out"; }
eventually $HANG grep -qs ready "$WORK/grow.out" || fail "step_grow did not start"

# memtop with BPF in the background for the reclaim stalls; memtop on the screen to act
mt_start --cgroups -d 1
mt_wait_lines 1
# stall: memtop's reclaim stall total of the cgroup, ns, in a line written after now
stall() {
	mt_wait_lines $(($(mt_lines) + 2))
	mt_last | jq --arg p "/$name" '[.cgroups[] | select(.path == $p) |
		.reclaim_stall_ns // 0] | first // 0'
}
act_start --cgroups
act_pick_cgroup "/$name"

# R: reclaim
tm send-keys R
if [ -e "$CG/memory.reclaim" ]; then
	wait_for "Reclaim from /$name (" || fail "R did not ask how much"
	before=$(stat_of file)
	tm send-keys -l 16M
	tm send-keys Enter
	wait_for "Reclaim 16M from /$name (memory.reclaim)? [y/N]" || fail "no confirmation"
	tm send-keys y
	wait_for "memory.reclaim of /$name: " || fail "y did not say it"
	dropped() { [ $((before - $(stat_of file))) -ge $((8 << 20)) ]; }
	eventually $HANG dropped || fail "page cache $before -> $(stat_of file): not reclaimed"
	echo "R: memory.reclaim took the page cache from $(mib "$before") to $(mib "$(stat_of file)") MiB"
else
	wait_for "this kernel has no memory.reclaim (Linux 5.19 and later)" || fail "R did not say why"
	echo "R: $(bottom | sed 's/  *$//')"
fi

# L: memory.max raised; the child, doomed under the old limit, touches 96 MiB and lives
tm send-keys L
wait_for "memory.max of /$name, now 64M" || fail "L did not show memory.max now"
tm send-keys -l 256M
tm send-keys Enter
wait_for "Set memory.max of /$name 64M -> 256M? [y/N]" || fail "no confirmation"
tm send-keys y
wait_for "memory.max of /$name set 64M -> 256M by you" || fail "y did not say it"
[ "$(cat "$CG/memory.max")" = $((256 << 20)) ] || fail "memory.max is $(cat "$CG/memory.max")"
s0=$(stall) p0=$(stat_of pgscan) c0=$(current)
echo 96 >&3
eventually $HANG grown 96 || fail "the child did not touch 96 MiB: $(cat "$WORK/grow.out")"
kill -0 "$child" 2>/dev/null || fail "the child died"
[ "$(event oom_kill)" = 0 ] || fail "memory.events counts $(event oom_kill) OOM kills"
c1=$(current) s1=$(stall) p1=$(stat_of pgscan)
echo "L: memory.max 64M -> 256M; the child touched 96 MiB and lives"

# H: memory.high below the usage, swap allowed; then 48 MiB more
swapfile_on 256
echo max >"$CG/memory.swap.max"
[ "$(event high)" = 0 ] || fail "high events before memory.high was set: $(event high)"
tm send-keys H
wait_for "memory.high of /$name, now max" || fail "H did not show memory.high now"
tm send-keys -l 32M
tm send-keys Enter
wait_for "Set memory.high of /$name max -> 32M? [y/N]" || fail "no confirmation"
tm send-keys y
wait_for "memory.high of /$name set max -> 32M by you" || fail "y did not say it"
[ "$(cat "$CG/memory.high")" = $((32 << 20)) ] || fail "memory.high is $(cat "$CG/memory.high")"
c2=$(current)
echo 48 >&3
eventually $HANG grown 144 || fail "the child did not touch 48 MiB more: $(cat "$WORK/grow.out")"
c3=$(current)
# growth: of the MiB touched, how much stayed charged
[ $((4 * (c1 - c0))) -ge $((3 * (96 << 20))) ] ||
	fail "before memory.high: 96 MiB touched, memory.current $(mib "$c0") -> $(mib "$c1") MiB"
[ $((2 * (c3 - c2))) -le $((48 << 20)) ] ||
	fail "under memory.high: 48 MiB touched, memory.current $(mib "$c2") -> $(mib "$c3") MiB"
# reclaim: the kernel's count and memtop's stalls, more than before
[ "$(event high)" -gt 0 ] || fail "no high event in memory.events"
scanned() { [ $(($(stat_of pgscan) - p1)) -gt $((p1 - p0)) ]; }
eventually $HANG scanned ||
	fail "memory.stat pgscan $p0 -> $p1 growing freely, $p1 -> $(stat_of pgscan) throttled"
s3=$(stall)
[ $((s3 - s1)) -gt $((s1 - s0)) ] ||
	fail "memtop's reclaim stall of /$name: ${s0} -> ${s1} ns growing freely, -> ${s3} throttled"
echo "H: memory.high 32M; memory.current grew $(mib $((c1 - c0))) MiB for 96 touched before," \
	"$(mib $((c3 - c2))) MiB for 48 after; $(event high) high events; pgscan +$((p1 - p0))" \
	"before, +$(($(stat_of pgscan) - p1)) after; memtop's stall +$(((s1 - s0) / 1000)) us" \
	"before, +$(((s3 - s1) / 1000)) us after"

# k: the cgroup killed
if [ -e "$CG/cgroup.kill" ]; then how="(cgroup.kill, its subtree too)"; else how="(SIGKILL each, by pidfd)"; fi
tm send-keys k
wait_for "Kill /$name: 1 processes $how? [y/N]" || fail "k asked for no confirmation"
tm send-keys y
if [ -e "$CG/cgroup.kill" ]; then
	wait_for "/$name killed (cgroup.kill) by you" || fail "y did not say the cgroup was killed"
else
	wait_for "/$name: SIGKILL sent to 1 processes (each by pidfd) by you" || fail "y did not say so"
fi
wait "$child" 2>/dev/null
rc=$?
[ $rc = 137 ] || fail "the child should have died of SIGKILL (137), exited $rc"
[ -z "$(cat "$CG/cgroup.procs")" ] || fail "processes left: $(cat "$CG/cgroup.procs")"
echo "k: killed $how"
