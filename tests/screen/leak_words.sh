#!/bin/sh
# memtop-test: anywhere
# A leak suspect said in words: scenario leak10 (9001 leaky grows 64 KiB/s for 12 minutes,
# tests/helpers/scenario_rec.c) replayed on the screen. At its first sample, where JSON
# has no leak_suspect, no "Leak suspect" anywhere; at its last, where JSON's
# leak_suspect is true for 9001 alone, the status line says "Leak suspect 9001 leaky",
# and the process's detail screen (Enter) says "Leak suspect:" with why.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

scenario leak10
n=$(wc -l <"$tmp/leak10.json")
suspects() { sed -n "$1p" "$tmp/leak10.json" | jq -r '[.processes[] | select(.leak_suspect) | .pid] | join(" ")'; }
[ -z "$(suspects 1)" ] || fail "JSON has leak suspects at the first sample: $(suspects 1)"
[ "$(suspects "$n")" = 9001 ] || fail "JSON's leak suspects at the last sample are '$(suspects "$n")', not 9001"

replay_start 120 30 leak10
wait_for "leaky" || fail "no row of leaky"
screen_text | grep -qi "leak suspect" && fail "at the first sample the screen says: $(screen_text | grep -i 'leak suspect')"
tm send-keys '$'
wait_for "REPLAY $n/$n" || fail "\$ did not go to the last sample"
wait_for "Leak suspect 9001 leaky" || fail "the status line does not name the leak suspect: $(screen_text | grep '^Tasks')"
status=$(screen_text | grep '^Tasks')
tm send-keys / -l leaky
tm send-keys Enter Escape
tm send-keys Enter
wait_for "Process 9001 (leaky)" || fail "Enter did not open the detail of 9001"
wait_for "Leak suspect: " || fail "the detail screen does not say it is a leak suspect: $(screen_text | head -8)"
echo "status: $(echo "$status" | tr -s ' ')"
echo "detail: $(screen_text | grep 'Leak suspect: ')"
