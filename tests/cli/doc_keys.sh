#!/bin/sh
# Every key README.md (before its reference links) and doc/keys.md (outside its generated
# blocks) name is one of memtop's: each backquoted key (one character, ^X, F1 to F12,
# Enter, Esc...) is in the key tables, as doc/keys.md's generated blocks list them (those
# are current: docs_current.sh). In a table only the first two cells are memtop's (a third
# says what htop's key means). The manual names no key by hand: its prose writes
# @KEY(help)@, which man/mkman.c replaces with the key whose help that is, and fails on a
# help no key has.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
cd "$TESTS/.." || fail "no source tree above $TESTS"

# the keys of every generated table
awk '/<!-- generated: keys/ { on = 1 } /<!-- end generated/ { on = 0 }
	on && /^\| `/ { split($0, c, "|"); print c[2] }' doc/keys.md |
	awk -F'`' '{ for (i = 2; i <= NF; i += 2) print $i }' | sort -u >"$tmp/keys"
[ "$(wc -l <"$tmp/keys")" -ge 60 ] || fail "too few keys in doc/keys.md's generated blocks: $(tr '\n' ' ' <"$tmp/keys")"

# keys_named FILE: the backquoted keys of FILE's prose and of its tables' first two cells,
# outside code blocks, one a line as "LINE KEY"
keys_named() {
	awk '/^```/ { code = !code; next } code { next }
		/^\| *---/ { next }
		/^\|/ { split($0, c, "|"); $0 = c[2] "|" c[3] }
		{ n = split($0, f, "`"); for (i = 2; i <= n; i += 2) print NR, f[i] }' "$1" |
		awk '{ k = substr($0, index($0, " ") + 1) }
			k ~ /^[^ ]$/ || k ~ /^\^.$/ || k ~ /^F([1-9]|1[0-2])$/ ||
			k ~ /^(Enter|Esc|Tab|S-Tab|Space|Backspace|Home|End|PgUp|PgDn|Up|Down|Left|Right)$/'
}
awk '/^## The reference/ { exit } { print }' README.md >"$tmp/readme"
awk '/<!-- generated: keys/ { on = 1 } /<!-- end generated/ { on = 0; print ""; next } on { print ""; next } { print }' doc/keys.md >"$tmp/keysmd"
n=0
for f in readme keysmd; do
	keys_named "$tmp/$f" >"$tmp/$f.named"
	while read -r line key; do
		grep -qxF -- "$key" "$tmp/keys" ||
			fail "$f line $line names the key '$key', which memtop's key tables do not have"
		n=$((n + 1))
	done <"$tmp/$f.named"
done
[ "$(wc -l <"$tmp/readme.named")" -ge 8 ] || fail "README names only $(wc -l <"$tmp/readme.named") keys"
[ "$(wc -l <"$tmp/keysmd.named")" -ge 30 ] || fail "doc/keys.md names only $(wc -l <"$tmp/keysmd.named") keys"

# the manual: no key in bold by hand (a one-character \fBX\fR, or \fB^X\fR) in its prose
grep -n '\\fB[A-Za-z0-9<>?/\\^][A-Za-z0-9]\{0,0\}\\fR' man/memtop.1.in | grep -v '\\fB\\-\\fR' >"$tmp/byhand" &&
	fail "man/memtop.1.in names keys by hand, not as @KEY(help)@: $(cat "$tmp/byhand")"
grep -c '@KEY(' man/memtop.1.in >/dev/null || fail "man/memtop.1.in names no key as @KEY(help)@"
mkman=$(dirname "$MEMTOP")/mkman
case "$MEMTOP" in */asan/*) mkman=$(dirname "$MEMTOP")/../mkman ;; esac
"$mkman" man/memtop.1.in >"$tmp/page" 2>"$tmp/err" || fail "mkman: $(cat "$tmp/err")"
grep -q '@KEY(' "$tmp/page" && fail "the manual keeps a @KEY mark: $(grep '@KEY(' "$tmp/page")"
# a help no key has fails the build
printf 'x @KEY(no key has this help)@\n' >"$tmp/bad.in"
"$mkman" "$tmp/bad.in" >/dev/null 2>"$tmp/err" && fail "mkman took a @KEY no key has"
grep -q "no key has that help" "$tmp/err" || fail "mkman's message: $(cat "$tmp/err")"
echo "README and doc/keys.md name $n keys, each one of memtop's; the manual's are generated"
