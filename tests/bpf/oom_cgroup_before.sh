#!/bin/sh
# The post-mortem of a real OOM kill in a limited memory cgroup: a child grows by 12 MiB/s
# in a 128 MiB memory cgroup with memtop refreshing every 0.5 s. The kill's
# `before.cgroup` names the cgroup with its limit as the kernel has it, its usage at the
# last refresh within 10 % of the limit, a usage curve with a sample at every refresh
# (each of memtop's lines) from before the child grew to the last refresh before the kill, the
# child among its processes, the kernel's OOM kill count before (0) and after (read), and
# the verdict as it stood, naming the cgroup. (The model's part, the curve's figures and
# the grower's growth against a known truth: tests/cli/oom_cg_postmortem.sh.)
. "$(dirname "$0")/lib.inc"
need_bpf oom

name=memtop-cgbefore-$$
memcg "$name" $((128 << 20))
if [ -f "$CG/memory.limit_in_bytes" ]; then
	limit=$(cat "$CG/memory.limit_in_bytes")
else
	limit=$(cat "$CG/memory.max")
fi
mt_start -d 0.5
mt_wait_lines 1
in_memcg "$HELPERS/grow_child" 12 0 oom-cgbefore-marker
kid_oom_event
[ -n "$ev" ] || fail "no oom_kill event for pid $KID"
cg=$(printf '%s\n' "$ev" | jq -c '.before.cgroup')
echo "before.cgroup: $(printf '%s\n' "$cg" | jq -c '.usage_curve |= (length | tostring) + " samples"')"
printf '%s\n' "$cg" | jq -e --arg p "/$name" --argjson lim "$limit" '.path == $p and
	.limit_kb * 1024 == $lim' >/dev/null ||
	fail "not /$name with its limit of $limit bytes: $cg"
printf '%s\n' "$cg" | jq -e '.usage_kb >= .limit_kb * 0.9 and .usage_kb <= .limit_kb' \
	>/dev/null || fail "the last usage is not within 10 % of the limit: $cg"
# the curve: a sample at every refresh (as many as memtop's lines from the curve's first
# to the kill, one more or less at the ends: a cgroup's sample is taken within its
# refresh), from before the child grew (under 16 MiB) up to the last refresh before the
# kill, growing
kill_ts=$(printf '%s\n' "$ev" | jq .ts)
refreshes=$(jq -s --argjson k "$kill_ts" --argjson c0 "$(printf '%s\n' "$cg" | jq '.usage_curve[0][0]')" \
	'[.[].ts | select(. > $k + $c0 - 0.25 and . < $k)] | length' "$OUT")
echo "memtop's lines from the curve's first to the kill: $refreshes"
printf '%s\n' "$cg" | jq -e --argjson r "$refreshes" '.usage_curve as $c | ($c | length) >= 10 and
	(($c | length) - $r | fabs) <= 1 and $c[-1][0] < 0 and $c[0][1] < 16 * 1024 and
	([range(1; $c | length) | $c[.][0] - $c[. - 1][0] | select(. <= 0)] | length == 0) and
	$c[-1][1] > $c[0][1] + 96 * 1024 and $c[-1][1] == .usage_kb' >/dev/null ||
	fail "the usage curve is not a sample at each refresh: $(printf '%s\n' "$cg" | jq -c .usage_curve)"
me=$(printf '%s\n' "$cg" | jq -c --argjson p "$KID" '.processes[] | select(.pid == $p)')
[ -n "$me" ] || fail "the victim is not among the cgroup's processes: $cg"
printf '%s\n' "$me" | jq -e '.comm == "grow_child" and .rss_kb > 96 * 1024' >/dev/null ||
	fail "the victim's line: $me"
printf '%s\n' "$cg" | jq -e '.process_count >= 1 and .oom_kills_kernel.before == 0 and
	.oom_kills_kernel.after >= 0' >/dev/null ||
	fail "its processes or OOM counts: $cg"
printf '%s\n' "$cg" | jq -e --arg p "/$name" '.verdict | type == "string" and contains($p)' \
	>/dev/null || fail "the verdict then does not name /$name: $(printf '%s\n' "$cg" | jq .verdict)"
echo "ok: $(printf '%s\n' "$cg" | jq -c '{limit_kb, usage_kb, samples: (.usage_curve | length), oom_kills_kernel, verdict}')"
