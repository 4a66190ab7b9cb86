#!/bin/sh
# memtop-test: sanitized
# The d and u prompts refuse what the flags refuse, with the same reasons: an interval
# out of bounds keeps the old one; a uid past 32 bits is no user; what was typed comes
# back escaped.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
trap 'tm_kill' EXIT
trap 'exit 1' INT TERM HUP

tm_start 120 30 "$MEMTOP -d 0.5"
wait_for "Refresh 0.5s" || fail "memtop did not start with -d 0.5"

tm send-keys d C-u
tm send-keys -l 0.01
tm send-keys Enter
wait_for "refresh interval: seconds between 0.1 and 86400, not '0.01'" ||
	fail "d 0.01 did not say why"
screen_text | grep -q "Refresh 0.5s" || fail "d 0.01 changed the interval: $(screen_text | grep '^Tasks')"

tm send-keys u
wait_for "Show user" || fail "u opened no user prompt"
tm send-keys -l 4294967296
tm send-keys Enter
wait_for "no such user '4294967296'" || fail "u 4294967296 was taken for a uid"

# U+009B, the one-character CSI, typed into the prompt
tm send-keys u
tm send-keys -l "x$(printf '\302\233')31m"
tm send-keys Enter
wait_for "no such user 'x\\xc2\\x9b31m'" || fail "u did not escape what was typed"
