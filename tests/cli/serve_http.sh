#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# --serve as an HTTP service: the connection kept alive between requests (no
# Connection: close); gzip when Accept-Encoding asks for it (not with q=0), decoded equal
# to the plain answer of the same refresh, in both formats; memtop_build_info with the
# git description that --version prints; the exporter's own counters: requests by status
# and the errors (a request whose client went away mid-body), the refresh's duration.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
for t in curl ss python3 gzip; do
	command -v $t >/dev/null || skip "$t not installed"
done
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

port=$(free_port 19)
url=http://127.0.0.1:$port/metrics
"$MEMTOP" --serve "$port" -d 2 2>"$tmp/err" &
pid=$!
eventually $HANG curl -sf -o /dev/null "$url" || fail "nothing answered on $port: $(cat "$tmp/err")"

# keep-alive: two requests on one connection
curl -sv -o /dev/null -o /dev/null "$url" "$url" 2>"$tmp/v" || fail "curl failed"
grep -qi '^< connection: close' "$tmp/v" && fail "Connection: close: $(grep -i '^< ' "$tmp/v" | head -5)"
grep -q 'Re-using existing connection' "$tmp/v" || fail "the connection was not kept: $(grep '^\*' "$tmp/v" | head)"
echo "ok keep-alive"

# gzip: decoded equal to the plain answer of the same refresh (the plain one read before
# and after; tried again where a refresh fell between)
same_refresh() { # ACCEPT: plain, gzip, plain; true where the plain ones are equal
	curl -sf -H "Accept: $1" -o "$tmp/p1" "$url" &&
		curl -sf -H "Accept: $1" -H 'Accept-Encoding: gzip' -D "$tmp/gh" -o "$tmp/g" "$url" &&
		curl -sf -H "Accept: $1" -o "$tmp/p2" "$url" && cmp -s "$tmp/p1" "$tmp/p2"
}
for accept in 'text/plain' 'application/openmetrics-text;version=1.0.0'; do
	tries=0
	until same_refresh "$accept"; do
		tries=$((tries + 1))
		[ $tries -lt 20 ] || fail "every try fell across a refresh"
	done
	grep -qi '^content-encoding: gzip' "$tmp/gh" || fail "$accept: no Content-Encoding: gzip: $(cat "$tmp/gh")"
	grep -qi '^vary: .*accept-encoding' "$tmp/gh" || fail "$accept: no Vary: Accept-Encoding"
	gzip -dc <"$tmp/g" >"$tmp/gd" || fail "$accept: not gzip"
	cmp -s "$tmp/gd" "$tmp/p1" || fail "$accept: gzip decoded differs from plain: $(diff "$tmp/p1" "$tmp/gd" | head -3)"
	echo "ok gzip of $accept: $(wc -c <"$tmp/g") bytes for $(wc -c <"$tmp/p1"), decoded equal"
done
curl -sf -H 'Accept-Encoding: gzip;q=0, identity' -D "$tmp/h0" -o "$tmp/q0" "$url" || fail "q=0 failed"
grep -qi '^content-encoding' "$tmp/h0" && fail "gzip;q=0 answered gzipped"
head -c 7 "$tmp/q0" | grep -q '^# HELP' || fail "gzip;q=0: not plain text"
curl -sf -D "$tmp/hn" -o /dev/null "$url"
grep -qi '^content-encoding' "$tmp/hn" && fail "gzipped without Accept-Encoding"
echo "ok gzip only when asked"

# build info: the revision --version prints
ver=$("$MEMTOP" --version)
info=$(grep '^memtop_build_info{' "$tmp/p1") || fail "no memtop_build_info"
rev=$(printf '%s\n' "$info" | sed -n 's/.*revision="\([^"]*\)".*/\1/p')
v=$(printf '%s\n' "$info" | sed -n 's/.*version="\([^"]*\)".*/\1/p')
case "$ver" in
"memtop $v (git $rev)" | "memtop $v") ;;
*) fail "--version says '$ver', build info '$info'" ;;
esac
if git -C "$(dirname "$MEMTOP")/.." rev-parse >/dev/null 2>&1; then
	[ -n "$rev" ] || fail "built in a git checkout, no revision: $info"
	git -C "$(dirname "$MEMTOP")/.." cat-file -e "$(printf '%s\n' "$rev" | sed 's/-dirty$//; s/.*-g//')" 2>/dev/null ||
		fail "revision $rev is no commit of the tree"
fi
echo "ok $info; $ver"

# counters: 404s, and an error: a GET with a body whose client leaves mid-body
requests() { awk -v c="$1" '$1 == "memtop_http_requests_total{code=\"" c "\"}" { print $2 }' "$2"; }
curl -s -o "$tmp/c0" "$url"
n404=$(requests 404 "$tmp/c0")
err0=$(awk '$1 == "memtop_http_errors_total" { print $2 }' "$tmp/c0")
[ -n "$n404" ] && [ -n "$err0" ] || fail "no request counters: $(grep memtop_http "$tmp/c0")"
for i in 1 2 3; do curl -s -o /dev/null "http://127.0.0.1:$port/nope"; done
python3 -c 'import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789")
time.sleep(0.5); s.close()' "$port" || fail "python client failed"
counted() {
	curl -s -o "$tmp/c1" "$url" &&
		[ "$(requests 404 "$tmp/c1")" -ge $((n404 + 3)) ] &&
		[ "$(awk '$1 == "memtop_http_errors_total" { print $2 }' "$tmp/c1")" -ge $((err0 + 1)) ]
}
eventually $HANG counted || fail "404s or errors not counted: $(grep memtop_http "$tmp/c1")"
d=$(awk '$1 == "memtop_refresh_duration_seconds" { print $2 }' "$tmp/c1")
awk -v d="$d" 'BEGIN { exit !(d > 0 && d < 60) }' || fail "refresh duration '$d'"
echo "ok $(grep -E '^memtop_(http|refresh)' "$tmp/c1" | tr '\n' ' ')"
