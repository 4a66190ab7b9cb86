#!/bin/sh
# --serve PORT: GET and HEAD of /metrics in the text format (OpenMetrics when asked), 404
# and 405, listening on loopback alone; 200 clients at once all get whole answers; slow
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
port=$((20000 + $$ % 20000))
while ss -Hltn "sport = :$port" | grep -q .; do port=$((port + 1)); done
url=http://127.0.0.1:$port
"$MEMTOP" --serve "$port" -d 0.5 2>"$tmp/err" &
pid=$!
i=0
until curl -sf -o /dev/null "$url/metrics"; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "nothing answered on port $port: $(cat "$tmp/err")"
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
sleep 1
t0=$(date +%s%N)
for i in 1 2 3 4 5 6 7 8 9 10; do
	curl -s --max-time 5 -o /dev/null "$url/metrics" || fail "GET $i failed beside slow clients"
done
ms=$((($(date +%s%N) - t0) / 1000000))
echo "10 GETs beside 5 slow clients: $ms ms"
[ $ms -lt 3000 ] || fail "10 GETs took $ms ms beside slow clients"

# 200 clients at once: each gets the whole answer (its Content-Length in bytes)
i=0
while [ $i -lt 200 ]; do
	i=$((i + 1))
	curl -s --max-time 30 -D "$tmp/h$i" -o "$tmp/b$i" "$url/metrics" &
done
wait_curls() { for j in $(jobs -p); do case " $slow " in *" $j "*) ;; *) wait "$j" ;; esac; done; }
wait_curls
i=0 bad=0
while [ $i -lt 200 ]; do
	i=$((i + 1))
	len=$(awk 'tolower($1) == "content-length:" { print $2 + 0 }' "$tmp/h$i")
	if ! grep -q '^HTTP/1.1 200' "$tmp/h$i" || [ "$len" != "$(wc -c <"$tmp/b$i")" ] ||
		! grep -q '^memtop_memory_total_bytes ' "$tmp/b$i"; then
		bad=$((bad + 1))
	fi
done
[ $bad -eq 0 ] || fail "$bad of 200 clients at once got no whole answer"
echo "ok 200 clients at once"

# SIGTERM: it stops, and nothing listens any more
kill -TERM $pid
i=0
while kill -0 $pid 2>/dev/null; do
	i=$((i + 1))
	[ $i -le 50 ] || fail "memtop --serve still runs 5 s after SIGTERM"
	sleep 0.1
done
wait $pid
rc=$?
pid=
[ $rc -eq 143 ] || fail "after SIGTERM it exited $rc, not 143"
ss -Hltn "sport = :$port" | grep -q . && fail "port $port still listens"
[ ! -s "$tmp/err" ] || fail "stderr: $(cat "$tmp/err")"
echo "ok SIGTERM"
