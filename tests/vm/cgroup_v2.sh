#!/bin/sh
# cgroup v2 on a real kernel, as the kernel lane boots it (make test-kernels): the
# v2 memory controller, swap and root with every capability, which this project's own
# machine (cgroup v1) lacks, so the lane alone runs this test. One memtop --cgroups sees
# three cgroups side by side:
# - high: memory.high 32 MiB and a child holding 96 MiB: the kernel keeps the cgroup near
#   its high mark by reclaim in the child's context (swapping out), which memtop shows as
#   the cgroup's high, its swap, its reclaim stall time and its memory pressure;
# - swap: memory.max 48 MiB and memory.swap.max 256 MiB, a child touching 100 MiB twice:
#   memtop shows the swap limit and the child's swap-ins;
# - group: memory.max 64 MiB with memory.oom.group, a sleeper and a hog: the OOM killer
#   takes both, and memtop reports both kills with the hog as the task that triggered
#   them, in the cgroup, and the kernel's own count from memory.events.
: "${TESTS:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$TESTS/bpf/lib.inc"
need_bpf oom reclaim
grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || skip "no cgroup v2 memory controller"

top=/sys/fs/cgroup/memtop-v2-$$
v2_cleanup() {
	for p in $KIDS; do
		kill -9 "$p" 2>/dev/null
	done
	wait 2>/dev/null
	for d in high swap group; do
		[ -d "$top/$d" ] && rmdir "$top/$d" 2>/dev/null
	done
	[ -d "$top" ] && rmdir "$top"
	cleanup
}
trap v2_cleanup EXIT
mkdir "$top" || fail "mkdir $top"
echo "+memory" >"$top/cgroup.subtree_control" || fail "cannot enable memory below $top"
for d in high swap group; do
	mkdir "$top/$d" || fail "mkdir $top/$d"
done
echo $((32 << 20)) >"$top/high/memory.high"
echo $((48 << 20)) >"$top/swap/memory.max"
echo $((256 << 20)) >"$top/swap/memory.swap.max"
echo $((64 << 20)) >"$top/group/memory.max"
echo 0 >"$top/group/memory.swap.max"
echo 1 >"$top/group/memory.oom.group" || fail "no memory.oom.group"

swapfile_on 512
mt_start --cgroups -n 1000 -d 0.5
mt_wait_lines 1
CG=$top/high
in_memcg "$HOG" 96 1 60
high_kid=$KID
CG=$top/swap
in_memcg "$HOG" 100 2 1
swap_kid=$KID
CG=$top/group
in_memcg sleep 1000
sleeper=$KID
in_memcg "$HOG" 200
hog=$KID
CG="" # removed by v2_cleanup
wait "$hog" 2>/dev/null
[ $? = 137 ] || fail "the hog in group should have been OOM-killed"
wait "$sleeper" 2>/dev/null
[ $? = 137 ] || fail "memory.oom.group should have killed the sleeper with the hog"
wait "$swap_kid" || fail "the child in swap failed"
kernel=$(awk '$1 == "oom_kill" { print $2 }' "$top/group/memory.events")
mt_wait_lines $(($(mt_lines) + 4))
mt_stop
kill -9 "$high_kid" 2>/dev/null

# high: its limit, reclaim stalls, swap and pressure (where the kernel has PSI: Debian's
# need psi=1, which the lane gives them)
psi=0
[ -r /proc/pressure/memory ] && cat /proc/pressure/memory >/dev/null 2>&1 && psi=1
jq -e --arg p "/memtop-v2-$$/high" -s '[.[].cgroups[] | select(.path == $p)] |
	any(.high_kb == 32768) and any(.reclaim_stall_us_per_s > 0) and any(.swap_kb > 0) and
	($psi == 0 or any(.psi_some_avg10 > 0))' --argjson psi "$psi" "$OUT" >/dev/null ||
	fail "high: $(jq -c --arg p "/memtop-v2-$$/high" '.cgroups[] | select(.path == $p) |
		[.high_kb, .reclaim_stall_us_per_s, .swap_kb, .psi_some_avg10]' "$OUT" | tr '\n' ' ')"
echo "high: memory.high, reclaim stalls, swap and pressure shown"

# swap: its swap limit and the child's swap-ins
jq -e --arg p "/memtop-v2-$$/swap" -s '[.[].cgroups[] | select(.path == $p)] |
	any(.swap_limit_kb == 262144)' "$OUT" >/dev/null || fail "swap: no swap limit of 256 MiB"
# (swap-ins per process where the kernel has a way to count them: not 5.10)
if [ "$(mt_last | jq -r .bpf.concerns.swapin)" != on ]; then
	echo "swap: its limit shown; swap-ins per process: $(mt_last | jq -r .bpf.concerns.swapin)"
else
	ins=$(jq -s --argjson k "$swap_kid" '[.[1:][] as $l | $l.processes[] | select(.pid == $k) |
		(.swapin_per_s // 0) * $l.interval_s] | add // 0 | floor' "$OUT")
	[ "$ins" -gt 0 ] || fail "swap: no swap-ins of the child $swap_kid ($(jq -r .bpf.swapin_mode "$OUT" | sort -u | tr '\n' ' '))"
	echo "swap: the child swapped in about $ins pages ($(mt_last | jq -r .bpf.swapin_mode))"
fi

# group: both kills, in the cgroup, triggered by the hog, as many as the kernel counted
for p in "$hog" "$sleeper"; do
	jq -e --argjson p "$p" --argjson h "$hog" --arg g "/memtop-v2-$$/group" \
		-s 'any(.[].events[]; .type == "oom_kill" and .pid == $p and .trigger_pid == $h and
		.memcg == $g)' "$OUT" >/dev/null ||
		fail "group: no kill of $p triggered by $hog in $g: $(jq -c '.events[]' "$OUT")"
done
# the kernel counts the first victim twice (killed as the victim, then as a member of its
# group): its own count is memory.events', memtop's the processes killed
[ "$kernel" -ge 2 ] || fail "group: memory.events counts $kernel kills, not 2 or more"
jq -e --arg p "/memtop-v2-$$/group" --argjson k "$kernel" -s '[.[].cgroups[] |
	select(.path == $p)] | any(.oom_kills == 2 and .oom_kills_kernel == $k)' "$OUT" >/dev/null ||
	fail "group: memtop's counts are not 2 killed and memory.events' $kernel:" \
		"$(jq -c --arg p "/memtop-v2-$$/group" '.cgroups[] | select(.path == $p) |
			[.oom_kills, .oom_kills_kernel]' "$OUT" | tail -n 1)"
echo "group: memory.oom.group's two kills reported, triggered by the hog"
