#!/bin/sh
# memtop-test: anywhere
# --web-config refused at start, one line on stderr and exit 1, naming FILE:LINE where a
# line is at fault: a bcrypt hash of cost 31 (above the 14 memtop checks) or 03, a "hash"
# that is not one ($2b$garbage), a FIFO (never waited on) as the file or as its cert_file;
# a path and a line holding ESC and a newline come out escaped (\e, \n), on one line; a
# certificate that is not one, a key that is not one, encrypted, or another
# certificate's, cert and key exchanged, each naming the file at fault. Basic auth over
# plain HTTP on 0.0.0.0 is a one-line warning.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

good=$(python3 -W ignore -c 'import crypt
print(crypt.crypt("x", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))') || fail "no bcrypt hash"
salt=${good#???????}
port=$(free_port 47)
users() { # FILE LINE...: a basic_auth_users section
	f=$1
	shift
	printf 'basic_auth_users:\n' >"$f"
	for l; do printf '  %s\n' "$l" >>"$f"; done
}
refused() { # PATTERN FILE
	exits 1 "--web-config $2$1" --serve "127.0.0.1:$port" --web-config "$2" -n 1
}
users "$tmp/c31.yml" "alice: $good" "bob: \$2b\$31\$$salt"
refused ":3: user 'bob': bcrypt cost 31, not 04 to 14" "$tmp/c31.yml"
users "$tmp/c3.yml" "bob: \$2y\$03\$$salt"
refused ":2: user 'bob': bcrypt cost 3, not 04 to 14" "$tmp/c3.yml"
users "$tmp/garbage.yml" "alice: $good" "bob: \$2b\$garbage"
refused ":3: user 'bob': the password is not a bcrypt hash" "$tmp/garbage.yml"
users "$tmp/short.yml" "bob: ${good%?}"
refused ":2: user 'bob': the password is not a bcrypt hash" "$tmp/short.yml"
users "$tmp/bad64.yml" "bob: ${good%?}!"
refused ":2: user 'bob': the password is not a bcrypt hash" "$tmp/bad64.yml"
echo "ok costs 31 and 03, \$2b\$garbage, a hash cut short or with a byte outside bcrypt's base64"

# a FIFO: refused at once, not opened for a writer that never comes
mkfifo "$tmp/fifo.yml" "$tmp/cert.pem"
refused ": not a regular file" "$tmp/fifo.yml"
printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$tmp/cert.pem" "$tmp/cert.pem" >"$tmp/tls.yml"
refused ": $tmp/cert.pem: not a regular file" "$tmp/tls.yml"
refused ": Is a directory" "$tmp"
echo "ok a FIFO as the file or its cert_file, a directory: refused"

# ESC and a newline in the path and in a line
esc=$(printf '\033')
nl='
'
weird="$tmp/a$esc[31mb${nl}c.yml"
printf 'basic_auth_users:\n  %s[2J\tx: %s\n' "$esc" "\$2b\$garbage" >"$weird"
exits 1 "--web-config $tmp/a\\\\e\\[31mb\\\\nc\\.yml:2: user '\\\\e\\[2J\\\\tx': the password is not" \
	--serve "127.0.0.1:$port" --web-config "$weird" -n 1
grep -q "$esc" "$tmp/err" && fail "ESC reached stderr: $(cat -v "$tmp/err")"
printf '%s[2J: x\n' "$esc" >"$weird"
exits 1 "--web-config $tmp/a\\\\e\\[31mb\\\\nc\\.yml:1: '\\\\e\\[2J' is not supported" \
	--serve "127.0.0.1:$port" --web-config "$weird" -n 1
printf 'tls_server_config:\n  cert_file: "%s"\n  key_file: k\n' "$tmp/x$esc.pem" >"$tmp/tls2.yml"
exits 1 "--web-config $tmp/tls2\\.yml: $tmp/x\\\\e\\.pem: No such file" \
	--serve "127.0.0.1:$port" --web-config "$tmp/tls2.yml" -n 1
echo "ok ESC and newline escaped in the path and the line"

# the certificate and key, checked at start
if command -v openssl >/dev/null; then
	mkcert() { # NAME
		openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 2 \
			-keyout "$tmp/$1.key" -out "$tmp/$1.crt" 2>"$tmp/ossl" || fail "openssl: $(cat "$tmp/ossl")"
	}
	mkcert a
	mkcert b
	openssl pkey -in "$tmp/a.key" -aes256 -passout pass:secret -out "$tmp/enc.key" 2>"$tmp/ossl" ||
		fail "openssl: $(cat "$tmp/ossl")"
	tls() { # WHAT CERT KEY PATTERN
		printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$tmp/$2" "$tmp/$3" >"$tmp/t.yml"
		exits 1 "--web-config $tmp/t\\.yml: $4" --serve "127.0.0.1:$port" --web-config "$tmp/t.yml" -n 1
	}
	tls "exchanged" a.key a.crt "cert_file $tmp/a\\.key: not a PEM certificate"
	tls "another's key" a.crt b.key "key_file $tmp/b\\.key is not cert_file $tmp/a\\.crt's key"
	tls "an encrypted key" a.crt enc.key "key_file $tmp/enc\\.key: the key is encrypted"
	tls "a key of text" a.crt t.yml "key_file $tmp/t\\.yml: not a PEM private key"
	echo "ok a certificate or key exchanged, another's, encrypted, or not one: named"
fi

# basic auth over plain HTTP beyond this machine: a warning
users "$tmp/ok.yml" "alice: $good"
"$MEMTOP" --serve "0.0.0.0:$port" --web-config "$tmp/ok.yml" -n 1 >/dev/null 2>"$tmp/err" ||
	fail "--serve 0.0.0.0 with users: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^memtop: --serve 0.0.0.0:$port: basic auth over plain HTTP sends the passwords in clear" "$tmp/err" ||
	fail "--serve 0.0.0.0 with users, plain HTTP: $(cat "$tmp/err")"
"$MEMTOP" --serve "127.0.0.1:$port" --web-config "$tmp/ok.yml" -n 1 >/dev/null 2>"$tmp/err" ||
	fail "--serve 127.0.0.1 with users: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "a warning on 127.0.0.1: $(cat "$tmp/err")"
echo "ok basic auth over plain HTTP: warned on 0.0.0.0, not on 127.0.0.1"
