#!/bin/sh
# memtop-test: alone
# A cgroup's forecast: a child growing 8 MiB/s in a memory cgroup limited to 300 MiB.
# Within 20 s the header names the cgroup ("reaches its 300M limit in ~N s") with a time
# within 15 % of the truth ((limit - usage) / 8 MiB/s at that moment) and the child as its
# victim; from then until the kill, every refresh shows the cgroup's forecast (one capture
# a second, each counted); the cgroup's row is in the alert role while it shows it. The
# post-mortem of the kill (o, Enter) shows the cgroup's usage of its limit and the child
# among its processes. It causes an OOM kill, so it runs apart from the BPF tests that
# count them.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg
if command -v flock >/dev/null; then
	exec 9>/tmp/memtop-bpf-tests.lock
	flock -w 90 9 || skip "the BPF tests held their lock for 90 s"
fi

tag=cgfc$$
cg_make "memtop-$tag" $((300 << 20))
dir=$cg_dir

tm_start 200 40 "$MEMTOP -d 1"
wait_for "Tasks" || fail "memtop did not start"
cg_run "$dir" "$tmp/grow" "$HELPERS/grow_child" 8 0 "grow-$tag"
wait_ready "$tmp/grow" || fail "grow_child never got ready"
started=$(date +%s)
pid=$cg_pid

line() { screen_text | grep -o "/memtop-$tag reaches its [^│|]*" | head -1; }
named=
while [ $(($(date +%s) - started)) -le 20 ]; do
	l=$(line)
	use=$(cg_usage "$dir")
	if [ -n "$l" ]; then
		named=$(($(date +%s) - started))
		break
	fi
	sleep 0.5
done
[ -n "$named" ] || fail "no forecast of the cgroup within 20 s: $(screen_text | head -8)"
echo "after ${named} s: $l (usage $use bytes)"
echo "$l" | grep -q "reaches its 300M limit in ~" || fail "not the limit's forecast: $l"
secs=$(echo "$l" | sed -n 's/.*limit in ~\([0-9]*\) \(s\|min\).*/\1 \2/p')
[ -n "$secs" ] || fail "no time in '$l'"
awk -v s="$secs" -v use="$use" 'BEGIN {
	split(s, a, " "); got = a[1] * (a[2] == "min" ? 60 : 1)
	want = ((300 * 1048576) - use) / (8 * 1048576)
	printf "forecast %d s, (limit - usage) / 8 MiB/s = %.1f s\n", got, want
	if (got < want * 0.85 - 1 || got > want * 1.15 + 1) { print "FAIL: not within 15 %"; exit 1 }
}' || exit 1
echo "$l" | grep -q "victim $pid (grow_child)" || fail "the victim is not the child $pid: $l"

# every refresh until the kill: one capture a second, the forecast in each
shown=0 total=0
while kill -0 "$pid" 2>/dev/null && [ $total -lt 120 ]; do
	total=$((total + 1))
	if screen_text | grep -q "/memtop-$tag reaches its 300M limit"; then
		shown=$((shown + 1))
	elif kill -0 "$pid" 2>/dev/null; then
		echo "missing: $(screen_text | head -4)"
	fi
	sleep 1
done
kill -0 "$pid" 2>/dev/null && fail "the child was not killed within 2 minutes"
echo "the forecast was on screen in $shown of $total captures until the kill"
# the capture that raced the kill may show the line held or gone: all but that one
[ $shown -ge $((total - 1)) ] || fail "the forecast was missing in $((total - shown)) of $total captures"

# the post-mortem of that kill (o, once the pane lists it, Enter on it: the newest, unless
# other work's kills came after it): the cgroup with its usage at the last refresh before the kill, near its 300M
# limit, and the child among its processes
tm send-keys o
wait_for "OOM kills" || fail "no OOM pane"
wait_for "$pid grow_child" 10 || fail "the OOM pane does not list the kill of $pid"
tm send-keys Enter
tries=0
while ! wait_for "post-mortem: $pid (grow_child)" 2 >/dev/null && [ $tries -lt 10 ]; do
	tm send-keys q Down Enter # back to the kills, the one before
	tries=$((tries + 1))
done
wait_for "Cgroup /memtop-$tag:" || fail "the post-mortem shows no cgroup: $(screen_text | head -20)"
cl=$(screen_text | grep -o "Cgroup /memtop-$tag: [^│|]*" | head -1)
echo "post-mortem: $cl"
echo "$cl" | grep -Eq ": [0-9.]+M of 300M \((9[0-9]|100) %\)" ||
	fail "not the usage near the 300M limit: $cl"
screen_text | grep -q "the cgroup's processes by growth" || fail "no processes of the cgroup: $(screen_text)"
screen_text | grep -Eq "^ *$pid +grow_child" || fail "the child $pid is not listed: $(screen_text)"
