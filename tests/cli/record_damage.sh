#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# Damage in the middle of a recording (66 samples, keyframes at samples 0 and 60): a
# flipped byte in sample 5 leaves out samples 5 to 59, which are encoded against it, and
# the replay goes on from the keyframe at 60, saying so on one line with both offsets; the
# samples it shows are the recording's own (their times), and it exits 1. A block header
# overwritten, or a length past the end of the file, is found past the same way; damage
# in the last keyframe leaves out the rest; zeros appended are said as zeros. --record on a damaged file goes on after its
# last sample a replay can read, saying so, and cuts off only what none can read.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/blocks.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

"$MEMTOP" --record "$tmp/rec" -b -n 66 -d 0.1 -p $$ >/dev/null || fail "--record exited $?"
rec_blocks "$tmp/rec" >"$tmp/blocks"
[ "$(wc -l <"$tmp/blocks")" = 66 ] || fail "$(wc -l <"$tmp/blocks") blocks, not 66"
"$MEMTOP" --replay "$tmp/rec" --json >"$tmp/all.json" 2>"$tmp/err" || fail "--replay exited $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "the whole file warned: $(cat "$tmp/err")"
jq -r .ts "$tmp/all.json" >"$tmp/all.ts"
at() { sed -n "$(($1 + 1))p" "$tmp/blocks"; }

# replay FILE GONE BACK PATTERN: exits 1, says PATTERN in one line, and shows the whole
# file's samples but those from GONE up to BACK (66: to the end)
replay() {
	"$MEMTOP" --replay "$1" --json >"$tmp/out.json" 2>"$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "$1: exit $rc with damage left out, not 1"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "$1: the damage not said in one line: $(cat "$tmp/err")"
	grep -q "$4" "$tmp/err" || fail "$1: '$(cat "$tmp/err")' does not say '$4'"
	jq -r .ts "$tmp/out.json" >"$tmp/out.ts"
	{ head -n "$2" "$tmp/all.ts"; sed -n "$(($3 + 1)),\$p" "$tmp/all.ts"; } >"$tmp/want.ts"
	[ "$(wc -l <"$tmp/out.ts")" = "$(wc -l <"$tmp/want.ts")" ] ||
		fail "$1: $(wc -l <"$tmp/out.ts") samples, not $(wc -l <"$tmp/want.ts")"
	cmp -s "$tmp/out.ts" "$tmp/want.ts" ||
		fail "$1: the samples shown are not the recording's: $(diff "$tmp/want.ts" "$tmp/out.ts" | head -5)"
	cat "$tmp/err"
}

# a byte of sample 5's frame: 5 samples, then 60 to 65 (6)
cp "$tmp/rec" "$tmp/frame"
rec_flip "$tmp/frame" $(($(at 5) + 40))
replay "$tmp/frame" 5 60 "damaged block at offset $(at 5): checksum mismatch; the samples after [-0-9]* [0-9:]* left out up to the keyframe at offset $(at 60) ("

# sample 20's block header gone (its magic): found again at the keyframe at 60
cp "$tmp/rec" "$tmp/header"
printf 'XXXX' | dd of="$tmp/header" bs=1 seek="$(at 20)" conv=notrunc 2>/dev/null
replay "$tmp/header" 20 60 "damaged block at offset $(at 20): no block header there; .* up to the keyframe at offset $(at 60) ("

# the keyframe at 60: the rest is left out
cp "$tmp/rec" "$tmp/key"
rec_flip "$tmp/key" $(($(at 60) + 30))
replay "$tmp/key" 60 66 "damaged block at offset $(at 60): checksum mismatch; .* left out to the end of the file (no keyframe after it)"

# sample 20's length made larger than the file (its third byte): not a cut tail, since a
# keyframe follows; replayed past; --record keeps it all, says so and appends after it
cp "$tmp/rec" "$tmp/len"
rec_flip "$tmp/len" $(($(at 20) + 6))
replay "$tmp/len" 20 60 "damaged block at offset $(at 20): its length runs past the end of the file; .* up to the keyframe at offset $(at 60) ("
size=$(stat -c %s "$tmp/len")
cp "$tmp/len" "$tmp/len.before"
"$MEMTOP" --record "$tmp/len" -n 1 -p $$ 2>"$tmp/err" || fail "--record on a file damaged within exited $?: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q "damaged at offset $(at 20) (a replay leaves it out); recording goes on at offset $size\$" "$tmp/err" ||
	fail "--record said: $(cat "$tmp/err")"
cmp -s -n "$size" "$tmp/len" "$tmp/len.before" || fail "--record changed the file before its end"
"$MEMTOP" --replay "$tmp/len" --json >"$tmp/out.json" 2>/dev/null
[ "$(wc -l <"$tmp/out.json")" = 27 ] || fail "$(wc -l <"$tmp/out.json") samples after appending, not 20 + 6 + 1"

# zeros after the last sample (a file extended, its data never written): nothing a replay
# can read, said as zeros with no sample left out (exit 0; cli/record_header_copy.sh);
# --record cuts them off, says so, and the file is whole again
cp "$tmp/rec" "$tmp/zeros"
size=$(stat -c %s "$tmp/zeros")
head -c 4096 /dev/zero >>"$tmp/zeros"
"$MEMTOP" --replay "$tmp/zeros" --json >"$tmp/out.json" 2>"$tmp/err" || fail "zeros: exit $?"
grep -q "4096 zero bytes at the end of the file from offset $size, after the last sample (no sample left out)" "$tmp/err" ||
	fail "zeros said as: $(cat "$tmp/err")"
"$MEMTOP" --record "$tmp/zeros" -n 1 -p $$ 2>"$tmp/err" || fail "--record on zeros exited $?: $(cat "$tmp/err")"
grep -q "damaged at offset $size (a replay leaves it out); recording goes on at offset $size, the unreadable bytes after it cut off" "$tmp/err" ||
	fail "--record said: $(cat "$tmp/err")"
"$MEMTOP" --replay "$tmp/zeros" --json >"$tmp/out.json" 2>"$tmp/err" || fail "the mended file replays with exit $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "the mended file still warns: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/out.json")" = 67 ] || fail "$(wc -l <"$tmp/out.json") samples after mending, not 67"
