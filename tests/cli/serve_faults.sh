#!/bin/sh
# The default export picks the top K processes by each of RSS, fault rate, swap-in rate
# and reclaim stall: a 1 MiB process faulting about 2000 times a second, far from the
# largest by RSS, is exported by --serve --top 5, with its minor faults between
# /proc/PID/stat's read before and after the scrape; an idle 1 MiB process is not (from
# memtop's second refresh on, when its rate is no longer over its life).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
for t in curl ss; do
	command -v $t >/dev/null || skip "$t not installed (Debian packages curl, iproute2)"
done
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid= child= idle= big=
trap 'for p in $pid $child $idle $big; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# five 16 MiB processes, so that five larger than the child are there on any machine
for i in 1 2 3 4 5; do
	"$HELPERS/alloc_child" 16 >"$tmp/big$i" &
	big="$big $!"
	wait_ready "$tmp/big$i" || fail "a 16 MiB alloc_child never got ready"
done
start_child 1 2000
: >"$tmp/idle"
"$HELPERS/alloc_child" 1 >"$tmp/idle" &
idle=$!
wait_ready "$tmp/idle" || fail "the idle alloc_child never got ready"

port=$(free_port 13)
url=http://127.0.0.1:$port/metrics
"$MEMTOP" --serve "$port" --top 5 -d 0.5 2>"$tmp/err" &
pid=$!
exported() { curl -sf -o "$tmp/m" "$url" && grep -q "^memtop_process_minor_faults_total{pid=\"$1\"," "$tmp/m"; }
eventually $HANG exported "$child" || fail "the faulting child $child is not exported: $(cat "$tmp/err")"

# not among the 5 largest by RSS: it is there for its faults
rss=$(awk -v p="$child" 'index($0, "memtop_process_resident_bytes{pid=\"" p "\",") == 1 { print $2 }' "$tmp/m")
larger=$(awk -v r="$rss" '/^memtop_process_resident_bytes\{/ && $2 > r { n++ } END { print n + 0 }' "$tmp/m")
[ "$larger" -ge 5 ] || fail "only $larger exported processes are larger than the child ($rss bytes): the test proves nothing"
# on memtop's first refresh a process's rate is over its life, as top's is, and the idle
# one faulted its 1 MiB in in its first second; from the second refresh on it is 0
idle_gone() { curl -sf -o "$tmp/m" "$url" && ! grep -q "{pid=\"$idle\"," "$tmp/m"; }
eventually $HANG idle_gone || fail "the idle 1 MiB process $idle is still exported"
n=$(grep -c '^memtop_process_resident_bytes{' "$tmp/m")
[ "$n" -le 20 ] || fail "$n processes exported with --top 5 (at most 4 x 5)"

# its count of faults, between stat's before and after (field 10, after the comm)
minflt() { sed 's/.*) //' "/proc/$child/stat" | awk '{ print $8 }'; }
# (on a machine busy with other tests' faulting processes the child may fall out of the
# top 5 by fault rate for a refresh: scraped again then, 20 s at most)
scraped() {
	before=$(minflt)
	curl -sf -o "$tmp/m2" "$url" || fail "scrape failed"
	after=$(minflt)
	got=$(awk -v p="$child" 'index($0, "memtop_process_minor_faults_total{pid=\"" p "\",") == 1 { print $2 }' "$tmp/m2")
	[ -n "$got" ]
}
eventually $HANG scraped || fail "the child left the export"
grep -q "{pid=\"$idle\"," "$tmp/m2" && fail "the idle 1 MiB process $idle is exported again"
# the exposition is the last refresh's, up to -d before the scrape: at most 1 s of faults
# at the child's pace before it
awk -v g="$got" -v a="$after" 'BEGIN { exit !(g <= a) }' || fail "exported $got faults, more than stat's $after"
[ "$got" -gt 0 ] || fail "no faults exported"
echo "child $child ($rss bytes, $larger exported larger): $got minor faults exported," \
	"stat $before before and $after after; $n processes exported"
