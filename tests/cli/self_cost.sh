#!/bin/sh
# memtop's own cost (JSON "self", the batch "Self:" line) against the kernel's account of
# the memtop process: cpu_ms_per_refresh summed over refreshes is the CPU time between
# them in /proc/PID/stat (utime + stime, read by this test while memtop sleeps between
# refreshes); rss_kb is /proc/PID/statm's resident size read then.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
mt=
trap '[ -n "$mt" ] && kill "$mt" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

hz=$(getconf CLK_TCK)
page_kb=$(($(getconf PAGESIZE) / 1024))
lines() { wc -l <"$tmp/out"; }
# wait_line N: until memtop has written N lines (a minute at most)
wait_line() {
	i=0
	while [ "$(lines)" -lt "$1" ]; do
		kill -0 "$mt" 2>/dev/null || fail "memtop exited early: $(cat "$tmp/err")"
		i=$((i + 1))
		[ $i -le 3000 ] || fail "memtop wrote $(lines) of $1 lines in a minute"
		sleep 0.02
	done
}
# memtop's utime + stime in clock ticks (fields 14 and 15; the name, field 2, has no space)
ticks() { awk '{ print $14 + $15 }' "/proc/$mt/stat"; }

# A refresh every second: once a line is out, memtop sleeps for most of the second, and
# what this test reads of it then is what it has used up to the end of that line. Where
# the test was too slow to read it in that second (a busy machine), it tries again.
first=2 last=8 try=0
while :; do
	: >"$tmp/out"
	"$MEMTOP" --json -d 1 -n $((last + 30)) -p $$ >"$tmp/out" 2>"$tmp/err" &
	mt=$!
	wait_line $first
	t0=$(ticks)
	[ "$(lines)" = $first ] && {
		wait_line $last
		t1=$(ticks)
		rss=$(awk -v p="$page_kb" '{ print $2 * p }' "/proc/$mt/statm")
	}
	ok=0
	[ "$(lines)" = $last ] && ok=1
	kill "$mt"
	wait "$mt"
	rc=$?
	mt=
	[ $rc = 143 ] || fail "memtop exited $rc: $(cat "$tmp/err")"
	[ $ok = 1 ] && break
	try=$((try + 1))
	[ $try -lt 10 ] || fail "in 10 tries memtop always refreshed again before the test had read it"
done
sed -i "$((last + 1)),\$d" "$tmp/out"

jq -e '.self | (.cpu_ms_per_refresh | type) == "number" and (.rss_kb | type) == "number"
	and has("bpf_run_ns_per_s") and (.bpf_run_ns_per_s | type == "number" or type == "null")' \
	"$tmp/out" >/dev/null || fail "JSON self lacks a figure: $(jq -c .self "$tmp/out" | head -3)"

# memtop's figures of lines first+1..last add up to the CPU it used from the end of line
# first to the end of line last, less what it used to print line last and plus the same
# for line first (about equal). /proc/PID/stat has whole clock ticks: utime and stime are
# each cut to a tick, so the difference of two readings is off by less than 2 ticks.
sum=$(sed -n "$((first + 1)),${last}p" "$tmp/out" | jq -s 'map(.self.cpu_ms_per_refresh) | add')
awk -v sum="$sum" -v t0="$t0" -v t1="$t1" -v hz="$hz" -v n=$((last - first)) 'BEGIN {
	stat = (t1 - t0) * 1000 / hz
	tol = 2 * 1000 / hz + 5 + 0.05 * stat
	printf "%d refreshes: cpu_ms_per_refresh adds up to %.1f ms, /proc/PID/stat says %.0f ms (%.1f ms a refresh; tolerance %.0f ms)\n",
		n, sum, stat, sum / n, tol
	exit !(sum >= stat - tol && sum <= stat + tol && sum > 0)
}' || fail "memtop's CPU per refresh does not add up to what the kernel counted"

got=$(sed -n "${last}p" "$tmp/out" | jq .self.rss_kb)
awk -v got="$got" -v rss="$rss" 'BEGIN {
	tol = 256 > rss / 50 ? 256 : rss / 50
	printf "rss_kb %d, /proc/PID/statm %d kB (tolerance %d kB)\n", got, rss, tol
	exit !(got >= rss - tol && got <= rss + tol)
}' || fail "memtop's rss_kb is not its statm resident size"

# the first line: all it used since it started, loading included; then less
jq -se '.[0].self.cpu_ms_per_refresh >= ([.[1:][].self.cpu_ms_per_refresh] | min)' "$tmp/out" \
	>/dev/null || fail "the first line's CPU is less than a later refresh's: $(jq -c .self.cpu_ms_per_refresh "$tmp/out" | tr '\n' ' ')"

# the batch text: the same figures on the Self: line, from the same table
"$MEMTOP" -b -n 2 -d 0.3 -p $$ >"$tmp/batch" || fail "memtop -b exited $?"
line=$(grep '^Self: ' "$tmp/batch" | tail -n 1)
printf '%s\n' "$line" | grep -Eq 'CPU/refresh [0-9.]+ms, RSS [0-9.]+[KMG]' ||
	fail "the batch Self: line lacks memtop's cost: $line"
echo "batch: $line"
