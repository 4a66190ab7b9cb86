#!/bin/sh
# memtop-test: beside others
# memtop --stacks PID: dd_grow faults PAGES pages in dd_touch() and calls mmap MMAPS
# times from dd_reserve(). The text and the JSON name both functions; the fault count
# (sampled 1 in 64) is within 15 % of PAGES, the mmap count and bytes exact; the faults
# seen in all are PAGES; the anonymous mapping has PAGES pages of RSS and the faults
# attributed to it; the breakdown matches /proc/PID/smaps_rollup; a mapped file named
# with control characters and quotes comes out intact in the JSON; none of its stacks is
# truncated. A program built without frame pointers: unwound with its CFI (the default)
# its stacks are whole (dd_touch, main), by method dwarf; walking frame pointers
# (--unwind fp) they are one frame deep, and the output says so.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available

PAGES=25600 MMAPS=100
page_kb=$(($(getconf PAGESIZE) / 1024))


# --- JSON ---
evil=$(printf '%s/evil\033[2J\001"\\name' "$tmp")
head -c 4096 /dev/zero >"$evil"
dd_start $PAGES $MMAPS "" "$evil"
dd_sample --json
jq -e . "$tmp/out" >/dev/null || fail "not JSON: $(head -c 300 "$tmp/out")"
jq -e --arg p "$evil" 'any(.files[]; .path == $p)' "$tmp/out" >/dev/null ||
	fail "the mapped file with control characters in its name is not in .files"
j() { jq -r "$1" "$tmp/out"; }
[ "$(j .pid)" = "$DD_PID" ] || fail "pid $(j .pid), not $DD_PID"
[ "$(j .comm)" = dd_grow ] || fail "comm $(j .comm)"
[ "$(j .sample_rate)" = 64 ] || fail "sample rate $(j .sample_rate)"
[ "$(j .one_frame)" = false ] || fail "one_frame with frame pointers"
[ "$(j '[.stacks[] | select(any(.frames[]; .symbol == "dd_touch" or .symbol == "dd_reserve")) | .truncated] | length > 0 and all(. == false)')" = true ] ||
	fail "stacks with frame pointers truncated: $(j '[.stacks[] | select(.truncated) | [.frames[] | .symbol]][0:3]')"
faults=$(j .faults)
[ "$faults" -ge $PAGES ] && [ "$faults" -le $((PAGES + 16)) ] ||
	fail "$faults faults seen, dd_grow made $PAGES"
touch_count=$(j '[.stacks[] | select(.kind == "fault" and any(.frames[]; .symbol == "dd_touch")) | .count] | add // 0')
touch_samples=$(j '[.stacks[] | select(.kind == "fault" and any(.frames[]; .symbol == "dd_touch")) | .samples] | add // 0')
[ "$touch_count" -ge $((PAGES * 85 / 100)) ] && [ "$touch_count" -le $((PAGES * 115 / 100)) ] ||
	fail "fault stacks in dd_touch count $touch_count ($touch_samples samples), not $PAGES within 15 %"
[ "$touch_count" -eq $((touch_samples * 64)) ] || fail "count $touch_count is not samples x 64"
# the faulting function, then its caller, from the test program
first=$(j '[.stacks[] | select(.kind == "fault" and any(.frames[]; .symbol == "dd_touch"))][0].frames | map(select(.kernel | not)) | .[0:2] | map(.symbol) | join(",")')
[ "$first" = "dd_touch,main" ] || fail "fault stack starts $first, not dd_touch,main"
j '[.stacks[] | select(.kind == "fault")][0].frames[] | select(.symbol == "dd_touch") | .module' |
	grep -q '/dd_grow$' || fail "dd_touch's module is not dd_grow"
mmap_count=$(j '[.stacks[] | select(.kind == "mmap" and any(.frames[]; .symbol == "dd_reserve")) | .count] | add // 0')
mmap_bytes=$(j '[.stacks[] | select(.kind == "mmap" and any(.frames[]; .symbol == "dd_reserve")) | .bytes] | add // 0')
[ "$mmap_count" -eq $MMAPS ] || fail "mmap stacks through dd_reserve count $mmap_count, not $MMAPS"
want_bytes=$(((PAGES + MMAPS - 1) * page_kb * 1024))
[ "$mmap_bytes" -eq "$want_bytes" ] || fail "mmap bytes $mmap_bytes, not $want_bytes"
[ "$(j '[.stacks[] | select(.kind == "mmap")][0].frames | map(select((.kernel | not) and (.inlined | not))) | .[1].symbol')" = dd_reserve ] ||
	fail "the mmap stack does not have dd_reserve right after the libc wrapper"
echo "JSON: $faults faults, dd_touch ~$touch_count ($touch_samples samples), dd_reserve $mmap_count mmaps, $mmap_bytes bytes"

