#!/bin/sh
# A child allocating past a 64 MiB memory cgroup is OOM-killed: memtop reports the kill
# once with the child's pid, comm and memcg, as the kernel log does; a later memtop finds
# it in the kernel log as an earlier kill.
. "$(dirname "$0")/lib.inc"
need_bpf oom

name=memtop-oom-$$
memcg "$name" $((64 << 20))
mt_start -n 100 -d 0.5
mt_wait_lines 1
in_memcg "$HOG" 200
kid_oom_event
[ "$(printf '%s\n' "$ev" | grep -c .)" = 1 ] || fail "expected one event for pid $KID, got: $ev"
printf '%s\n' "$ev" | jq -e --arg cg "/$name" --argjson p "$KID" '.type == "oom_kill" and
	.earlier == false and .comm == "bpf_hog" and .memcg == $cg and .uid == 0 and
	.trigger_pid == $p and .trigger_comm == "bpf_hog" and .anon_rss_kb > 32768' >/dev/null ||
	fail "wrong event: $ev"
jq -e '.bpf.oom_kills >= 1 and .bpf.ring_drops == 0' "$OUT" | tail -n 1 | grep -q true ||
	fail "bpf counters: $(tail -n 1 "$OUT" | jq -c .bpf)"

# the kernel log names the same pid with the same sizes
line=$(dmesg | grep -F "Killed process $KID (bpf_hog)" | tail -n 1)
[ -n "$line" ] || fail "no 'Killed process $KID (bpf_hog)' in the kernel log"
for k in total_vm:total-vm anon_rss:anon-rss file_rss:file-rss shmem_rss:shmem-rss; do
	log=$(printf '%s\n' "$line" | sed -n "s/.*${k#*:}:\([0-9]*\)kB.*/\1/p")
	got=$(printf '%s\n' "$ev" | jq ".${k%:*}_kb")
	[ "$log" = "$got" ] || fail "${k%:*}: memtop $got kB, kernel log $log kB"
done

# a memtop started now reads the kill from the kernel log as an earlier one; the memcg is
# there unless the kernel rate-limited the report's header (after a burst of kills)
later=$("$MEMTOP" --json -n 1 | jq -c --argjson p "$KID" '[.events[] | select(.pid == $p)] | max_by(.ts)')
cg=""
dmesg | grep -qF "task_memcg=/$name,task=bpf_hog,pid=$KID," && cg="/$name"
printf '%s\n' "$later" | jq -e --arg cg "$cg" '.earlier == true and .comm == "bpf_hog" and
	.memcg == $cg' >/dev/null || fail "earlier kill from the kernel log: '$later'"
ts_now=$(printf '%s\n' "$ev" | jq .ts)
ts_log=$(printf '%s\n' "$later" | jq .ts)
awk -v a="$ts_now" -v b="$ts_log" 'BEGIN { d = a - b; exit !(d < 1 && d > -1) }' ||
	fail "times differ: BPF $ts_now, kernel log $ts_log"
echo "pid $KID killed and reported: $ev"
