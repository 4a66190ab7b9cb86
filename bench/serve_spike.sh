#!/bin/sh
# After a spike of processes falls away, --serve gives the memory of their rows back: once
# its history forgets them (HISTORY_KEEP_GONE, 120 s after they ended) its RSS falls from
# its peak by a fifth or more of what the spike added (7 to 11 MB of 22 MB for 6,000;
# without giving back it stays at the peak, or grows: 32.6 MB, then 42.5 MB). It waits
# that long, so it is a benchmark, run alone: sh bench/serve_spike.sh (after make).
cd "$(dirname "$0")/.." || exit 1
export MEMTOP="${MEMTOP:-$PWD/build/memtop}" HELPERS="${HELPERS:-$PWD/build/tests}"
. tests/lib.sh
command -v curl >/dev/null || skip "curl not installed"
command -v ss >/dev/null || skip "ss not installed (Debian package iproute2)"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid= kids=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "$kids" ] && kill "$kids" 2>/dev/null
	rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
N=${SPIKE:-6000}

port=$((20000 + ($$ + 7) % 20000))
while ss -Hltn "sport = :$port" | grep -q .; do port=$((port + 1)); done
url=http://127.0.0.1:$port/metrics
"$MEMTOP" --serve "$port" -d 0.2 2>"$tmp/err" &
pid=$!
# procs: the process count of the last refresh, as served
procs() { curl -sf "$url" | awk '$1 == "memtop_processes" { print $2 }'; }
i=0
until [ -n "$(procs)" ]; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "nothing answered on port $port: $(cat "$tmp/err")"
	sleep 0.1
done
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' /proc/$pid/status; }
sleep 1
before=$(procs) r0=$(rss_kb)

"$HELPERS/many_children" "$N" >"$tmp/ready" &
kids=$!
wait_file "$tmp/ready" 120 || fail "many_children did not start $N children"
i=0
until [ "$(procs)" -ge $((before + N)) ]; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "memtop did not see the $N children: $(procs) processes"
	sleep 0.1
done
sleep 1
r1=$(rss_kb)
kill "$kids"
wait "$kids"
kids=
i=0
until [ "$(procs)" -lt $((before + N / 10)) ]; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "memtop still sees the children: $(procs) processes"
	sleep 0.1
done
sleep 125 # the history forgets them
r2=$(rss_kb)
echo "memtop's RSS: $r0 KiB at $before processes, $r1 KiB at $((before + N)), $r2 KiB after"
[ $((r1 - r0)) -ge 4096 ] || skip "the spike grew memtop by $((r1 - r0)) KiB only"
[ $((r1 - r2)) -ge $(((r1 - r0) / 5)) ] ||
	fail "memtop gave back $((r1 - r2)) of the $((r1 - r0)) KiB the spike took"
[ ! -s "$tmp/err" ] || fail "stderr: $(cat "$tmp/err")"
