#!/bin/sh
# memtop-test: beside others
# Stacks never show junk. junk_grow, built without frame pointers and without unwind
# tables (no CFI for its own functions), points %rbp at words on its stack that are not
# addresses (0x3676496173783957 ^ n, different in each of 100 runs, then 0x3d) when it
# faults in junk_touch() and when it calls mmap, so that a frame-pointer walk reads them
# as frames. In memtop --stacks --json, unwinding with CFI (the default) and walking
# frame pointers (--unwind fp): every user frame has a module and lies in an executable
# mapping of the process (its /proc/PID/maps, read here), every kernel frame is in the
# kernel; no frame is a planted word; the stacks cut short say truncated, and why (CFI:
# no_cfi, the walk reached code without CFI; fp: not_executable); no two stacks of one
# kind have the same frames, so the faults in junk_touch are one stack of ~PAGES and the
# mmaps one (with user frames); with fp one_frame is true (the stacks are one frame deep
# once the junk is cut). The text and the detail screen show no junk either and say
# which stacks were truncated and how many.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
[ "$(uname -m)" = x86_64 ] || skip "junk_grow plants its junk on x86_64 only"

PAGES=25600 MMAPS=100
JUNK=junk_grow
page_kb=$(($(getconf PAGESIZE) / 1024))


# planted FILE: the planted words FILE shows as addresses, one a line (none: empty); 0x3d
# also zero-padded as the whole stack shows addresses, not as an offset (+0x3d)
planted() {
	grep -Eo '0x36764961737839[0-9a-f]{2}|(^|[^+[:alnum:]])0x(0{14})?3d\b' "$1" |
		sed 's/^[^0]*//' | sort -u
}

# --- JSON ---
# json_check MODE REASON: the checks above with --unwind MODE
json_check() {
dd_start $PAGES $MMAPS "$HELPERS/$JUNK"
dd_sample --json --unwind "$1"
jq -e . "$tmp/out" >/dev/null || fail "not JSON: $(head -c 300 "$tmp/out")"
j() { jq -r "$1" "$tmp/out"; }
# the executable mappings, while the process still has them
awk '$2 ~ /x/ { split($1, r, "-"); print r[1], r[2] }' "/proc/$DD_PID/maps" >"$tmp/exec"
[ -s "$tmp/exec" ] || fail "no executable mappings in /proc/$DD_PID/maps"

p=$(j '[.stacks[].frames[].address]' | planted /dev/stdin)
[ -z "$p" ] || fail "frames are planted words: $(echo $p)"
j '.stacks[].frames[] | select(.kernel) | "\(.address) \(.module)"' | sort -u |
	while read -r addr module; do
		case "$addr $module" in
		0xffff*" ["*"]") ;;
		*) fail "kernel frame $addr ($module) is not in the kernel" ;;
		esac
	done || exit 1
j '.stacks[].frames[] | select(.kernel | not) | "\(.address) \(.module)"' | sort -u >"$tmp/frames"
[ -s "$tmp/frames" ] || fail "no user frames: $(head -c 300 "$tmp/out")"
while read -r addr module; do
	[ -n "$module" ] || fail "frame $addr has no module"
	a=$((addr)) in=0
	while read -r s e; do
		[ $a -ge $((0x$s)) ] && [ $a -lt $((0x$e)) ] && in=1 && break
	done <"$tmp/exec"
	[ $in = 1 ] || fail "frame $addr ($module) lies in no executable mapping of $DD_PID"
done <"$tmp/frames"
echo "$(wc -l <"$tmp/frames") user frames, all in executable mappings, none planted"

[ "$(j '[.stacks[] | [.kind, (.frames | map(.address))]] | length == (unique | length)')" = true ] ||
	fail "stacks of one kind with the same frames: $(j '[.stacks[] | [.kind, (.frames | map(.symbol))]] | group_by(.) | map(select(length > 1))[0:3]')"
# the stacks through the functions that ran with junk in %rbp were all cut
[ "$(j '[.stacks[] | select(any(.frames[]; .symbol == "junk_touch" or .symbol == "junk_map")) | .truncated] | length > 0 and all')" = true ] ||
	fail "stacks through junk_touch or junk_map not truncated: $(j '[.stacks[] | {kind, truncated, frames: [.frames[] | select(.kernel | not) | .symbol]}][0:4]')"
nt=$(j '[.stacks[] | select(.kind == "fault" and any(.frames[]; .symbol == "junk_touch"))] | length')
touch=$(j '[.stacks[] | select(.kind == "fault" and any(.frames[]; .symbol == "junk_touch")) | .count] | add // 0')
[ "$nt" -eq 1 ] || fail "$nt fault stacks through junk_touch, not one"
[ "$touch" -ge $((PAGES * 85 / 100)) ] && [ "$touch" -le $((PAGES * 115 / 100)) ] ||
	fail "the fault stack through junk_touch counts $touch, not $PAGES within 15 %"
