#!/bin/sh
# --record FILE --json while a child is OOM-killed in a 64 MiB memory cgroup: --replay
# FILE --json prints every refresh as the live run printed it, field by field, the kill
# with its victim, its cgroup and what memtop saw before it (the post-mortem) included.
. "$(dirname "$0")/lib.inc"
. "$TESTS/cli/replay.inc"
need_bpf
tmp=$WORK

name=memtop-rec-oom-$$
memcg "$name" $((64 << 20))
mt_start -n 200 -d 0.3 --record "$WORK/rec" --cgroups
mt_wait_lines 3
in_memcg "$HOG" 200
wait "$KID" 2>/dev/null
rc=$?
[ $rc = 137 ] || fail "the child should have been OOM-killed (exit 137), exited $rc"
mt_wait_lines $(($(mt_lines) + 3))
mt_stop
n=$(wc -l <"$OUT")
jq -c --argjson p "$KID" '.events[] | select(.pid == $p and .earlier != true)' "$OUT" | grep -q . ||
	fail "the live run has no kill of $KID: $(cat "$WORK/err")"

"$MEMTOP" --replay "$WORK/rec" --json --cgroups >"$WORK/replay.json" 2>"$WORK/rerr" ||
	fail "--replay exited $?: $(cat "$WORK/rerr")"
same_json "$OUT" "$WORK/replay.json" "$n"
ev=$(jq -c --argjson p "$KID" '.events[] | select(.pid == $p and .earlier != true)' "$WORK/replay.json")
printf '%s\n' "$ev" | jq -e --arg cg "/$name" '.type == "oom_kill" and .earlier == false and
	.comm == "bpf_hog" and .memcg == $cg and .before != null and (.before.top | length) > 0' \
	>/dev/null || fail "the replayed kill: $ev"
jq -e --arg cg "/$name" '[.cgroups[] | select(.path == $cg) | .oom_kills] | max == 1' \
	"$WORK/replay.json" | tail -n 1 | grep -q true || fail "the cgroup's kill is not in the replay"
echo "$n refreshes with the kill of $KID replayed as printed live"
