#!/bin/sh
# memtop-test: beside others
# Frames as module+offset, with build ids. dd_grow (a PIE built with -g) faulting and
# calling mmap: each user frame's module_offset is its address less its mapping's start
# plus the mapping's file offset (/proc/PID/maps, read while it runs); for frames in
# dd_grow, addr2line -f -e dd_grow at that offset (less one for a return address) names
# the same function memtop does; build_id is readelf -n's Build ID, for dd_grow and libc.
# Debian's sort (stripped) sampled from its first instruction to its exit: the text names
# its frames sort+0x... next to /usr/bin/sort, with build_id readelf's.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
command -v addr2line >/dev/null && command -v readelf >/dev/null || fail "needs binutils (addr2line, readelf)"
j() { jq -r "$1" "$tmp/out"; }
build_id() { readelf -n "$1" | awk '/Build ID:/ { print $3 }'; }

dd_start 25600 10
dd_sample --json
# the maps in decimal: start end file-offset path
while read -r range perms pgoff dev inode path; do
	echo "$((0x${range%-*})) $((0x${range#*-})) $((0x$pgoff)) $path"
done <"/proc/$DD_PID/maps" >"$tmp/maps"
dd_stop
# address, module_offset, module, symbol, innermost (1/0), build id: user frames
j '.stacks[] | [.frames[] | select(.kernel | not)] | to_entries[] |
	[.value.address, .value.module_offset // "-", .value.module, .value.symbol // "?", (if .key == 0 then 1 else 0 end), .value.build_id // "-"] | @tsv' |
	sort -u >"$tmp/frames"
[ -s "$tmp/frames" ] || fail "no user frames"
n=0
while IFS="$(printf '\t')" read -r addr off mod sym inner bid; do
	a=$((addr))
	# the mapping holding it: start-end perms pgoff dev inode path
	want=$(awk -v a=$a 'a >= $1 && a < $2 { printf "%.0f %s\n", a - $1 + $3, $4; exit }' "$tmp/maps")
	[ -n "$want" ] || fail "$addr ($sym) in no mapping"
	[ "$((off))" = "${want% *}" ] || fail "$sym at $addr: module_offset $off, the maps say $(printf '0x%x' "${want% *}") in ${want#* }"
	[ "$mod" = "${want#* }" ] || fail "$sym at $addr: module $mod, the maps say ${want#* }"
	[ "$bid" = "$(build_id "$mod")" ] || fail "$mod: build id $bid, readelf says $(build_id "$mod")"
	case "$mod" in
	*/dd_grow)
		look=$(printf '0x%x' $((off - 1 + inner)))
		f=$(addr2line -f -e "$mod" "$look" | head -1)
		[ "$f" = "$sym" ] || fail "$look in dd_grow: addr2line says $f, memtop $sym"
		n=$((n + 1)) ;;
	esac
done <"$tmp/frames"
[ $n -ge 3 ] || fail "only $n frames in dd_grow checked"
echo "dd_grow: $(wc -l <"$tmp/frames") frames at the maps' offsets with readelf's build ids; $n named as addr2line does"

# --- Debian's sort, stripped ---
seq 1 300000 | shuf >"$tmp/rand.txt"
# sort_run ARGS...: memtop --stacks on sort from its first instruction to its exit
sort_run() {
	dd_start sort "$tmp/rand.txt" "$HELPERS/exec_on_go" --output=/dev/null
	"$MEMTOP" --stacks "$DD_PID:30" "$@" >"$tmp/out" 2>"$tmp/err" &
	mt=$!
	wait_links $mt $STACKS_LINKS || fail "memtop --stacks did not attach: $(cat "$tmp/err")"
	echo go >&8
	wait $mt
	grep -q "exited after" "$tmp/err" || fail "memtop --stacks on sort: $(cat "$tmp/err")"
	dd_stop
}
sort_run
grep -Eq '^ +0x[0-9a-f]+ +sort\+0x[0-9a-f]+ +/usr/bin/sort$' "$tmp/out" ||
	fail "no frame named sort+0x...: $(head -20 "$tmp/out")"
grep -Eq '^ +__libc_start_main\+0x[0-9a-f]+ +libc\.so\.6\+0x[0-9a-f]+ +/' "$tmp/out" ||
	fail "no frame named libc.so.6+0x...: $(head -20 "$tmp/out")"
sort_run --json
ids=$(j '[.stacks[].frames[] | select(.module == "/usr/bin/sort") | .build_id] | unique | join(",")')
[ "$ids" = "$(build_id /usr/bin/sort)" ] || fail "sort's build ids $ids, readelf says $(build_id /usr/bin/sort)"
echo "sort: $(grep -Ec 'sort\+0x' "$tmp/out" 2>/dev/null || true) text frames as sort+0x..., build id $ids"
