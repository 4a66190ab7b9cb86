#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# --serve with --web-config's basic auth answers every request it refuses the same way:
# 1000 requests without a user, then 100 with a wrong password, on kept-alive
# connections, each a 401 with exactly one WWW-Authenticate header and its body (a
# response shared by the refusals must not gain a header each time), and a right
# password still 200 after them.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
for t in curl ss python3; do
	command -v $t >/dev/null || skip "$t not installed"
done
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

hash=$(python3 -W ignore -c 'import crypt, sys
print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))' 'pass') ||
	fail "no bcrypt hash from python3"
printf 'basic_auth_users:\n  alice: %s\n' "$hash" >"$tmp/web.yml"
port=$(free_port 41)
url=http://127.0.0.1:$port/metrics
"$MEMTOP" --serve "127.0.0.1:$port" --web-config "$tmp/web.yml" -d 1 2>"$tmp/err" &
pid=$!
up() { [ "$(curl -s -o /dev/null -w '%{http_code}' -u alice:pass "$url")" = 200 ]; }
eventually $HANG up || fail "no 200 with alice's password: $(cat "$tmp/err")"

# COUNT requests with AUTH (a header value, or none): prints the 401s that had exactly
# one WWW-Authenticate and a body, then the other answers, one a line
refusals() {
	python3 - "$port" "$1" "$2" <<'EOP'
import http.client, sys
port, n, auth = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
good, other = 0, []
c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
for i in range(n):
    h = {"Authorization": auth} if auth else {}
    try:
        c.request("GET", "/metrics", headers=h)
        r = c.getresponse()
        body = r.read()
    except (OSError, http.client.HTTPException) as e:
        other.append("request %d: %r" % (i, e))
        c.close()
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        continue
    www = r.msg.get_all("WWW-Authenticate") or []
    if r.status == 401 and www == ['Basic realm="memtop"'] and body:
        good += 1
    else:
        other.append("request %d: %d, WWW-Authenticate %r, %d bytes" % (i, r.status, www, len(body)))
print(good)
for o in other[:5]:
    print(o)
EOP
}
refusals 1000 "" >"$tmp/none"
[ "$(head -1 "$tmp/none")" = 1000 ] ||
	fail "without a user, $(head -1 "$tmp/none") of 1000 were a 401 with one WWW-Authenticate: $(tail -n +2 "$tmp/none")"
echo "ok 1000 requests without a user: 1000 401s, each with one WWW-Authenticate"
wrong=$(printf 'alice:wrong' | base64)
refusals 100 "Basic $wrong" >"$tmp/wrong"
[ "$(head -1 "$tmp/wrong")" = 100 ] ||
	fail "with a wrong password, $(head -1 "$tmp/wrong") of 100 were a 401 with one WWW-Authenticate: $(tail -n +2 "$tmp/wrong")"
echo "ok 100 requests with a wrong password: 100 401s, each with one WWW-Authenticate"
up || fail "alice's password refused after the refusals"
curl -s -D "$tmp/h" -o /dev/null "$url"
[ "$(grep -ci '^www-authenticate:' "$tmp/h")" = 1 ] || fail "curl sees: $(cat "$tmp/h")"
echo "ok alice's password still 200; curl sees one WWW-Authenticate"
