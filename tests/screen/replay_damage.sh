#!/bin/sh
# memtop-test: anywhere
# A recording damaged in sample 5 (of 66, keyframes at 0 and 60) replayed on the screen:
# the message line says what was left out, with the offsets; the replay holds the 11
# samples left, and } steps from sample 5 to the keyframe's, past the gap.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/blocks.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

"$MEMTOP" --record "$tmp/rec" --json -n 66 -d 0.1 -p $$ >"$tmp/live.json" || fail "--record exited $?"
rec_blocks "$tmp/rec" >"$tmp/blocks"
at() { sed -n "$(($1 + 1))p" "$tmp/blocks"; }
rec_flip "$tmp/rec" $(($(at 5) + 40))

tm_start 200 30 "$MEMTOP --replay $tmp/rec"
wait_for "REPLAY 1/11" || fail "the replay does not hold the 11 samples left: $(screen_text | head -3)"
wait_for "recording: damaged block at offset $(at 5): checksum mismatch; the samples after" ||
	fail "no message of the damage: $(screen_text | tail -3)"
screen_text | grep -q "up to the keyframe at offset $(at 60)" ||
	fail "the message does not say where the replay goes on: $(screen_text | tail -3)"
key=$(jq -r '.ts | floor | strftime("%H:%M:%S")' "$tmp/live.json" | sed -n 61p)
tm send-keys '}' '}' '}' '}'
wait_for "REPLAY 5/11" || fail "} did not step to sample 5: $(screen_text | head -2)"
tm send-keys '}'
wait_for "REPLAY 6/11" || fail "} did not step past the gap: $(screen_text | head -2)"
screen_text | grep "REPLAY 6/11" | grep -q "$key" ||
	fail "sample 6 is not the keyframe's ($key): $(screen_text | grep REPLAY)"
tm send-keys q
echo "the damage said, the 11 samples left replayed, } past the gap to $key"
