#!/bin/sh
# An OOM kill in a 64 MiB memory cgroup, which the test removes at once: memtop --cgroups
# counts the kill against that cgroup's path, as many as the kernel's own count
# (memory.oom_control oom_kill on v1, memory.events oom_kill on v2, read before the
# removal), and keeps listing it as removed, under the root, whose count holds it too;
# no live row has its path. The kill and the removal fall between two refreshes, so the
# cgroup may be gone before memtop reads the tree again: the count comes from the kill
# event alone.
. "$(dirname "$0")/lib.inc"
need_bpf oom
"$MEMTOP" --json -n 1 --cgroups >/dev/null 2>&1 ||
	skip "memtop has no --cgroups (the cgroup views are on branch cgscreen)"

name=memtop-cgoom-$$
memcg "$name" $((64 << 20))
mt_start --cgroups -n 200 -d 0.5
mt_wait_lines 1
head -n 1 "$OUT" | jq -e --arg p "/$name" 'any(.cgroups[]; .path == $p and .oom_kills == 0 and
	.removed == false)' >/dev/null || fail "/$name is not listed, without kills"
memcg_oom_kill
memcg_remove
[ "${kernel:-0}" -ge 1 ] || fail "the kernel counted no OOM kill in the cgroup ($kernel)"
mt_wait_lines $(($(mt_lines) + 3))
mt_stop

last=$(tail -n 1 "$OUT")
rows=$(printf '%s\n' "$last" | jq -c --arg p "/$name" '[.cgroups[] | select(.path == $p)]')
printf '%s\n' "$rows" | jq -e --argjson k "$kernel" 'length == 1 and .[0].removed == true and
	.[0].oom_kills == $k' >/dev/null ||
	fail "/$name should be listed once, removed, with $kernel kill(s): $rows"
# the removed row has no other figure, and the root's count holds its kills
printf '%s\n' "$rows" | jq -e '.[0] | .usage_kb == null and .limit_kb == null and
	.oom_kills_kernel == null' >/dev/null || fail "a removed cgroup with figures: $rows"
printf '%s\n' "$last" | jq -e --argjson k "$kernel" 'any(.cgroups[]; .path == "/" and
	.oom_kills >= $k)' >/dev/null ||
	fail "the root's count lacks the kill: $(printf '%s\n' "$last" | jq -c '.cgroups[0]')"
# the event named the same cgroup
jq -e --arg p "/$name" --argjson kid "$KID" 'any(.events[]; .pid == $kid and .memcg == $p)' \
	"$OUT" | grep -q true || fail "no kill event of pid $KID in /$name"
echo "/$name: $kernel kill(s), listed as removed: $rows"
