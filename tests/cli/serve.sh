#!/bin/sh
# memtop-test: anywhere
# --serve PORT: GET and HEAD of /metrics in the text format (OpenMetrics when asked), 404
# and 405, listening on loopback alone; 200 clients at once, and 1,000 requests 200 at a
# time, all get whole answers without memtop growing; a 1 MB header is refused; slow
# clients delay no one; SIGTERM stops it; bad addresses exit 2.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
for t in curl ss promtool; do
	command -v $t >/dev/null || skip "$t not installed (Debian packages curl, iproute2, prometheus)"
done
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid= slow=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; for s in $slow; do kill "$s" 2>/dev/null; done
	rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

exits 2 "--serve needs \[ADDR:\]PORT" --serve 0
exits 2 "--serve needs" --serve 70000
exits 2 "--serve needs" --serve nowhere:9100
exits 2 "--serve needs" --serve ::1:9100
exits 2 "--top needs" --serve 9100 --top 0
exits 2 "--json: only one of" --serve 9100 --json

# a free port: one that nothing listens on
port=$(free_port 0)
url=http://127.0.0.1:$port
"$MEMTOP" --serve "$port" -d 0.5 2>"$tmp/err" &
pid=$!
i=0
until curl -sf -o /dev/null "$url/metrics"; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "nothing answered on port $port: $(cat "$tmp/err")"
	kill -0 $pid 2>/dev/null || fail "memtop --serve exited: $(cat "$tmp/err")"
	sleep 0.1
done

# loopback alone, by default
ss -Hltnp "sport = :$port" >"$tmp/ss"
cat "$tmp/ss"
grep -q "pid=$pid," "$tmp/ss" || fail "memtop (pid $pid) does not listen on $port"
awk '{ print $4 }' "$tmp/ss" | grep -vq "^127\.0\.0\.1:$port$" &&
	fail "it listens beyond 127.0.0.1: $(cat "$tmp/ss")"

# GET: the text format 0.0.4, which promtool accepts
curl -s -D "$tmp/h" -o "$tmp/b" "$url/metrics" || fail "GET /metrics failed"
grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$tmp/h" ||
	fail "GET /metrics: $(cat "$tmp/h")"
promtool check metrics <"$tmp/b" >"$tmp/lint" 2>&1 || fail "promtool: $(head -5 "$tmp/lint")"
grep -q '^memtop_memory_total_bytes ' "$tmp/b" || fail "no memtop_memory_total_bytes"
grep -q '# EOF' "$tmp/b" && fail "# EOF in the text format"
# OpenMetrics when the Accept header asks for it, as Prometheus does
curl -s -D "$tmp/h" -o "$tmp/om" -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
	"$url/metrics" || fail "GET /metrics (OpenMetrics) failed"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' "$tmp/h" ||
	fail "OpenMetrics: $(cat "$tmp/h")"
[ "$(tail -n 1 "$tmp/om")" = "# EOF" ] || fail "OpenMetrics does not end with # EOF"
grep -q '^# TYPE memtop_vm_pgfault counter$' "$tmp/om" || fail "OpenMetrics counter family has _total"
grep -q '^memtop_vm_pgfault_total ' "$tmp/om" || fail "OpenMetrics counter sample lacks _total"
echo "ok GET: $(wc -c <"$tmp/b") bytes of text, $(wc -c <"$tmp/om") of OpenMetrics"

# HEAD: the headers of GET, no body
curl -s -I -o "$tmp/head" "$url/metrics" || fail "HEAD /metrics failed"
grep -q '^HTTP/1.1 200' "$tmp/head" || fail "HEAD: $(cat "$tmp/head")"
grep -qi '^content-length: [1-9]' "$tmp/head" || fail "HEAD has no Content-Length: $(cat "$tmp/head")"
[ "$(curl -s -X HEAD --max-time 2 "$url/metrics" 2>/dev/null | wc -c)" -eq 0 ] ||
	fail "HEAD sent a body"
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code "$url/")" = 200 ] || fail "GET / is not 200"
curl -s "$url/" | grep -q 'href="metrics"' || fail "/ does not link to /metrics"
[ "$(code "$url/nope")" = 404 ] || fail "GET /nope is not 404"
[ "$(code "$url/metrics/x")" = 404 ] || fail "GET /metrics/x is not 404"
[ "$(code -X POST -d x=1 "$url/metrics")" = 405 ] || fail "POST /metrics is not 405"
[ "$(code -X DELETE "$url/")" = 405 ] || fail "DELETE / is not 405"
curl -s -D - -o /dev/null -X PUT "$url/metrics" | grep -qi '^allow: GET, HEAD' ||
	fail "405 without Allow: GET, HEAD"
echo "ok HEAD, /, 404, 405"

# slow clients: each sends its request a byte a second; meanwhile others are answered at
# once
for s in 1 2 3 4 5; do
	(for c in G E T ' ' / m e t r i c s; do printf '%s' "$c"; sleep 1; done) |
		curl -s --max-time 20 "telnet://127.0.0.1:$port" >/dev/null 2>&1 &
	slow="$slow $!"
