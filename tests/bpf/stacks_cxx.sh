#!/bin/sh
# memtop-test: beside others
# A C++ program's stacks name its functions demangled, as a C++ programmer wrote them:
# cxx_grow faults its pages in memtop_test::Grower::touch(char*, unsigned long) and maps
# them in memtop_test::Grower::reserve(unsigned long), both in JSON and in the text.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available

touch_fn='memtop_test::Grower::touch(char*, unsigned long)'
reserve_fn='memtop_test::Grower::reserve(unsigned long)'
for format in json text; do
	dd_start 2560 10 "$HELPERS/cxx_grow"
	"$MEMTOP" --stacks "$DD_PID" -d 2 $([ $format = json ] && echo --json) >"$tmp/$format" 2>"$tmp/err" &
	mt=$!
	wait_links $mt $STACKS_LINKS || fail "memtop --stacks did not attach its $STACKS_LINKS programs: $(cat "$tmp/err")"
	dd_go
	wait $mt || fail "memtop --stacks exited $?: $(cat "$tmp/err")"
	dd_stop
done

jq -e --arg f "$touch_fn" 'any(.stacks[]; .kind == "fault" and any(.frames[]; .symbol == $f))' \
	"$tmp/json" >/dev/null || fail "no fault stack names $touch_fn: $(jq -c '[.stacks[].frames[].symbol] | unique' "$tmp/json")"
jq -e --arg f "$reserve_fn" '[.stacks[] | select(.kind == "mmap" and any(.frames[]; .symbol == $f)) | .count] | add == 10' \
	"$tmp/json" >/dev/null || fail "the mmap stacks through $reserve_fn do not count 10 calls"
jq -e 'all(.stacks[].frames[]; .symbol | startswith("_Z") | not)' "$tmp/json" >/dev/null ||
	fail "mangled names left: $(jq -c '[.stacks[].frames[].symbol | select(startswith("_Z"))]' "$tmp/json")"
grep -qF "$touch_fn+0x" "$tmp/text" || fail "the text does not name $touch_fn: $(cat "$tmp/text")"
grep -qF "$reserve_fn+0x" "$tmp/text" || fail "the text does not name $reserve_fn"
echo "named: $touch_fn, $reserve_fn"