# a user stack that could not be taken (the kernel's stack map had another in its
# bucket: the planted words make many different ones) leaves kernel frames only
nm=$(j '[.stacks[] | select(.kind == "mmap" and any(.frames[]; .kernel | not))] | length')
mmaps=$(j '[.stacks[] | select(.kind == "mmap") | .count] | add // 0')
bytes=$(j '[.stacks[] | select(.kind == "mmap") | .bytes] | add // 0')
[ "$nm" -eq 1 ] && [ "$mmaps" -eq $MMAPS ] ||
	fail "$nm mmap stacks with user frames, $mmaps calls in all, not one stack of $MMAPS"
[ "$bytes" -eq $(((PAGES + MMAPS - 1) * page_kb * 1024)) ] || fail "mmap bytes $bytes"
[ "$(j .unwind)" = "$1" ] || fail "unwind $(j .unwind), not $1"
[ "$(j '[.stacks[] | select(any(.frames[]; .symbol == "junk_touch" or .symbol == "junk_map")) | .truncated_reason] | unique | join(",")')" = "$2" ] ||
	fail "truncated_reason not $2: $(j '[.stacks[] | .truncated_reason] | unique')"
[ "$(j .truncated_stacks)" -ge 2 ] || fail "truncated_stacks $(j .truncated_stacks), not at least 2"
if [ "$1" = fp ]; then
	[ "$(j .one_frame)" = true ] || fail "one_frame is not true, the stacks being one frame deep once cut"
else
	[ "$(j .one_frame)" = false ] || fail "one_frame with CFI unwinding"
	[ "$(j '[.stacks[] | .method] | unique | join(",")')" = dwarf ] || fail "methods $(j '[.stacks[] | .method] | unique')"
fi
[ "$(j '.truncated')" = null ] || fail "truncated is a field of each stack, not of the whole"
echo "$1: junk_touch: one stack, ~$touch faults; mmap: one stack, $mmaps calls; truncated ($2)"
dd_stop
}
json_check dwarf no_cfi
json_check fp not_executable


# --- text ---
dd_start 4096 10 "$HELPERS/$JUNK"
dd_sample
p=$(planted "$tmp/out")
[ -z "$p" ] || fail "the text shows planted words: $(echo $p)"
grep -Eq '^ +junk_touch\+0x[0-9a-f]+ ' "$tmp/out" || fail "text lacks junk_touch: $(cat "$tmp/out")"
# the text's stacks, one a line: "KIND: ... | frame | frame ..."
awk '/^[a-z]+: / { s = $0; next } /^$/ { if (s != "") print s; s = ""; next } { s = s " |" $0 }' \
	"$tmp/out" >"$tmp/stacks"
[ "$(grep -c '^fault: .*| *junk_touch+0x' "$tmp/stacks")" -eq 1 ] ||
	fail "not one fault stack through junk_touch: $(cat "$tmp/out")"
grep '^fault: .*| *junk_touch+0x' "$tmp/stacks" | grep -q '| *(truncated: the next frame is in code without unwind' ||
	fail "the text does not say the fault stack was truncated: $(cat "$tmp/out")"
echo "text: one fault stack, truncated, no junk"
dd_stop

# --- the detail screen ---
dd_start $PAGES 10 "$HELPERS/$JUNK"
dd_detail 160 45 "$JUNK"
dd_go
sleep 1.2 # a refresh after junk_grow is done
tm send-keys 3
wait_for "junk_touch+0x" || fail "the stacks tab does not name junk_touch"
screen_text >"$tmp/screen"
p=$(planted "$tmp/screen")
[ -z "$p" ] || fail "the screen shows planted words: $(echo $p)
$(cat "$tmp/screen")"
[ "$(grep -c '^fault .*junk_touch+0x' "$tmp/screen")" -eq 1 ] ||
	fail "not one fault stack through junk_touch:
$(cat "$tmp/screen")"
grep -q '^fault .*junk_touch+0x.* < (truncated)' "$tmp/screen" ||
	fail "the stacks tab does not mark the fault stack truncated:
$(cat "$tmp/screen")"
grep -Eq '^[0-9]+ of [0-9]+ stacks truncated' "$tmp/screen" || fail "the screen does not count the truncated stacks"
# the fault stack whole: it says where it was cut
row=$(awk '$1 == "fault" && /junk_touch\+0x/ { print NR; exit }' "$tmp/screen")
first=$(awk '/^KIND / { print NR + 1; exit }' "$tmp/screen")
tm send-keys Home
i=$first
while [ "$i" -lt "$row" ]; do
	tm send-keys Down
	i=$((i + 1))
done
tm send-keys Enter
wait_for "fault stack: ~" || fail "Enter did not show the stack whole"
wait_for "(truncated: the next frame is in code without unwind information" ||
	fail "the whole stack does not say it was truncated"
screen_text >"$tmp/screen"
grep -q '^fault stack: .*frames, truncated' "$tmp/screen" ||
	fail "the whole stack's title does not say truncated:
$(cat "$tmp/screen")"
p=$(planted "$tmp/screen")
[ -z "$p" ] || fail "the whole stack shows planted words: $(echo $p)"
echo "screen: one fault stack through junk_touch, marked truncated, whole and in the list"
