#!/bin/sh
# memtop-test: anywhere
# The header of a recording is kept twice, at the start and in every keyframe: a flipped
# byte anywhere in the header at the start (magic, version, length, field list, checksum)
# replays every sample as the whole file does, saying in one line that the header was
# read from its copy, exit 0. Zeros or other bytes appended after the last sample are
# said as what they are, with no sample left out, and every sample replays.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/blocks.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

"$MEMTOP" --record "$tmp/rec" -b -n 66 -d 0.1 -p $$ >/dev/null || fail "--record exited $?"
"$MEMTOP" --replay "$tmp/rec" --json >"$tmp/all.json" 2>"$tmp/err" || fail "--replay exited $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "the whole file warned: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/all.json")" = 66 ] || fail "$(wc -l <"$tmp/all.json") samples, not 66"
hlen=$((20 + $(rec_u32 "$tmp/rec" 12)))
rec_blocks "$tmp/rec" >"$tmp/blocks"
key0=$(sed -n 1p "$tmp/blocks")
[ "$key0" = "$hlen" ] || fail "the first block at $key0, not after the $hlen-byte header"

# same FILE: replays all 66 samples, equal to the whole file's, with exit 0 and PATTERN
# in one line of warning
same() {
	"$MEMTOP" --replay "$1" --json >"$tmp/out.json" 2>"$tmp/err"
	rc=$?
	[ $rc = 0 ] || fail "$1: exit $rc: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "$1: not one line: $(cat "$tmp/err")"
	grep -q "$2" "$tmp/err" || fail "$1: '$(cat "$tmp/err")' does not say '$2'"
	cmp -s "$tmp/out.json" "$tmp/all.json" ||
		fail "$1: the replay differs from the whole file's: $(diff "$tmp/all.json" "$tmp/out.json" | head -3 | cut -c1-200)"
}

# a byte flipped at each of these places of the header: magic, version, length, the
# field list (start, middle, end), the checksum
for o in 0 3 8 12 13 16 $((hlen / 2)) $((hlen - 5)) $((hlen - 1)); do
	cp "$tmp/rec" "$tmp/flip$o"
	rec_flip "$tmp/flip$o" $o
	same "$tmp/flip$o" "read from its copy in the keyframe at offset $key0 (no sample left out)"
done
echo "ok a flipped byte at 9 places of the $hlen-byte header: all 66 samples: $(cat "$tmp/err")"

# the header's first 64 bytes all zero
cp "$tmp/rec" "$tmp/zhead"
head -c 64 /dev/zero | dd of="$tmp/zhead" bs=1 conv=notrunc 2>/dev/null
same "$tmp/zhead" "read from its copy"
echo "ok its first 64 bytes zeroed"

# zeros after the last sample
size=$(stat -c %s "$tmp/rec")
cp "$tmp/rec" "$tmp/zeros"
head -c 4096 /dev/zero >>"$tmp/zeros"
same "$tmp/zeros" "4096 zero bytes at the end of the file from offset $size, after the last sample (no sample left out)"
grep -q "left out to\|left out up" "$tmp/err" && fail "zeros said as samples left out: $(cat "$tmp/err")"
echo "ok $(cat "$tmp/err")"

# other bytes after the last sample (text, no block in it)
cp "$tmp/rec" "$tmp/junk"
yes 'not a sample' | head -c 3000 >>"$tmp/junk"
same "$tmp/junk" "3000 bytes that are not a sample at the end of the file from offset $size, after the last sample (no sample left out)"
echo "ok $(cat "$tmp/err")"

# a damaged header and zeros after: both said, everything replays
cp "$tmp/flip16" "$tmp/both"
head -c 100 /dev/zero >>"$tmp/both"
"$MEMTOP" --replay "$tmp/both" --json >"$tmp/out.json" 2>"$tmp/err" || fail "both: exit $?"
[ "$(wc -l <"$tmp/err")" = 2 ] || fail "both: $(cat "$tmp/err")"
cmp -s "$tmp/out.json" "$tmp/all.json" || fail "both: the replay differs"

# a file that is not a recording at all is still refused
yes 'not a recording' | head -c 5000 >"$tmp/text"
"$MEMTOP" --replay "$tmp/text" --json >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "not a memtop recording" "$tmp/err" || fail "text: exit $rc: $(cat "$tmp/err")"
echo "ok a text file: $(cat "$tmp/err")"
