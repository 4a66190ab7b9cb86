#!/bin/sh
# memtop-test: alone
# The OOM victim memtop names in a limited memory cgroup is computed from the processes of
# that cgroup and of those below it, with their oom_score_adj: --record FILE --json
# --cgroups while a 64 MiB cgroup holds a 20 MiB child and, in a cgroup below it, a 10 MiB
# child with oom_score_adj 500 (its badness the larger: 10 MiB + half the limit, as the
# kernel counts it). Once the live JSON names that child the cgroup's victim_pid, the
# replay of the recording prints every refresh the same, field by field, the victim
# included.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
. "${TESTS:-$(dirname "$0")/..}/cli/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
mt=""
trap 'kill $mt 2>/dev/null; cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg

tag=recvic$$
cg_make "memtop-$tag" $((64 << 20))
top_dir=$cg_dir top_path=$cg_path
cg_make "memtop-$tag/below"
cg_child "$top_dir" 20 "$tag-big"
big=$cg_pid
cg_child "$cg_dir" 10 "$tag-adj"
adj=$cg_pid
echo 500 >"/proc/$adj/oom_score_adj" || fail "cannot set oom_score_adj of $adj"

# the two children alone (-p): a busy machine's thousands of processes would make each
# line megabytes
"$MEMTOP" --record "$tmp/rec" --json --cgroups -d 0.3 -n 400 -p "$big,$adj" \
	>"$tmp/live.json" 2>"$tmp/err" &
mt=$!
# lines: the complete lines of live JSON; named: one names $adj the cgroup's victim
lines() { jq -cR 'fromjson? // empty' "$tmp/live.json" >"$tmp/lines.json"; }
named() {
	lines
	jq -e --arg p "$top_path" --argjson v "$adj" \
		'.cgroups[] | select(.path == $p) | .victim_pid == $v' "$tmp/lines.json" |
		grep -q true
}
eventually $HANG named || fail "the live run never named $adj the victim of $top_path: $(
	jq -c --arg p "$top_path" '.cgroups[] | select(.path == $p)' "$tmp/lines.json" | tail -n 1)$(cat "$tmp/err")"
# two refreshes more, then the recorder stops
n=$(wc -l <"$tmp/lines.json")
more() { lines && [ "$(wc -l <"$tmp/lines.json")" -ge $((n + 2)) ]; }
eventually $HANG more || fail "memtop stopped refreshing: $(cat "$tmp/err")"
kill "$mt"
wait "$mt"
mt=""
lines
n=$(wc -l <"$tmp/lines.json")

"$MEMTOP" --replay "$tmp/rec" --json --cgroups >"$tmp/replay.json" 2>"$tmp/rerr" ||
	fail "--replay exited $?: $(cat "$tmp/rerr")"
same_json "$tmp/lines.json" "$tmp/replay.json" "$n"
# the oom_score_adj counted: the smaller child is the victim, in the replay as live
v=$(jq --arg p "$top_path" '.cgroups[] | select(.path == $p) | .victim_pid' "$tmp/replay.json" |
	tail -n 1)
[ "$v" = "$adj" ] || fail "the replay's last victim of $top_path is $v, not $adj (the other child: $big)"
echo "$n refreshes replayed as printed live, $adj (oom_score_adj 500) the victim of $top_path"
