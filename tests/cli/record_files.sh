#!/bin/sh
# memtop-test: sanitized
# The files a recording goes to and comes from: a recording is created for its owner
# alone (0600); a symbolic link is not followed but refused; a second recorder of a file
# is refused while the first holds it; a write that fails says the file and why; a FIFO
# given to --replay, or among a directory's recordings, is refused, not waited on.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
rec=""
trap 'kill $rec 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

"$MEMTOP" --record "$tmp/new.rec" -n 1 -b >/dev/null 2>"$tmp/err" || fail "--record exited $?: $(cat "$tmp/err")"
[ "$(stat -c %a "$tmp/new.rec")" = 600 ] || fail "a new recording is $(stat -c %a "$tmp/new.rec"), not 600"

ln -s "$tmp/target" "$tmp/link.rec"
exits 1 "$tmp/link.rec: a symbolic link; memtop records only to a regular file" \
	--record "$tmp/link.rec" -n 1 -b
[ -e "$tmp/target" ] && fail "--record followed the symbolic link"

# a recorder holds its file: a second is refused at once, the first goes on
"$MEMTOP" --record "$tmp/held.rec" -n 100000 -d 0.2 -b >/dev/null 2>"$tmp/first" &
rec=$!
wait_file "$tmp/held.rec" 30 || fail "the first recorder wrote nothing"
exits 1 "$tmp/held.rec: another memtop is recording to it" --record "$tmp/held.rec" -n 1 -b
kill -0 $rec || fail "the first recorder ended: $(cat "$tmp/first")"
kill $rec
wait $rec 2>/dev/null
rec=""
"$MEMTOP" --record "$tmp/held.rec" -n 1 -b >/dev/null 2>"$tmp/err" ||
	fail "the file freed is still refused: $(cat "$tmp/err")"

# a write cut short by the file size limit (its signal ignored): the file and the reason
(trap '' XFSZ && ulimit -f 8 && exec "$MEMTOP" --record "$tmp/big.rec" -n 2 -b) >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "a failed write did not exit 1: $(cat "$tmp/err")"
grep -q "^memtop: $tmp/big.rec: writing a sample: File too large$" "$tmp/err" ||
	fail "a failed write says: $(cat "$tmp/err")"

mkfifo "$tmp/fifo.rec"
timeout 20 "$MEMTOP" --replay "$tmp/fifo.rec" -b >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 124 ] && fail "--replay waited on a FIFO"
exits 1 "$tmp/fifo.rec: not a regular file" --replay "$tmp/fifo.rec" -b
mkdir "$tmp/dir"
mkfifo "$tmp/dir/memtop-20240101.rec"
timeout 20 "$MEMTOP" --replay "$tmp/dir" -b >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 124 ] && fail "--replay of a directory waited on a FIFO in it"
[ $rc = 1 ] && grep -q "$tmp/dir: no recording in it could be read" "$tmp/err" ||
	fail "--replay of a directory holding a FIFO exited $rc: $(cat "$tmp/err")"
echo "0600, no symbolic link, one recorder a file, write errors said, no FIFO waited on"
