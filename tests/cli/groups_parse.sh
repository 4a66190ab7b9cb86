#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# --groups: lists and quotes not closed where the file ends. A file of the largest size
# read (1 MiB) whose last line is a flow list or a quote left open is refused in one line
# naming FILE:LINE, exit 1, and nothing is read past the file's end (the ASan pass reports
# a read past the buffer). An item quoted in a flow list is taken whole (a quote inside
# it is not a quote of its own: ['"x'] is the name "x with its quote), and an empty flow
# list is an empty list.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# big LAST: a file of exactly 1,048,576 bytes, process_names: and comment lines, LAST
# its last line without a newline; its line number in $lines
big() {
	size=1048576
	head=$(printf 'process_names:\n' | wc -c)
	pad=$((size - head - ${#1}))
	{
		printf 'process_names:\n'
		# comment lines of 1,000 bytes (999 and the newline), then one of the rest
		awk -v n="$pad" 'BEGIN {
			line = "#"; while (length(line) < 999) line = line "x"
			for (; n > 1000; n -= 1000) print line
			rest = "#"; while (length(rest) < n - 1) rest = rest "x"
			print rest }'
		printf '%s' "$1"
	} >"$tmp/big.yaml"
	[ "$(wc -c <"$tmp/big.yaml")" = $size ] || fail "big.yaml is $(wc -c <"$tmp/big.yaml") bytes"
	lines=$(($(wc -l <"$tmp/big.yaml") + 1))
}

# refused FILE LINE WHY: refused in one line naming FILE:LINE and WHY, exit 1
refused() {
	"$MEMTOP" --json -n 1 --groups "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "exit status $rc, not 1, for $(tail -c 40 "$1"): $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
	grep -qF "memtop: --groups $1:$2: $3" "$tmp/err" || fail "not '$1:$2: $3': $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && fail "output despite a bad file"
	sed 's/^\(.\{120\}\).*/\1.../' "$tmp/err"
}

for last in '  - comm: [a' "  - comm: ['a'" '  - comm: [a, b' "  - comm: [a, 'b' " '  - comm: [a,'; do
	big "$last"
	refused "$tmp/big.yaml" $lines "comm: a list not closed by ']'"
done
for last in '  - comm: ["a' "  - comm: [a, 'b" '  - name: "x' '  - comm:' '    - "a'; do
	big "$last"
	case $last in
	*name*) why="name: a quote not closed" ;;
	'  - comm:') why="a rule with no matcher" ;;
	'    - "a') why="'\"a': a list item after no list key" ;;
	*) why="comm: a quote not closed" ;;
	esac
	refused "$tmp/big.yaml" $lines "$why"
done
# one byte more than the bound
big '  - comm: [a]'
printf '\n' >>"$tmp/big.yaml"
"$MEMTOP" --json -n 1 --groups "$tmp/big.yaml" >/dev/null 2>"$tmp/err" && fail "a file of 1 MiB + 1 byte read"
grep -q "^memtop: --groups $tmp/big.yaml: " "$tmp/err" || fail "no reason for a file too big: $(cat "$tmp/err")"
cat "$tmp/err"

# a quoted item is taken whole: the group of comm "x (a quote in the name) has no process,
# the one of the empty list and a cmdline names memtop's own
cp "$MEMTOP" "$tmp/gpq\"x"
printf '%s\n' 'process_names:' "  - comm: ['gpq\"x']" '    name: quoted' \
	'  - comm: [ ]' "    cmdline: ['^$tmp/gpq\"x ']" '    name: byline' >"$tmp/q.yaml"
"$tmp/gpq\"x" --json -n 1 --groups "$tmp/q.yaml" >"$tmp/j" 2>"$tmp/err" ||
	fail "a quote within a quoted item: exit $?: $(cat "$tmp/err")"
command -v jq >/dev/null || exit 0
jq -c '.groups[] | {groupname, count}' "$tmp/j"
[ "$(jq '.groups[] | select(.groupname == "quoted") | .count' "$tmp/j")" = 1 ] ||
	fail "no group 'quoted' of memtop itself, run as gpq\"x"
exit 0
