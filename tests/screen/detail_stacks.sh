#!/bin/sh
# The detail screen samples stacks only while it is open: opening it attaches 3 BPF
# programs, closing it detaches them. While open, dd_grow faults PAGES pages in
# dd_touch() and calls mmap 10 times from dd_reserve(): the stacks tab names both with
# their counts (faults ~PAGES within 15 %, mmaps exactly 10), the mappings tab counts
# the faults in the anonymous mapping, Enter shows a stack whole. For a program built
# without frame pointers the stacks are whole (unwound with CFI); walking frame pointers
# (--unwind fp) the screen says that they are one frame deep.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available

PAGES=25600

# open_detail: memtop on DD_PID in tmux, Enter; sets MT (memtop's pid), BASE (its links)
open_detail() {
	tm_kill
	TMUX_SOCK="memtop-test-$$-$1"
	tm_start 150 45 "echo \$\$ >'$tmp/mt'; exec '$MEMTOP' -d 0.5 -p $DD_PID $2"
	wait_for "dd_grow" || fail "memtop did not show dd_grow"
	wait_bpf_on || fail "memtop's BPF programs never loaded" # on their own thread
	MT=$(cat "$tmp/mt")
	BASE=$(bpf_links "$MT")
	tm send-keys Enter
	wait_for "Process $DD_PID (" || fail "Enter did not open the detail screen"
	wait_links "$MT" $((BASE + STACKS_LINKS)) || fail "opening attached $(($(bpf_links "$MT") - BASE)) programs, not $STACKS_LINKS"
}

dd_start $PAGES 10
open_detail fp
echo "open: memtop holds $BASE + $STACKS_LINKS BPF links"
dd_go
sleep 1.2 # a refresh after dd_grow is done
tm send-keys 3
wait_for "dd_touch+0x" || fail "the stacks tab does not name dd_touch"
wait_for "dd_reserve+0x" || fail "the stacks tab does not name dd_reserve"
screen_text >"$tmp/screen"
faults=$(awk '$1 == "fault" && /dd_touch\+0x/ { sub(/~/, "", $2); s += $2 } END { print s + 0 }' "$tmp/screen")
mmaps=$(awk '$1 == "mmap" && /dd_reserve\+0x/ { s += $2 } END { print s + 0 }' "$tmp/screen")
[ "$faults" -ge $((PAGES * 85 / 100)) ] && [ "$faults" -le $((PAGES * 115 / 100)) ] ||
	fail "fault stacks in dd_touch count $faults, not $PAGES within 15 %:
$(cat "$tmp/screen")"
[ "$mmaps" -eq 10 ] || fail "mmap stacks through dd_reserve count $mmaps, not 10"
grep -q 'dd_touch+0x[0-9a-f]* < main+0x' "$tmp/screen" || fail "the fault stack lacks dd_touch < main"
grep -q 'stacks truncated' "$tmp/screen" && fail "stacks truncated, with frame pointers"
echo "stacks: dd_touch ~$faults faults, dd_reserve $mmaps mmaps"

# the whole stack of the first (largest) one: the fault in dd_touch
tm send-keys Home Enter
wait_for "fault stack: ~" || fail "Enter did not show the stack whole"
screen_text >"$tmp/screen"
for f in 'exc_page_fault+0x.*\[kernel\]' 'dd_touch+0x.*/dd_grow\( at .*\)*$' 'main+0x.*/dd_grow\( at .*\)*$'; do
	grep -q "$f" "$tmp/screen" || fail "the whole stack lacks $f:
$(cat "$tmp/screen")"
done
tm send-keys Escape
wait_for "STACK (innermost first" || fail "Esc did not return to the list of stacks"

# faults attributed to the mapping they hit
tm send-keys 1
wait_for "MAPPING" || fail "1 did not show the mappings"
mf=$(screen_text | awk -v a="$DD_ADDR" '$1 == a && $NF == "[anon]" { print $7 }')
[ -n "$mf" ] && [ "$mf" -ge $((PAGES * 85 / 100)) ] && [ "$mf" -le $((PAGES * 115 / 100)) ] ||
	fail "faults in the mapping at $DD_ADDR: ${mf:-none}, not $PAGES within 15 %:
$(screen_text)"
echo "mapping $DD_ADDR: $mf faults"

tm send-keys Escape
wait_for "PID USER" || fail "Esc did not close the detail screen"
wait_links "$MT" "$BASE" || fail "closing left $(($(bpf_links "$MT") - BASE)) programs attached"
echo "closed: back to $BASE BPF links"
tm send-keys Enter
wait_links "$MT" $((BASE + STACKS_LINKS)) || fail "reopening did not attach"
tm send-keys q
wait_links "$MT" "$BASE" || fail "q did not detach"
echo "reopened and closed with q: attached and detached again"
dd_stop

dd_start $PAGES 10 "$HELPERS/dd_grow_nofp"
open_detail nofp
dd_go
tm send-keys 3
wait_for 'dd_touch+0x' 10 || fail "without frame pointers, no dd_touch"
by_cfi() { screen_text >"$tmp/screen" && grep -q 'dd_touch+0x[0-9a-f]* < main+0x' "$tmp/screen"; }
eventually $HANG by_cfi || fail "without frame pointers, no dd_touch < main by CFI:
$(cat "$tmp/screen")"
grep -q 'stacks truncated' "$tmp/screen" && fail "stacks truncated, unwound with CFI"
dd_stop
dd_start $PAGES 10 "$HELPERS/dd_grow_nofp"
open_detail nofp-fp "--unwind fp"
dd_go
tm send-keys 3
wait_for "Stacks are one frame deep" || fail "no word of one-frame stacks walking frame pointers"
echo "without frame pointers: whole by CFI; by frame pointers the screen says they are one frame deep"
