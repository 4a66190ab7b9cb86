#!/bin/sh
# The post-mortem of an OOM kill in a limited memory cgroup: a child grows by 6 MiB/s in a
# 240 MiB memory cgroup (a faster, shorter case of 4 MiB/s in 300 MiB: killed after about
# 40 s, long enough for its growth, which needs 30 s seen) with memtop refreshing every
# 0.5 s. The kill's `before.cgroup` names the cgroup with its limit as the kernel has it,
# its usage at the last refresh within 10 % of the limit, a usage curve with a sample at
# every refresh (0.5 s apart) over the time before, the child among its processes with
# its growth near 6 MiB/s, the kernel's OOM kill count before (0) and after (read), and the
# verdict as it stood, naming the cgroup.
. "$(dirname "$0")/lib.inc"
need_bpf oom

name=memtop-cgbefore-$$
memcg "$name" $((240 << 20))
if [ -f "$CG/memory.limit_in_bytes" ]; then
	limit=$(cat "$CG/memory.limit_in_bytes")
else
	limit=$(cat "$CG/memory.max")
fi
mt_start -n 400 -d 0.5
mt_wait_lines 1
in_memcg "$HELPERS/grow_child" 6 0 oom-cgbefore-marker
kid_oom_event
[ -n "$ev" ] || fail "no oom_kill event for pid $KID"
cg=$(printf '%s\n' "$ev" | jq -c '.before.cgroup')
echo "before.cgroup: $(printf '%s\n' "$cg" | jq -c '.usage_curve |= (length | tostring) + " samples"')"
printf '%s\n' "$cg" | jq -e --arg p "/$name" --argjson lim "$limit" '.path == $p and
	.limit_kb * 1024 == $lim' >/dev/null ||
	fail "not /$name with its limit of $limit bytes: $cg"
printf '%s\n' "$cg" | jq -e '.usage_kb >= .limit_kb * 0.9 and .usage_kb <= .limit_kb' \
	>/dev/null || fail "the last usage is not within 10 % of the limit: $cg"
# the curve: every refresh over the time before (30 s at least), 0.5 s apart, up to the
# last refresh before the kill, growing
printf '%s\n' "$cg" | jq -e '.usage_curve as $c | ($c | length) >= 60 and
	($c[-1][0] < 0 and $c[-1][0] > -1.5 and $c[0][0] < -30) and
	([range(1; $c | length) | $c[.][0] - $c[. - 1][0]] | sort | .[length / 2 | floor]) as $gap |
	($gap > 0.4 and $gap < 0.6) and
	([range(1; $c | length) | $c[.][0] - $c[. - 1][0] | select(. <= 0)] | length == 0) and
	$c[-1][1] > $c[0][1] + 150 * 1024 and $c[-1][1] == .usage_kb' >/dev/null ||
	fail "the usage curve is not a sample each 0.5 s refresh: $(printf '%s\n' "$cg" | jq -c .usage_curve)"
me=$(printf '%s\n' "$cg" | jq -c --argjson p "$KID" '.processes[] | select(.pid == $p)')
[ -n "$me" ] || fail "the victim is not among the cgroup's processes: $cg"
printf '%s\n' "$me" | jq -e '.comm == "grow_child" and .rss_kb > 150 * 1024 and
	.growth_kb_per_min > 6 * 1024 * 60 * 0.75 and .growth_kb_per_min < 6 * 1024 * 60 * 1.25' \
	>/dev/null || fail "the victim's line: $me"
printf '%s\n' "$cg" | jq -e '.process_count >= 1 and .oom_kills_kernel.before == 0 and
	.oom_kills_kernel.after >= 0' >/dev/null ||
	fail "its processes or OOM counts: $cg"
printf '%s\n' "$cg" | jq -e --arg p "/$name" '.verdict | type == "string" and contains($p)' \
	>/dev/null || fail "the verdict then does not name /$name: $(printf '%s\n' "$cg" | jq .verdict)"
echo "ok: $(printf '%s\n' "$cg" | jq -c '{limit_kb, usage_kb, samples: (.usage_curve | length), oom_kills_kernel, verdict}')"
