#!/bin/sh
# What the exporter costs as a service: memtop --serve -d 1 scraped once a second by one
# keep-alive client (as Prometheus scrapes), in three set-ups run interleaved in each round:
# plain HTTP; gzip (Accept-Encoding: gzip); gzip over TLS with basic auth (--web-config,
# a certificate made by openssl, a bcrypt hash). Per run: memtop's CPU (utime + stime of
# /proc/PID/stat, every thread) over SECS seconds after a 3 s warm-up, as a share of one
# core, and its RSS at the end (VmRSS) and peak (VmHWM); medians over the rounds.
#
# Knobs: ROUNDS (3), SECS (20), B (build/memtop).
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
B=${B:-build/memtop}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-20}
for t in curl openssl python3 ss; do
	command -v $t >/dev/null || { echo "serve_service.sh: needs $t"; exit 1; }
done
tmp=$(mktemp -d /tmp/memtop-bench.XXXXXX)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 2 \
	-addext "subjectAltName=IP:127.0.0.1" -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
hash=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("pw", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))')
printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\nbasic_auth_users:\n  bench: %s\n' \
	"$tmp/cert.pem" "$tmp/key.pem" "$hash" >"$tmp/web.yml"
port=$((20000 + $$ % 20000))
while ss -Hltn "sport = :$port" | grep -q .; do port=$((port + 1)); done

# scrape MODE SECS: one connection, a GET a second (python3's http.client)
scrape() {
	python3 - "$port" "$1" "$2" "$tmp/cert.pem" <<'PY'
import base64, http.client, ssl, sys, time
port, mode, secs, ca = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
hdr = {}
if mode != "plain":
    hdr["Accept-Encoding"] = "gzip"
if mode == "tls":
    ctx = ssl.create_default_context(cafile=ca)
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=ctx)
    hdr["Authorization"] = "Basic " + base64.b64encode(b"bench:pw").decode()
else:
    conn = http.client.HTTPConnection("127.0.0.1", port)
end = time.monotonic() + secs
n = size = 0
while time.monotonic() < end:
    conn.request("GET", "/metrics", headers=hdr)
    r = conn.getresponse()
    size += len(r.read())
    if r.status != 200:
        sys.exit("status %d" % r.status)
    n += 1
    time.sleep(1)
print(n, size // max(n, 1))
PY
}
ticks=$(getconf CLK_TCK)
cpu_s() { sed 's/.*) //' "/proc/$1/stat" | awk -v t="$ticks" '{ print ($12 + $13) / t }'; }
status() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

r=0
while [ $r -lt "$ROUNDS" ]; do
	for mode in plain gzip tls; do
		set -- --serve "127.0.0.1:$port" -d 1
		[ $mode = tls ] && set -- "$@" --web-config "$tmp/web.yml"
		"$B" "$@" 2>"$tmp/err" &
		server=$!
		url=http://127.0.0.1:$port/metrics
		i=0
		until curl -sk -o /dev/null -u bench:pw "$url" || curl -sk -o /dev/null -u bench:pw "https${url#http}"; do
			i=$((i + 1))
			[ $i -le 100 ] || { echo "memtop never answered: $(cat "$tmp/err")"; exit 1; }
			sleep 0.1
		done
		scrape "$mode" 3 >/dev/null
		c0=$(cpu_s $server)
		got=$(scrape "$mode" "$SECS")
		c1=$(cpu_s $server)
		echo "$r $mode $(echo "$c0 $c1" | awk -v s="$SECS" '{ printf "%.2f", 100 * ($2 - $1) / s }')" \
			"$(status $server VmRSS) $(status $server VmHWM) $got" >>"$tmp/runs"
		kill $server
		wait $server 2>/dev/null || true
		server=""
	done
	r=$((r + 1))
done
echo "memtop --serve -d 1, one scrape a second, $ROUNDS interleaved rounds of $SECS s, $(ls -d /proc/[0-9]* | wc -l) processes"
echo "set-up   CPU %core   RSS KiB   peak KiB   scrapes  bytes/scrape   (medians)"
for mode in plain gzip tls; do
	awk -v m="$mode" '$2 == m' "$tmp/runs" | awk -v m="$mode" "$MEDIAN_AWK"'
		{ c[NR] = $3; rss[NR] = $4; hwm[NR] = $5; k[NR] = $6; b[NR] = $7 }
		END { printf "%-8s %9.2f %9d %10d %9d %14d\n", m, median(c, NR), median(rss, NR),
			median(hwm, NR), median(k, NR), median(b, NR) }'
done
