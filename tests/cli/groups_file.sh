#!/bin/sh
# --groups FILE that is not a regular file of 1 MiB at most: a FIFO (which no one
# writes: opened, it would wait for a writer for ever), a directory, a device, a file of
# 1 MiB and a byte, are refused at once in one line, exit 1.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# refused FILE WHY: memtop exits 1 with the one line "memtop: --groups FILE: WHY"
refused() {
	"$MEMTOP" --json -n 1 --groups "$1" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	# a FIFO held memtop for ever: its exit is waited for, not timed
	eventually $HANG exited $pid || fail "--groups $1: still running, waiting on it"
	wait $pid
	rc=$?
	pid=
	[ $rc = 1 ] || fail "--groups $1: exit $rc, not 1: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "--groups $1: not one line: $(cat "$tmp/err")"
	[ "$(cat "$tmp/err")" = "memtop: --groups $1: $2" ] ||
		fail "--groups $1: '$(cat "$tmp/err")', not '$2'"
	[ -s "$tmp/out" ] && fail "--groups $1: output despite the refusal"
	cat "$tmp/err"
}
exited() { ! kill -0 "$1" 2>/dev/null || [ "$(ps -o stat= -p "$1")" = Z ]; }

mkfifo "$tmp/fifo"
refused "$tmp/fifo" "not a regular file"
refused "$tmp" "Is a directory"
refused /dev/null "not a regular file"
refused "$tmp/none" "No such file or directory"
# 1 MiB and one byte: a rule and comments
{
	printf 'process_names:\n  - comm: [a]\n'
	awk 'BEGIN { line = "#"; while (length(line) < 1023) line = line "x"
		for (i = 0; i < 1024; i++) print line }'
} | head -c 1048577 >"$tmp/big.yaml"
refused "$tmp/big.yaml" "longer than 1 MiB"
# 1 MiB exactly is read
head -c 1048576 "$tmp/big.yaml" >"$tmp/max.yaml"
"$MEMTOP" --json -n 1 --groups "$tmp/max.yaml" >/dev/null 2>"$tmp/err" ||
	fail "a file of 1 MiB refused: $(cat "$tmp/err")"
exit 0
