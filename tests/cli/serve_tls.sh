#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# --serve with --web-config (node_exporter's format): TLS with a certificate the test
# makes (openssl), checked by curl --cacert; basic auth with a bcrypt hash the test makes
# (Python's crypt, the system's libcrypt): the right password 200, a wrong one, another
# user or none 401 with WWW-Authenticate; plain HTTP to the TLS port gets nothing; gzip
# over TLS decodes; a real Prometheus scrapes it over TLS with basic auth (up == 1, and
# memtop_memory_total_bytes equal to /proc/meminfo's MemTotal); bad web configurations
# are one-line errors with exit 1.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
for t in curl ss openssl python3 jq; do
	command -v $t >/dev/null || skip "$t not installed (Debian packages curl, iproute2, openssl)"
done
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid= prom=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "$prom" ] && kill "$prom" 2>/dev/null
	rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 2 \
	-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
	-keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>"$tmp/ossl" || fail "openssl: $(cat "$tmp/ossl")"
hash=$(python3 -W ignore -c 'import crypt, sys
print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))' 's3cret pass') ||
	fail "no bcrypt hash from python3"
case "$hash" in '$2b$'*) ;; *) fail "not a bcrypt hash: $hash" ;; esac
cat >"$tmp/web.yml" <<EOW
# node_exporter's web configuration, the parts memtop takes
tls_server_config:
  cert_file: $tmp/cert.pem
  key_file: "$tmp/key.pem"

basic_auth_users:
  alice: '$hash'
  bob: $hash
EOW

port=$(free_port 23)
url=https://127.0.0.1:$port/metrics
"$MEMTOP" --serve "$port" --web-config "$tmp/web.yml" -d 1 2>"$tmp/err" &
pid=$!
code() { curl -s --cacert "$tmp/cert.pem" -o "$tmp/body" -D "$tmp/h" -w '%{http_code}' "$@"; }
up() { [ "$(code -u 'alice:s3cret pass' "$url")" = 200 ]; }
eventually $HANG up || fail "no 200 over TLS with alice's password: $(cat "$tmp/err") $(cat "$tmp/h")"
grep -q '^memtop_memory_total_bytes ' "$tmp/body" || fail "no metrics over TLS"
openssl s_client -connect "127.0.0.1:$port" -CAfile "$tmp/cert.pem" </dev/null 2>/dev/null |
	grep -q 'Verify return code: 0 (ok)' || fail "openssl s_client does not verify the certificate"
echo "ok TLS, verified with --cacert; alice's password: 200"

[ "$(code -u 'bob:s3cret pass' "$url")" = 200 ] || fail "bob's password refused"
for who in 'alice:wrong' 'alice:s3cret pas' 'carol:s3cret pass' 'alice:'; do
	c=$(code -u "$who" "$url")
	[ "$c" = 401 ] || fail "$who: $c, not 401"
	grep -qi '^www-authenticate: Basic realm="memtop"' "$tmp/h" || fail "$who: no WWW-Authenticate"
	grep -q '^memtop_' "$tmp/body" && fail "$who: metrics in a 401"
done
[ "$(code "$url")" = 401 ] || fail "no user: not 401"
[ "$(code "https://127.0.0.1:$port/nope")" = 401 ] || fail "no user on /nope: not 401"
[ "$(code -u 'alice:s3cret pass' "https://127.0.0.1:$port/nope")" = 404 ] || fail "/nope with a user: not 404"
echo "ok a wrong password, another user, none: 401"

curl -s --max-time 5 -o /dev/null "http://127.0.0.1:$port/metrics" && fail "plain HTTP answered on the TLS port"
curl -s --insecure -o /dev/null -w '%{http_code}' -u 'alice:s3cret pass' "$url" | grep -q 200 ||
	fail "--insecure failed"
curl -s --cacert "$tmp/cert.pem" -u 'alice:s3cret pass' -H 'Accept-Encoding: gzip' -D "$tmp/gh" -o "$tmp/gz" "$url"
grep -qi '^content-encoding: gzip' "$tmp/gh" || fail "no gzip over TLS"
gzip -dc <"$tmp/gz" | grep -q '^memtop_memory_total_bytes ' || fail "gzip over TLS does not decode"
echo "ok plain HTTP refused; gzip over TLS"

# a real Prometheus over TLS with basic auth
if command -v prometheus >/dev/null; then
	pport=$(free_port 23 "$port")
	cat >"$tmp/prometheus.yml" <<EOP
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: memtop
    scheme: https
    tls_config:
      ca_file: $tmp/cert.pem
    basic_auth:
      username: alice
      password: 's3cret pass'
    static_configs:
      - targets: ['127.0.0.1:$port']
EOP
	prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
		--web.listen-address="127.0.0.1:$pport" >"$tmp/prometheus.log" 2>&1 &
	prom=$!
	api=http://127.0.0.1:$pport/api/v1
	q() { curl -s --data-urlencode "query=$1" "$api/query" | jq -r '.data.result[0].value[1] // empty'; }
	scraped() { [ "$(q 'up{job="memtop"}')" = 1 ]; }
	eventually 60 scraped || fail "Prometheus never scraped memtop over TLS: $(curl -s "$api/targets" | jq -c '.data.activeTargets[0].lastError') $(tail -3 "$tmp/prometheus.log")"
	total=$(q 'memtop_memory_total_bytes{job="memtop"}')
	want=$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) * 1024))
	[ "$total" = "$want" ] || fail "Prometheus has MemTotal $total, /proc/meminfo $want"
	echo "ok Prometheus over TLS with basic auth: up 1, memtop_memory_total_bytes $total"
fi
kill "$pid"
wait "$pid" 2>/dev/null
pid=

# bad configurations: one line, exit 1
bad() { # WHAT FILE-TEXT PATTERN
	printf '%s\n' "$2" >"$tmp/bad.yml"
	"$MEMTOP" --serve "$port" --web-config "$tmp/bad.yml" -n 1 >/dev/null 2>"$tmp/e"
	rc=$?
	[ $rc = 1 ] || fail "$1: exit $rc: $(cat "$tmp/e")"
	[ "$(wc -l <"$tmp/e")" = 1 ] && grep -q "$3" "$tmp/e" || fail "$1: $(cat "$tmp/e")"
	echo "ok $1: $(cat "$tmp/e")"
}
bad "a plain password" "basic_auth_users:
  alice: secret" "bad.yml:2: user 'alice': the password is not a bcrypt hash"
bad "an unsupported key" "tls_server_config:
  cert_file: $tmp/cert.pem
  key_file: $tmp/key.pem
  client_ca_file: $tmp/cert.pem" "bad.yml:4: tls_server_config: 'client_ca_file' is not supported"
bad "http_server_config" "http_server_config:
  http2: false" "bad.yml:1: 'http_server_config' is not supported"
bad "a cert without key" "tls_server_config:
  cert_file: $tmp/cert.pem" "needs both cert_file and key_file"
bad "a missing key file" "tls_server_config:
  cert_file: $tmp/cert.pem
  key_file: $tmp/nokey.pem" "nokey.pem: No such file or directory"
"$MEMTOP" --serve "$port" --web-config "$tmp/none.yml" -n 1 2>"$tmp/e"
[ $? = 1 ] && grep -q "none.yml: No such file" "$tmp/e" || fail "a missing file: $(cat "$tmp/e")"
exits 2 "--web-config: only with --serve" --json --web-config "$tmp/web.yml"
echo "ok bad configurations"
