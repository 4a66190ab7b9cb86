#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# Output that cannot be written is said: --json, -b, --openmetrics, a replay printed,
# --help and --version to /dev/full or to a closed stdout exit 1 with one line naming
# "standard output" and the reason; as root, --json to a full filesystem does the same and
# --record names its file and "No space left on device".
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'mountpoint -q "$tmp/full" && umount "$tmp/full"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

"$MEMTOP" --record "$tmp/rec" -b -n 3 -d 0.1 -p $$ >/dev/null || fail "--record exited $?"

# said ARGS -- REASON: memtop ARGS (with its stdout redirected by the caller) exited 1 with
# one line "memtop: standard output: REASON"
said() {
	rc=$1 want=$2
	shift 2
	echo "$* ($want): exit $rc: $(cat "$tmp/err")"
	[ "$rc" = 1 ] || fail "memtop $* ($want) exited $rc, not 1"
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^memtop: standard output: $want\$" "$tmp/err" ||
		fail "memtop $* did not say in one line that standard output failed ($want): $(cat "$tmp/err")"
}
for args in "--json -n 2 -d 0.1" "-b -n 2 -d 0.1" "--openmetrics" "--replay $tmp/rec -b" \
	"--replay $tmp/rec --json" "--help" "--version"; do
	# shellcheck disable=SC2086 # the arguments are words
	"$MEMTOP" $args >/dev/full 2>"$tmp/err"
	said $? "No space left on device" $args
	# shellcheck disable=SC2086
	"$MEMTOP" $args >&- 2>"$tmp/err"
	said $? "Bad file descriptor" $args
done

# a full filesystem: a tmpfs of one page (root alone may mount it)
[ "$(id -u)" = 0 ] || skip "a full filesystem needs root to mount a small tmpfs"
mkdir "$tmp/full"
mount -t tmpfs -o size=4k tmpfs "$tmp/full" 2>/dev/null || skip "cannot mount a tmpfs"
"$MEMTOP" --json -n 3 -d 0.1 >"$tmp/full/out" 2>"$tmp/err"
said $? "No space left on device" --json to a full filesystem
rm -f "$tmp/full/out"
"$MEMTOP" --record "$tmp/full/rec" -n 3 -d 0.1 >/dev/null 2>"$tmp/err"
rc=$?
echo "--record to a full filesystem: exit $rc: $(cat "$tmp/err")"
[ $rc = 1 ] || fail "--record to a full filesystem exited $rc"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^memtop: $tmp/full/rec: writing a sample: No space left on device\$" "$tmp/err" ||
	fail "--record to a full filesystem did not name its file and the reason: $(cat "$tmp/err")"
