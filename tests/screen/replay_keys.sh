#!/bin/sh
# memtop-test: sanitized
# A replay's keys: its key bar names them ({ } ^ $ J N P Z), $ goes to the last sample and
# ^ to the first, each with the header's clock at that sample's time as the recording's
# JSON has it; } from the first goes to the second.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

n=12
"$MEMTOP" --record "$tmp/rec" --json -n $n -d 0.2 -p $$ >"$tmp/live.json" || fail "--record exited $?"
# each sample's clock (HH:MM:SS) from the JSON the recording run printed
clocks=$(sed -n 's/^{"ts":\([0-9]*\).*/\1/p' "$tmp/live.json" | while read -r t; do date -d "@$t" +%H:%M:%S; done)
[ "$(printf '%s\n' "$clocks" | grep -c .)" = $n ] || fail "no time of each of the $n samples in the JSON"
first=$(printf '%s\n' "$clocks" | head -n 1) last=$(printf '%s\n' "$clocks" | tail -n 1)

tm_start 200 30 "$MEMTOP --replay $tmp/rec"
wait_for "REPLAY 1/$n" || fail "the replay did not start at its first sample: $(screen_text | head -6)"
bar=$(screen_text | tail -n 1)
for k in "{Back" "}Fwd" "^First" "\$Last" "JJump" "NNextOOM" "PPrevOOM" "ZPlay" "F1Help" "F10Quit"; do
	case $bar in *"$k"*) ;; *) fail "the replay's key bar lacks $k: $bar" ;; esac
done
tm send-keys '$'
wait_for "REPLAY $n/$n" || fail "\$ did not go to the last sample: $(screen_text | grep REPLAY)"
screen_text | grep REPLAY | grep -q "$last\$" || fail "the last sample's clock is not $last: $(screen_text | grep REPLAY)"
tm send-keys '^'
wait_for "REPLAY 1/$n" || fail "^ did not go to the first sample: $(screen_text | grep REPLAY)"
screen_text | grep REPLAY | grep -q "$first\$" || fail "the first sample's clock is not $first: $(screen_text | grep REPLAY)"
tm send-keys '}'
wait_for "REPLAY 2/$n" || fail "} did not go to the second sample"
echo "replay: key bar '$bar'; \$ to $n/$n at $last, ^ to 1/$n at $first, } to 2/$n"
