#!/bin/sh
# The verdict on a swap-in storm: a child in a 64 MiB memory cgroup (with a swapfile on)
# touches 150 MiB over and over, so each pass swaps most of it back in, until memtop has
# seen 6 refreshes of 1024 swap-ins a second or more (or 40 passes). While it does, the
# verdict is cause "swap_storm" (rule 1, ahead of the cgroup at its limit and of the
# stalls), the child its subject as the process swapped in most (BPF), with the system's
# swap-ins a second (pswpin_per_s, 256 or more) and the child's in its evidence: counted
# over memtop's refreshes at 0.5 s, in at least 3 of those whose own swap-ins a second
# (vmstat) are 1024 or more, and in most of them. The swapfile is turned off and removed
# on exit.
. "$(dirname "$0")/lib.inc"
need_bpf

swap_child_memcg memtop-verdict-swap-$$
swapfile_on 256
mt_start -d 0.5
mt_wait_lines 2
in_memcg "$HOG" 150 40
# storm_lines: memtop's complete lines with 1024 swap-ins a second or more, so far
storm_lines() {
	jq -R 'fromjson? // empty | select(.system.pswpin_per_s >= 1024)' "$OUT" | grep -c '^{'
}
six_storms() { ! kill -0 "$KID" 2>/dev/null || [ "$(storm_lines)" -ge 6 ]; }
# (as long as the passes take: the test's own time limit is the guard)
until six_storms; do sleep 0.2; done
if kill "$KID" 2>/dev/null; then
	wait "$KID" 2>/dev/null
else
	wait "$KID" || fail "the child failed: exit $?"
fi
mt_wait_lines $(($(mt_lines) + 2))
mt_stop
jq -c '[.system.pswpin_per_s, .verdict.cause, .verdict.subject, .verdict.text]' "$OUT" |
	awk '$0 ~ /swap_storm/' | head -3
storms=$(jq -s '[.[] | select(.system.pswpin_per_s >= 1024)] | length' "$OUT")
named=$(jq -s --argjson p "$KID" '[.[] | select(.system.pswpin_per_s >= 1024) | .verdict |
	select(.cause == "swap_storm" and .subject == $p and .evidence.pid == $p and
	.evidence.pswpin_per_s >= 256 and .evidence.swapin_per_s > 0 and
	(.text | startswith("swap-in storm: ")))] | length' "$OUT")
[ "$storms" -ge 3 ] || fail "only $storms refreshes saw 1024 swap-ins a second or more; no test"
[ "$named" -ge 3 ] && [ $((named * 2)) -gt "$storms" ] ||
	fail "$named of $storms refreshes with 1024 swap-ins a second or more name the child $KID:" \
		"$(jq -c 'select(.system.pswpin_per_s >= 1024) | .verdict' "$OUT" | head -5 | tr '\n' ' ')"
# and before the child started, no storm
jq -s -e '.[0].verdict.cause != "swap_storm"' "$OUT" >/dev/null ||
	fail "a storm before the child: $(head -1 "$OUT" | jq -c .verdict)"
echo "swap storm: $named of $storms refreshes with 1024 swap-ins a second or more name the child $KID"
