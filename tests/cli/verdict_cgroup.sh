#!/bin/sh
# memtop-test: alone
# The verdict on a memory cgroup near its limit: a child growing 16 MiB a second for 16 s
# (256 MiB) in a cgroup limited to 300 MiB. With --cgroups, once the child holds 240 MiB
# (80 %) and from then on, the verdict is cause "cgroup_limit" with the cgroup's path as its
# subject and the child named in its evidence as the process that grows in it, ahead of the
# machine's own forecast (rule 2 before rule 3): in every one of the last 4 of 24 refreshes
# a second apart, the child having stopped at 256 MiB (85 %) and holding it.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg

cg_make "memtop-verdict-$$" $((300 << 20))
cg_run "$cg_dir" "$tmp/grow" "$HELPERS/grow_child" 16 16 verdict-cg-$$
wait_ready "$tmp/grow" || fail "grow_child never got ready in $cg_dir: $(cat "$tmp/grow")"
"$MEMTOP" --json --cgroups -n 24 -d 1 >"$tmp/out" || fail "memtop --json exited $?"
grep -q stopped "$tmp/grow" || fail "the child did not grow its 256 MiB in 23 s"
kill -0 "$cg_pid" 2>/dev/null || fail "the child was killed (OOM?) before memtop's last refresh"
tail -n 4 "$tmp/out" | jq -c '.verdict' >"$tmp/last"
head -1 "$tmp/last"
n=$(jq -s --arg path "$cg_path" --argjson pid "$cg_pid" '[.[] | select(.cause == "cgroup_limit" and
	.subject == $path and .evidence.limit_kb == 307200 and .evidence.usage_pct >= 80 and
	.evidence.usage_pct < 100 and .evidence.pid == $pid and
	(.text | startswith("\($path) 8")) and (.text | contains(" of 300M")))] | length' "$tmp/last")
[ "$n" = 4 ] || fail "only $n of the last 4 refreshes name $cg_path and pid $cg_pid: $(cat "$tmp/last" | tr '\n' ' ')"
# and before the child reached 80 % of the limit, it was not the cgroup
jq -s -e --arg path "$cg_path" '.[0].verdict.subject != $path' "$tmp/out" >/dev/null ||
	fail "the first refresh already names $cg_path: $(head -1 "$tmp/out" | jq -c .verdict)"
echo "cgroup: the last 4 of 24 refreshes name $cg_path and pid $cg_pid"
