#!/bin/sh
# memtop-test: anywhere
# --serve against slowloris: 300 connections from 127.0.0.1 each sending its request a
# byte a second (which the idle timeout never ends), each opened again when memtop closes
# it, are all closed by memtop while they still send (a whole request has 10 s; one
# address holds 256 connections at most, and a newcomer past that sheds the one that has
# waited longest); meanwhile a client from another address is answered, and so is every
# client from 127.0.0.1 itself, at its first try, while the attack goes on. Counts
# answers, not seconds.
# A non-loopback address is warned about in one line; loopback is not.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
for t in curl ss; do
	command -v $t >/dev/null || skip "$t not installed (Debian packages curl, iproute2)"
done
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid= slow=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "$slow" ] && kill "$slow" 2>/dev/null
	rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

port=$(free_port 31)

# the warning: one line for 0.0.0.0, none for loopback
"$MEMTOP" --serve "0.0.0.0:$port" -n 2 -d 0.1 2>"$tmp/err" || fail "--serve 0.0.0.0 exited $?: $(cat "$tmp/err")"
cat "$tmp/err"
[ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q "^memtop: --serve 0.0.0.0:$port is reached beyond this machine: it shows every process's name and cgroup to the network (--web-config: users and passwords)\$" "$tmp/err" ||
	fail "--serve 0.0.0.0: no one-line warning: $(cat "$tmp/err")"
"$MEMTOP" --serve "127.0.0.1:$port" -n 2 -d 0.1 2>"$tmp/err" || fail "--serve 127.0.0.1 exited $?"
[ ! -s "$tmp/err" ] || fail "--serve 127.0.0.1 warned: $(cat "$tmp/err")"
echo "ok the warning"

url=http://127.0.0.1:$port/metrics
"$MEMTOP" --serve "$port" -d 0.5 2>"$tmp/err" &
pid=$!
i=0
until curl -sf -o /dev/null "$url"; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "nothing answered on port $port: $(cat "$tmp/err")"
	kill -0 $pid 2>/dev/null || fail "memtop --serve exited: $(cat "$tmp/err")"
	sleep 0.1
done

N=300
"$HELPERS/slow_client" 127.0.0.1 "$port" $N 600 >"$tmp/slow" &
slow=$!
wait_file "$tmp/slow" 30 || fail "slow_client did not connect"
attacking() { kill -0 $slow 2>/dev/null || fail "slow_client ended: $(cat "$tmp/slow")"; }
# another address: answered beside them
other=0
for i in 1 2 3 4 5; do
	curl -sf --max-time 20 --interface 127.0.0.2 -o /dev/null "$url" && other=$((other + 1))
done
attacking
echo "from 127.0.0.2 beside $N slow clients: $other of 5 answered"
[ $other = 5 ] || fail "from 127.0.0.2 beside $N slow clients: $other of 5 answered"
# 127.0.0.1 itself: each answered at its first try, the attack still going on
same=0
for i in 1 2 3 4 5; do
	curl -sf --max-time 20 -o /dev/null "$url" && same=$((same + 1))
done
attacking
echo "from 127.0.0.1 while the slow clients sent: $same of 5 answered"
[ $same = 5 ] || fail "from 127.0.0.1: $same of 5 answered while the slow clients sent"
# every one of the first N closed by memtop while it still sent
i=0
until grep -qx "closed $N of $N" "$tmp/slow"; do
	attacking
	i=$((i + 1))
	[ $i -le 600 ] || fail "memtop did not close every slow client while it sent: $(tail -1 "$tmp/slow")"
	sleep 0.1
done
kill $slow
wait $slow
slow=
echo "slow clients: closed $N of $N, $(tail -1 "$tmp/slow")"
kill -0 $pid 2>/dev/null || fail "memtop --serve exited: $(cat "$tmp/err")"
curl -sf --max-time 20 -o /dev/null "$url" || fail "not answered once the slow clients stopped"
kill $pid
wait $pid
pid=
[ ! -s "$tmp/err" ] || fail "stderr: $(cat "$tmp/err")"
