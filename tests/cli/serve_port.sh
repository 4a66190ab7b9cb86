#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# A second --serve on a port one memtop already listens on: a one-line error and exit 1,
# before any refresh; the first keeps answering every scrape alone.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
for t in curl ss; do
	command -v $t >/dev/null || skip "$t not installed (Debian packages curl, iproute2)"
done
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid= pid2=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "$pid2" ] && kill "$pid2" 2>/dev/null
	rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

port=$(free_port 7)
url=http://127.0.0.1:$port
"$MEMTOP" --serve "$port" -d 0.5 2>"$tmp/err" &
pid=$!
eventually $HANG curl -sf -o /dev/null "$url/metrics" ||
	fail "nothing answered on port $port: $(cat "$tmp/err")"

# the second: exit 1 and one line naming the address and the reason
"$MEMTOP" --serve "$port" -d 0.5 >"$tmp/out2" 2>"$tmp/err2" &
pid2=$!
wait $pid2
rc=$?
pid2=
[ $rc -eq 1 ] || fail "second --serve on $port: exit $rc, not 1 ($(cat "$tmp/err2"))"
[ "$(wc -l <"$tmp/err2")" -eq 1 ] || fail "not one line: $(cat "$tmp/err2")"
grep -q "^memtop: --serve: cannot listen on 127.0.0.1:$port: Address already in use$" "$tmp/err2" ||
	fail "unexpected error: $(cat "$tmp/err2")"
[ -s "$tmp/out2" ] && fail "the second printed on stdout: $(cat "$tmp/out2")"
echo "ok second --serve: $(cat "$tmp/err2")"

# one listener, the first's; and every scrape answered by it
n=$(ss -Hltnp "sport = :$port" | wc -l)
[ "$n" -eq 1 ] || fail "$n listeners on $port: $(ss -Hltnp "sport = :$port")"
ss -Hltnp "sport = :$port" | grep -q "pid=$pid," || fail "the listener is not memtop $pid"
for i in 1 2 3 4 5 6 7 8 9 10; do
	curl -sf -o /dev/null "$url/metrics" || fail "scrape $i failed"
done
echo "ok one listener, 10 scrapes answered"

# a port taken by another program than memtop: the same
kill "$pid"
wait "$pid" 2>/dev/null
pid=
python3 -c 'import socket,sys,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("ready", flush=True); time.sleep(60)' \
	"$port" >"$tmp/py" &
pid=$!
wait_ready "$tmp/py" || fail "the python listener never got ready"
"$MEMTOP" --serve "$port" -d 0.5 2>"$tmp/err3"
rc=$?
[ $rc -eq 1 ] || fail "--serve on a port python holds (SO_REUSEPORT): exit $rc"
grep -q "Address already in use" "$tmp/err3" || fail "unexpected error: $(cat "$tmp/err3")"
echo "ok a port another program holds with SO_REUSEPORT: $(cat "$tmp/err3")"
