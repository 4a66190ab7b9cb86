#!/bin/sh
# memtop-test: beside others
# memtop --stacks PID when PID exits while it is sampled: memtop stops at once (not at
# the end of -d 90: within 30 s, however busy the machine), exits 1 with one line saying so, and still prints what it sampled,
# symbolized (dd_touch), as valid JSON or text.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available

for mode in --json -b; do
	dd_start 4096 10
	pid=$DD_PID
	"$MEMTOP" --stacks "$pid" -d 90 $mode >"$tmp/out" 2>"$tmp/err" &
	mt=$!
	wait_links $mt $STACKS_LINKS || fail "memtop --stacks did not attach: $(cat "$tmp/err")"
	dd_go
	start=$(date +%s)
	dd_stop
	wait $mt
	rc=$?
	secs=$(($(date +%s) - start))
	[ $rc -eq 1 ] || fail "memtop $mode exited $rc when the process exited, not 1"
	[ $secs -lt 30 ] || fail "memtop $mode took ${secs}s to notice the exit"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^memtop: process $pid exited after" "$tmp/err" ||
		fail "stderr: $(cat "$tmp/err")"
	if [ $mode = --json ]; then
		jq -e . "$tmp/out" >/dev/null || fail "not JSON: $(head -c 300 "$tmp/out")"
		[ "$(jq .exited "$tmp/out")" = true ] || fail "exited is not true"
		jq -e '[.stacks[] | select(any(.frames[]; .symbol == "dd_touch"))] | length > 0' \
			"$tmp/out" >/dev/null || fail "the stacks sampled before the exit are gone"
	else
		grep -Eq '^ +dd_touch\+0x' "$tmp/out" || fail "text lacks dd_touch: $(cat "$tmp/out")"
	fi
	echo "$mode: exit 1 in ${secs}s, $(cat "$tmp/err")"
done