# the mapping dd_grow faulted, with its RSS and the faults attributed to it
m=$(j ".mappings[] | select(.start == \"0x$DD_ADDR\")")
[ -n "$m" ] || fail "no mapping at 0x$DD_ADDR: $(j '.mappings[0:3]')"
[ "$(printf '%s\n' "$m" | jq -r .path)" = "[anon]" ] || fail "mapping at 0x$DD_ADDR is $(printf '%s\n' "$m" | jq -r .path)"
[ "$(printf '%s\n' "$m" | jq .rss_kb)" -eq $((PAGES * page_kb)) ] || fail "anon mapping RSS $(printf '%s\n' "$m" | jq .rss_kb) kB"
mf=$(printf '%s\n' "$m" | jq .faults)
[ "$mf" -ge $((PAGES * 85 / 100)) ] && [ "$mf" -le $((PAGES * 115 / 100)) ] ||
	fail "faults in the anonymous mapping: $mf, not $PAGES within 15 %"
[ "$(j '.files[] | select(.path == "[anon]") | .faults')" -ge "$mf" ] || fail "[anon] file faults below its mapping's"
echo "mapping 0x$DD_ADDR: $(printf '%s\n' "$m" | jq -c '{rss_kb, faults}')"

# breakdown against the kernel's rollup, read now (dd_grow is idle)
roll() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$DD_PID/smaps_rollup"; }
for f in Rss:rss_kb Anonymous:anonymous_kb Swap:swap_kb SwapPss:swap_pss_kb Locked:locked_kb \
	AnonHugePages:anon_huge_kb; do
	k=${f%%:*} field=${f#*:}
	[ "$(roll "$k")" = "$(j ".breakdown.$field")" ] ||
		fail "breakdown $field $(j ".breakdown.$field"), smaps_rollup $k $(roll "$k")"
done
# Pss, Private_Clean, Shared_Clean move when memtop's own mappings of libc come and go, and
# Private_Dirty when a process that shared dirty pages with dd_grow (its parent shell, for
# the pages of the fork) exits between the two reads
d=$(($(j .breakdown.private_dirty_kb) - $(roll Private_Dirty)))
[ ${d#-} -le 512 ] || fail "Private_Dirty $(j .breakdown.private_dirty_kb), smaps_rollup $(roll Private_Dirty)"
uss=$(($(roll Private_Clean) + $(roll Private_Dirty)))
d=$(($(j .breakdown.uss_kb) - uss))
[ ${d#-} -le 512 ] || fail "USS $(j .breakdown.uss_kb), smaps_rollup $uss"
d=$(($(j .breakdown.pss_kb) - $(roll Pss)))
[ ${d#-} -le 512 ] || fail "PSS $(j .breakdown.pss_kb), smaps_rollup $(roll Pss)"
[ "$(j .breakdown.oom_score_adj)" = "$(cat /proc/$DD_PID/oom_score_adj)" ] || fail "oom_score_adj"
echo "breakdown matches smaps_rollup: $(jq -c '.breakdown | {rss_kb, pss_kb, uss_kb, anonymous_kb}' "$tmp/out")"
dd_stop

# --- text ---
dd_start 4096 10
dd_sample
grep -q "^pid $DD_PID (dd_grow): " "$tmp/out" || fail "text header: $(head -1 "$tmp/out")"
grep -Eq '^ +dd_touch\+0x[0-9a-f]+ +dd_grow\+0x[0-9a-f]+ +/.*dd_grow( at .*dd_grow\.c:[0-9]+)?$' "$tmp/out" || fail "text lacks dd_touch: $(cat "$tmp/out")"
grep -Eq '^ +dd_reserve\+0x[0-9a-f]+ ' "$tmp/out" || fail "text lacks dd_reserve"
grep -Eq '^mmap: 90.0 %, 9 calls, 36K$' "$tmp/out" || fail "text lacks 'mmap: 90.0 %, 9 calls, 36K': $(grep ^mmap "$tmp/out")"
grep -q 'one frame deep' "$tmp/out" && fail "text says one frame deep for a program with frame pointers"
echo "text names dd_touch and dd_reserve"
dd_stop

# --- without frame pointers ---
dd_start $PAGES 10 "$HELPERS/dd_grow_nofp"
dd_sample --json
first=$(j '[.stacks[] | select(.kind == "fault")][0] | [(.frames | map(select(.kernel | not)) | .[0:2] | map(.symbol) | join(",")), .method, .truncated] | join(" ")')
[ "$first" = "dd_touch,main dwarf false" ] || fail "without frame pointers, unwound with CFI: $first"
[ "$(j .one_frame)" = false ] && [ "$(j .truncated_stacks)" = 0 ] || fail "one_frame or truncated stacks with CFI"
dd_stop
dd_start $PAGES 10 "$HELPERS/dd_grow_nofp"
dd_sample --json --unwind fp
[ "$(j .one_frame)" = true ] || fail "no one_frame for a program without frame pointers: $(jq -c '[.stacks[0].frames[].symbol]' "$tmp/out")"
dd_stop
dd_start 4096 10 "$HELPERS/dd_grow_nofp"
dd_sample --unwind fp
grep -q 'one frame deep' "$tmp/out" || fail "text does not say stacks are one frame deep"
dd_stop
echo "without frame pointers: whole stacks by CFI; by frame pointers one_frame, and the text says so"