done
# until memtop holds them (the five connections established on its port, beside the
# listening socket), then 10 GETs, each answered in under 10 s (a slow client's request
# takes 12 s to arrive)
i=0
until [ "$(ss -Htn state established "sport = :$port" | wc -l)" -ge 5 ]; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "the 5 slow clients never connected: $(ss -Htn "sport = :$port")"
	sleep 0.1
done
t0=$(date +%s%N)
for i in 1 2 3 4 5 6 7 8 9 10; do
	curl -s --max-time 10 -o /dev/null "$url/metrics" || fail "GET $i failed beside slow clients"
done
echo "10 GETs beside 5 slow clients: $((($(date +%s%N) - t0) / 1000000)) ms"

# 200 clients at once (one curl, 200 connections open together): each gets the whole
# answer (200, its Content-Length in bytes, the metrics in it)
i=0
while [ $i -lt 200 ]; do
	i=$((i + 1))
	printf 'url = "%s/metrics"\noutput = "%s/once/%d"\n' "$url" "$tmp" $i
done >"$tmp/once.cfg"
mkdir "$tmp/once"
curl -s --no-progress-meter --parallel --parallel-immediate --parallel-max 200 --max-time 60 \
	-K "$tmp/once.cfg" -w '%{http_code} %{size_download} %header{content-length}\n' \
	>"$tmp/once.out" 2>"$tmp/once.err"
bad=$(awk '!($1 == 200 && $2 > 0 && $2 == $3)' "$tmp/once.out" | wc -l)
whole=$(grep -l '^memtop_memory_total_bytes ' "$tmp"/once/* | wc -l)
[ "$(wc -l <"$tmp/once.out")" -eq 200 ] && [ "$bad" -eq 0 ] && [ "$whole" -eq 200 ] ||
	fail "200 clients at once: $(wc -l <"$tmp/once.out") answers, $bad incomplete, $whole with the metrics"
echo "ok 200 clients at once"

rss_kb() { awk '$1 == "VmRSS:" { print $2 }' /proc/$pid/status; }
rss0=$(rss_kb)
# a 1 MB header: refused (the 32 KiB a connection may use), while others are answered
head -c 1000000 /dev/zero | tr '\0' a | sed 's/^/X-Big: /' >"$tmp/bighdr"
big=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -H @"$tmp/bighdr" "$url/metrics")
case "$big" in 200) fail "a 1 MB header was answered 200" ;; esac
[ "$(code "$url/metrics")" = 200 ] || fail "GET after the 1 MB header failed"
echo "ok a 1 MB header: $big"

# 200 clients at once, 1,000 requests in all (one curl making them in parallel, 200
# connections open at a time): every answer whole (200, and as many bytes as its
# Content-Length), and memtop's RSS not grown by them (the answers share the exposition)
n=1000
i=0
while [ $i -lt $n ]; do
	i=$((i + 1))
	printf 'url = "%s/metrics"\noutput = "/dev/null"\n' "$url"
done >"$tmp/load.cfg"
curl -s --no-progress-meter --parallel --parallel-immediate --parallel-max 200 --max-time 60 -K "$tmp/load.cfg" \
	-w '%{http_code} %{size_download} %header{content-length}\n' >"$tmp/load" 2>"$tmp/load.err"
total=$(wc -l <"$tmp/load")
awk '!($1 == 200 && $2 > 0 && $2 == $3)' "$tmp/load" >"$tmp/bad"
rss1=$(rss_kb)
echo "$n requests, 200 at once: $total answered, $(wc -l <"$tmp/bad") incomplete; memtop's RSS $rss0 -> $rss1 KiB"
[ "$total" -eq $n ] || fail "$total answers to $n requests"
[ -s "$tmp/bad" ] && fail "incomplete answers under load: $(sort "$tmp/bad" | uniq -c | head)"
# (not under ASan: its quarantine keeps freed memory, each connection's, resident)
case "$MEMTOP" in
*/asan/*) ;;
*) # bounded by the server's limits: 512 connections of 32 KiB each, and 8 MiB for
	# the allocator's arenas of its threads; not by the number of answers
	[ "$rss1" -lt $((rss0 + 512 * 32 + 8192)) ] ||
		fail "memtop's RSS grew from $rss0 to $rss1 KiB under load" ;;
esac

# SIGTERM: it stops, and nothing listens any more
kill -TERM $pid
i=0
while kill -0 $pid 2>/dev/null; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "memtop --serve still runs a minute after SIGTERM"
	sleep 0.1
done
wait $pid
rc=$?
pid=
[ $rc -eq 143 ] || fail "after SIGTERM it exited $rc, not 143"
ss -Hltn "sport = :$port" | grep -q . && fail "port $port still listens"
# nothing on stderr but, on a machine the 200 clients starved, the line saying how many
# refreshes a stall skipped
grep -v '^memtop: [0-9]* refreshes skipped after a [0-9.]* s stall$' "$tmp/err" >"$tmp/err.other"
[ ! -s "$tmp/err.other" ] || fail "stderr: $(cat "$tmp/err.other")"
echo "ok SIGTERM"
