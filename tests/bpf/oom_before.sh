#!/bin/sh
# OOM post-mortem: a child grows by 16 MiB/s in a 96 MiB memory cgroup until the OOM killer
# kills it. Its oom_kill event carries `before`, from memtop's last refresh before the
# kill: the ten largest processes, the child among them with its RSS (as /proc/PID/statm
# showed it at most a refresh before; up to the limit and the file pages it maps, which
# another cgroup may hold) and no growth yet (it lived 6 s: a growth needs
# 30 s seen, doc/forecasts.md; bpf/oom_cgroup_before.sh checks a victim's growth); on
# screen, Enter on the kill in the OOM pane (o) shows the same.
. "$(dirname "$0")/lib.inc"
need_bpf

name=memtop-before-$$
memcg "$name" $((96 << 20))
mt_start -n 200 -d 0.5
mt_wait_lines 1
tm_start 120 40 "$MEMTOP" -d 0.5
wait_for "Tasks" || fail "memtop did not start on screen"
in_memcg "$HELPERS/grow_child" 16 0 oom-before-marker
last_rss=0
while kill -0 "$KID" 2>/dev/null; do # statm while it lives, for the check below
	r=$(awk '{ print $2 * 4 }' "/proc/$KID/statm" 2>/dev/null) && [ -n "$r" ] && last_rss=$r
	sleep 0.1
done
kid_oom_event
[ -n "$ev" ] || fail "no oom_kill event for pid $KID"
echo "before: $(printf '%s\n' "$ev" | jq -c '.before | {ts, mem_available_kb, swap_free_kb, top: .top[0:3]}')"
printf '%s\n' "$ev" | jq -e '.before != null and (.before.top | length) >= 3 and
	(.before.top | length) <= 10 and .before.mem_available_kb > 0 and .before.ts < .ts and
	.ts - .before.ts < 1.5' >/dev/null || fail "before: $(printf '%s\n' "$ev" | jq -c .before)"
me=$(printf '%s\n' "$ev" | jq -c --argjson p "$KID" '.before.top[] | select(.pid == $p)')
[ -n "$me" ] || fail "the victim is not among the ten largest before the kill: $ev"
printf '%s\n' "$me" | jq -e --argjson last "$last_rss" '.comm == "grow_child" and
	.rss_kb > 32768 and .rss_kb <= 98304 + 8192 and .rss_kb >= $last - 16384 and
	.growth_kb_per_min == null' \
	>/dev/null || fail "the victim's line: $me (statm showed $last_rss KiB last)"
# the ten largest, largest first
printf '%s\n' "$ev" | jq -e '[.before.top[].rss_kb] | . == (sort | reverse)' >/dev/null ||
	fail "top not by RSS: $(printf '%s\n' "$ev" | jq -c '[.before.top[].rss_kb]')"

echo "JSON: ok"
# on screen: the OOM pane, Enter on the newest kill (selected first)
tm send-keys o
wait_for "OOM kills" || fail "no OOM pane"
tm send-keys Enter
wait_for "top by RSS" || fail "no post-mortem on Enter"
screen_text | grep -E "^ *$KID +grow_child" >/dev/null ||
	fail "the post-mortem does not list $KID grow_child: $(screen_text)"
echo "$(screen_text | grep -E "^ *$KID +grow_child" | head -2)"
