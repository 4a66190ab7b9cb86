#!/bin/sh
# memtop-test: sanitized
# A path or a file name holding terminal escapes and a newline reaches stderr escaped, in
# one line: --replay of a file that is missing, damaged or with no samples in --begin to
# --end, of a directory with none or with one that is not a recording among them,
# --record and --record-dir to a path that cannot be written.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

esc=$(printf '\033')
nl='
'
evil="x${esc}[2J${esc}]0;owned$(printf '\007')${nl}memtop: y"

# said CODE ARGS...: memtop -b ARGS exits CODE, and says one line, escaped, naming the
# hostile name as \e...\n
said() {
	want=$1
	shift
	"$MEMTOP" -b "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq "$want" ] || fail "exited $rc, not $want: $(cat -v "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "stderr is not one line: $(cat -v "$tmp/err")"
	tr -d '\n' <"$tmp/err" | LC_ALL=C grep -q '[[:cntrl:]]' &&
		fail "stderr holds a control character: $(cat -v "$tmp/err")"
	grep -qF 'x\e[2J\e]0;owned\x07\nmemtop: y' "$tmp/err" ||
		fail "stderr does not name the file escaped: $(cat -v "$tmp/err")"
	printf "exit %s: %s\n" $rc "$(cat "$tmp/err")"
}

"$MEMTOP" --record "$tmp/rec" -n 1 -b >/dev/null 2>"$tmp/err" ||
	fail "--record exited $?: $(cat "$tmp/err")"

said 1 --replay "$tmp/$evil"
cp "$tmp/rec" "$tmp/$evil"
printf 'trailing bytes' >>"$tmp/$evil"
said 0 --replay "$tmp/$evil"
said 1 --replay "$tmp/$evil" --begin "1999-01-01 00:00" --end "1999-01-01 00:01"

mkdir "$tmp/d$evil"
said 1 --replay "$tmp/d$evil"
mkdir "$tmp/dir"
cp "$tmp/rec" "$tmp/dir/memtop-20260101.rec"
printf 'not a recording\n' >"$tmp/dir/memtop-$evil.rec"
said 0 --replay "$tmp/dir"

said 1 --record "$tmp/d$evil/none/r.rec" -n 1
said 1 --record-dir "$tmp/none$evil" -n 1
