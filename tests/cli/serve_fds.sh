#!/bin/sh
# --serve under `ulimit -n 64` with 120 idle clients: memtop keeps descriptors for its
# own reads (its connection limits come from RLIMIT_NOFILE less those open and a
# reserve), so it goes on refreshing (the requests counted at each refresh rise) and
# answering scrapes, from the idle clients' address too, and says nothing on stderr.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v curl >/dev/null || skip "curl not installed (Debian package curl)"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid= idle=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "$idle" ] && kill "$idle" 2>/dev/null
	rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

port=$(free_port 37)
url=http://127.0.0.1:$port/metrics
(ulimit -n 64 && exec "$MEMTOP" --serve "127.0.0.1:$port" -d 0.2) 2>"$tmp/err" &
pid=$!
alive() { kill -0 $pid 2>/dev/null || fail "memtop --serve exited: $(cat "$tmp/err")"; }
i=0
until curl -sf -o /dev/null "$url"; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "nothing answered on port $port: $(cat "$tmp/err")"
	alive
	sleep 0.1
done

N=120
"$HELPERS/idle_client" 127.0.0.1 "$port" $N >"$tmp/idle" &
idle=$!
wait_file "$tmp/idle" 30 || fail "idle_client did not connect"
# the 200s counted as of the last refresh
answered() {
	curl -sf --max-time 20 -o "$tmp/page" "$url" &&
		sed -n 's/^memtop_http_requests_total{code="200"} //p' "$tmp/page" | grep .
}
# a scrape, then one that shows a refresh after it: twice, the idle clients still there
last=$(answered) || fail "not answered beside $N idle clients"
n=0
for round in 1 2 3; do
	i=0
	while :; do
		alive
		kill -0 $idle 2>/dev/null || fail "idle_client ended"
		now=$(answered) || fail "not answered beside $N idle clients: $(cat "$tmp/err")"
		n=$((n + 1))
		[ "$now" -gt "$last" ] && break
		i=$((i + 1))
		[ $i -le 300 ] || fail "no refresh counted the scrapes: $now 200s, as before"
		sleep 0.1
	done
	echo "refresh $round beside $N idle clients: $now requests answered"
	last=$now
done
echo "$n scrapes beside $N idle clients, every one answered"
kill $idle
wait $idle 2>/dev/null
idle=
alive
kill $pid
wait $pid
pid=
[ ! -s "$tmp/err" ] || fail "stderr: $(cat "$tmp/err")"
