#!/bin/sh
# memtop-test: anywhere
# --serve with basic auth under a flood of wrong passwords: 50 clients send bob's wrong
# password without pause (bcrypt cost 12 each); alice, whose password was verified once,
# is answered 200 every time without waiting for their checks: counted, not timed, as the
# wrong-password checks that end while each of her scrapes waits (where bcrypt runs on
# the server's thread, a scrape waits behind the checks of every client before it: dozens;
# off it, at most the few the workers end meanwhile); the 503s of a full queue are counted
# in memtop_http_requests_total. Then SIGTERM in the flood stops
# memtop (exit 143).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
for t in curl ss python3; do
	command -v $t >/dev/null || skip "$t not installed"
done
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

mkhash() {
	python3 -W ignore -c 'import crypt, sys
print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=int(sys.argv[2]))))' "$@"
}
alice=$(mkhash 'right' 16) && bob=$(mkhash 'bobs' 4096) || fail "no bcrypt hash from python3"
printf 'basic_auth_users:\n  alice: %s\n  bob: %s\n' "$alice" "$bob" >"$tmp/web.yml"
port=$(free_port 43)
"$MEMTOP" --serve "127.0.0.1:$port" --web-config "$tmp/web.yml" -d 1 2>"$tmp/err" &
pid=$!
up() { [ "$(curl -s -o /dev/null -w '%{http_code}' -u alice:right "http://127.0.0.1:$port/metrics")" = 200 ]; }
eventually $HANG up || fail "no 200 with alice's password: $(cat "$tmp/err")"

python3 - "$port" "$tmp/busy" >"$tmp/flood" 2>&1 <<'EOP' || fail "the flood: $(cat "$tmp/flood")"
import base64, http.client, sys, threading
port = int(sys.argv[1])
lock = threading.Lock()
refused = 0  # 401s: wrong-password checks ended
codes = {}
stop = False

def auth(u):
    return {"Authorization": "Basic " + base64.b64encode(u.encode()).decode()}

def hammer():
    global refused
    while not stop:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            c.request("GET", "/metrics", headers=auth("bob:wrong"))
            r = c.getresponse()
            r.read()
            c.close()
        except (OSError, http.client.HTTPException):
            continue
        with lock:
            codes[r.status] = codes.get(r.status, 0) + 1
            if r.status == 401:
                refused += 1

threads = [threading.Thread(target=hammer, daemon=True) for _ in range(50)]
for t in threads:
    t.start()
while True:  # the flood under way: a check ended
    with lock:
        if refused >= 4:
            break
    threading.Event().wait(0.05)
answered, during = 0, []
for i in range(10):
    with lock:
        before = refused
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    c.request("GET", "/metrics", headers=auth("alice:right"))
    r = c.getresponse()
    body = r.read()
    c.close()
    with lock:
        during.append(refused - before)
    if r.status == 200 and b"memtop_memory_total_bytes" in body:
        answered += 1
print("alice answered %d of 10; checks ended while each waited: %s; bob's answers %s"
      % (answered, during, codes))
stop = True
with lock:
    open(sys.argv[2], "w").write("%d\n" % codes.get(503, 0))
sys.exit(0 if answered == 10 and sum(during) < 30 else 1)
EOP
cat "$tmp/flood"
echo "ok alice answered 10 of 10 in a flood of 50 wrong-password clients"
# the 503s bob got (the checks' queue full) are counted among the exporter's answers
busy=$(cat "$tmp/busy")
counted() {
	curl -s -u alice:right "http://127.0.0.1:$port/metrics" >"$tmp/page"
	n=$(sed -n 's/^memtop_http_requests_total{code="503"} //p' "$tmp/page")
	[ -n "$n" ] && [ "$n" -ge "$busy" ]
}
eventually $HANG counted || fail "memtop_http_requests_total{code=\"503\"} is '$n', bob got $busy 503s"
echo "ok $busy 503s answered, $n counted"

# SIGTERM in a flood
python3 - "$port" >/dev/null 2>&1 <<'EOP' &
import base64, http.client, sys, threading
port = int(sys.argv[1])
h = {"Authorization": "Basic " + base64.b64encode(b"bob:wrong").decode()}
def hammer():
    while True:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("GET", "/metrics", headers=h)
            c.getresponse().read()
            c.close()
        except (OSError, http.client.HTTPException):
            pass
for _ in range(50):
    threading.Thread(target=hammer, daemon=True).start()
threading.Event().wait(600)
EOP
flood=$!
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; kill "$flood" 2>/dev/null; rm -rf "$tmp"' EXIT
checking() { [ "$(ss -Htn state established "dport = :$port or sport = :$port" | wc -l)" -ge 40 ]; }
eventually $HANG checking || fail "the flood never reached memtop"
kill -TERM "$pid"
gone() { ! kill -0 "$pid" 2>/dev/null || [ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = Z ]; }
eventually 60 gone || fail "memtop still runs after SIGTERM in the flood"
wait "$pid"
rc=$?
pid=
[ $rc = 143 ] || fail "memtop exited $rc after SIGTERM, not 143: $(cat "$tmp/err")"
echo "ok SIGTERM in the flood: exit 143"
