#!/bin/sh
# --serve with --web-config's basic auth under hostile clients (run alone: sh
# bench/serve_auth.sh):
# 1. memory: REQUESTS (1,000,000) requests without credentials, on CLIENTS (4) kept-alive
#    connections; memtop's VmRSS after the first 10,000 and after the last;
# 2. a flood: FLOOD (200) clients sending a known user's wrong password (bcrypt cost 10)
#    without pause, and SCRAPES (20) scrapes by a user whose password was verified
#    before, one after another: each scrape's time, the longest;
# 3. enumeration: TIMES (40) requests, one at a time, of an unknown user and of a known
#    user with a wrong password, interleaved: the medians and their ratio.
set -eu
cd "$(dirname "$0")/.."
B=${B:-build/memtop}
REQUESTS=${REQUESTS:-1000000}
CLIENTS=${CLIENTS:-4}
FLOOD=${FLOOD:-200}
SCRAPES=${SCRAPES:-20}
TIMES=${TIMES:-40}
command -v python3 >/dev/null || { echo "serve_auth.sh: needs python3"; exit 1; }
tmp=$(mktemp -d /tmp/memtop-serve-auth.XXXXXX)
server="" flood=""
trap '[ -n "$flood" ] && kill "$flood" 2>/dev/null; [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT
python3 -W ignore -c 'import crypt
m = lambda p, r: crypt.crypt(p, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=r))
print("basic_auth_users:\n  alice: %s\n  bob: %s" % (m("right", 1024), m("bobs", 1024)))' >"$tmp/web.yml"
port=$((20000 + $$ % 20000))
while ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; do port=$((port + 1)); done
"$B" --serve "127.0.0.1:$port" --web-config "$tmp/web.yml" -d 10 2>"$tmp/err" &
server=$!
until curl -sf -o /dev/null -u alice:right "http://127.0.0.1:$port/metrics"; do sleep 0.1; done
rss() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$server/status"; }

# COUNT requests without credentials on each of CLIENTS connections; the 401s
unauth() {
	i=0 pids=
	while [ $i -lt "$CLIENTS" ]; do
		python3 - "$port" "$(($1 / CLIENTS))" <<'EOP' &
import http.client, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
c, ok = http.client.HTTPConnection("127.0.0.1", port), 0
for _ in range(n):
    c.request("GET", "/metrics")
    r = c.getresponse()
    r.read()
    ok += r.status == 401
print(ok)
EOP
		pids="$pids $!"
		i=$((i + 1))
	done >"$tmp/counts"
	for p in $pids; do wait "$p"; done
	awk '{ n += $1 } END { print n }' "$tmp/counts"
}
unauth 10000 >/dev/null
rss0=$(rss)
t0=$(date +%s)
n401=$(unauth "$REQUESTS")
t1=$(date +%s)
rss1=$(rss)
echo "1. $n401 of $REQUESTS requests without credentials answered 401 in $((t1 - t0)) s;" \
	"VmRSS $rss0 kB before, $rss1 kB after ($((rss1 - rss0)) kB)"

# 2. the flood
python3 - "$port" "$FLOOD" >/dev/null 2>&1 <<'EOP' &
import base64, http.client, sys, threading
port, n = int(sys.argv[1]), int(sys.argv[2])
h = {"Authorization": "Basic " + base64.b64encode(b"bob:wrong").decode()}
def hammer():
    while True:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            c.request("GET", "/metrics", headers=h)
            c.getresponse().read()
            c.close()
        except (OSError, http.client.HTTPException):
            pass
for _ in range(n):
    threading.Thread(target=hammer, daemon=True).start()
threading.Event().wait(3600)
EOP
flood=$!
sleep 2 # the flood under way
i=0
while [ $i -lt "$SCRAPES" ]; do
	curl -s -o /dev/null -u alice:right -w '%{http_code} %{time_total}\n' --max-time 60 \
		"http://127.0.0.1:$port/metrics" || echo "000 60"
	i=$((i + 1))
done >"$tmp/scrapes"
kill "$flood"
wait "$flood" 2>/dev/null || true
flood=
awk -v f="$FLOOD" '{ n++; ok += $1 == 200; if ($2 > max) max = $2; s += $2 }
	END { printf "2. under %d wrong-password clients: %d of %d scrapes 200, mean %.3f s, longest %.3f s\n", f, ok, n, s / n, max }' "$tmp/scrapes"

# 3. an unknown user and a known one with a wrong password, one request at a time
i=0
while [ $i -lt "$TIMES" ]; do
	for who in carol:wrong bob:wrong; do
		echo "$who $(curl -s -o /dev/null -u "$who" -w '%{http_code} %{time_total}' "http://127.0.0.1:$port/metrics")"
	done
	i=$((i + 1))
done >"$tmp/times"
med() { awk -v w="$1" '$1 == w { print $3 }' "$tmp/times" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
unknown=$(med carol:wrong) known=$(med bob:wrong)
echo "3. median of $TIMES: unknown user $unknown s, known user with a wrong password $known s," \
	"ratio $(echo "$unknown $known" | awk '{ printf "%.3f", $1 / $2 }')" \
	"($(awk '$2 != 401' "$tmp/times" | wc -l) answers not 401)"
