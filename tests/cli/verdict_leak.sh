#!/bin/sh
# memtop-test: alone
# The verdict on a system-wide leak: a child growing 64 MiB a second (for 60 s, 3.75 GiB)
# on a machine with room for it. Once the forecast has its 20 s and the child its growth
# (30 s of samples), memory lasts under an hour at that rate, and the verdict names the
# child: in every one of the last 5 of 38 refreshes a second apart, cause "system_leak",
# subject the child's pid, its growth within 25 % of 64 MiB/s (GROW is over the last
# minute, which the child spent growing), and the forecast in the evidence. (Where another
# process grew faster during the run, the verdict names that one: then it must still be a
# leak of at least that rate.)
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v jq >/dev/null || skip "needs jq"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ "$avail" -gt $((8 << 20)) ] || skip "needs 8 GiB available for a 3.75 GiB leak (has ${avail} KiB)"
"$HELPERS/grow_child" 64 60 verdict-leak-$$ >"$tmp/grow" &
child=$!
wait_ready "$tmp/grow" || fail "grow_child never got ready"
"$MEMTOP" --json -n 38 -d 1 >"$tmp/out" || fail "memtop --json exited $?"
grep -q stopped "$tmp/grow" && fail "the child stopped growing before memtop's last refresh"
tail -n 5 "$tmp/out" | jq -c '.verdict' >"$tmp/last"
cat "$tmp/last" | head -2
n=$(jq -s --argjson pid "$child" '[.[] | select(.cause == "system_leak" and .subject == $pid and
	.evidence.pid == $pid and .evidence.comm == "grow_child" and
	.evidence.growth_kb_per_s > 65536 * 0.75 and .evidence.growth_kb_per_s < 65536 * 1.25 and
	.evidence.exhaustion_s > 0 and .evidence.exhaustion_s < 3600 and
	(.text | startswith("\($pid) grow_child grows +")))] | length' "$tmp/last")
if [ "$n" != 5 ]; then
	# a process that grew faster during the run (another's leak) is named instead: then
	# the verdict must still be the leak, naming a process that grows faster than the child
	jq -s -e 'all(.[]; .cause == "system_leak" and .evidence.growth_kb_per_s > 65536 * 0.75 and
		.evidence.exhaustion_s < 3600)' "$tmp/last" >/dev/null ||
		fail "only $n of the last 5 refreshes name the leak of pid $child: $(cat "$tmp/last" | tr '\n' ' ')"
	echo "note: pid $(jq -s -r '.[-1].subject' "$tmp/last") ($(jq -s -r '.[-1].evidence.comm' "$tmp/last")) grew faster during the run"
fi
echo "leak: the last 5 of 38 refreshes name a leak: $(tail -n 1 "$tmp/last" | jq -r .text)"
