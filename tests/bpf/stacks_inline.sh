#!/bin/sh
# memtop-test: beside others
# Inlined functions and source lines from debug information. inline_grow (built with -g)
# faults in fill(), inlined into touch_pages(), called from main: the top fault stack
# has fill (inlined) then touch_pages then main; for each of inline_grow's addresses in
# it, the functions and file:line memtop gives are those of addr2line -i -f -e
# inline_grow at its module offset (less one for a return address). The text shows
# "fill (inlined)" and "at .../inline_grow.c:LINE".
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
command -v addr2line >/dev/null || fail "needs binutils (addr2line)"
BIN="$HELPERS/inline_grow"
j() { jq -r "$1" "$tmp/out"; }

dd_start 25600 "" "$BIN"
dd_sample --json
dd_stop
top='[.stacks[] | select(.kind == "fault")][0] | [.frames[] | select(.kernel | not)]'
chain=$(j "$top | map(.symbol) | .[0:3] | join(\",\")")
[ "$chain" = "fill,touch_pages,main" ] || fail "top fault stack: $chain"
[ "$(j "$top | .[0].inlined")" = true ] || fail "fill not marked inlined"
[ "$(j "$top | .[1].inlined")" = false ] || fail "touch_pages marked inlined"
# each address of inline_grow once, in order, with whether it is the innermost
j "$top | to_entries | map(select(.value.module | endswith(\"/inline_grow\"))) |
	group_by(.value.module_offset) | sort_by(.[0].key) | .[] |
	[.[0].value.module_offset, (if .[0].key == 0 then 1 else 0 end),
	 (map(.value.symbol + \" \" + ((.value.source // \"?\") | split(\"/\") | last)) | join(\";\"))] | @tsv" >"$tmp/ours"
[ "$(wc -l <"$tmp/ours")" -ge 2 ] || fail "fewer than 2 addresses in inline_grow: $(cat "$tmp/ours")"
while IFS="$(printf '\t')" read -r off inner ours; do
	look=$(printf '0x%x' $((off - 1 + inner)))
	theirs=$(addr2line -i -f -e "$BIN" "$look" | paste - - |
		awk -F'\t' '{ n = split($2, p, "/"); sub(/ \(discriminator [0-9]+\)$/, "", p[n]); if (p[n] == "??:?") p[n] = "?"; printf "%s%s %s", (NR > 1 ? ";" : ""), $1, p[n] }')
	[ "$ours" = "$theirs" ] || fail "at $look: memtop $ours, addr2line -i $theirs"
	echo "$look: $ours"
done <"$tmp/ours"

dd_start 25600 "" "$BIN"
dd_sample
dd_stop
grep -Eq '^ +fill \(inlined\) +inline_grow\+0x[0-9a-f]+ +/.*inline_grow at .*inline_grow\.c:[0-9]+$' "$tmp/out" ||
	fail "text lacks fill (inlined) at its line: $(sed -n 4,10p "$tmp/out")"
