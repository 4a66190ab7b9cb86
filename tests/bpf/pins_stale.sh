#!/bin/sh
# memtop-test: beside others
# Pins no one may use are left out, each said in one line: a killed service's (its pins
# stay, its programs attached) are removed by the next memtop, which loads its own and
# leaves none behind; pins of another build of memtop, whose owner lives, are not used
# and left alone.
. "$(dirname "$0")/lib.inc"
. "$(dirname "$0")/pins.inc"
need_bpf
command -v bpftool >/dev/null || fail "no bpftool (Debian package bpftool; scripts/deps.sh)"
command -v perl >/dev/null || fail "no perl"

svc_start
killed=$SVC
prog_ids "$SVC" >"$WORK/svc.ids"
kill -9 "$SVC"
wait "$SVC" 2>/dev/null
SVC=""
[ -e "$PINS/meta" ] || fail "the killed service's pins are gone already"
attached=0
while read -r id; do prog_exists "$id" && attached=$((attached + 1)); done <"$WORK/svc.ids"
[ $attached -gt 0 ] || fail "none of the killed service's programs stays: its pins hold nothing"

"$MEMTOP" --json -n 2 -d 0.3 >"$OUT" 2>"$WORK/err" || fail "memtop exited $?: $(cat "$WORK/err")"
tail -n 1 "$OUT" | jq -e --arg r "stale BPF pins of memtop $killed removed (it is gone)" \
	'.bpf.enabled and .bpf.reason == $r and .bpf.programs > 0' >/dev/null ||
	fail "after the killed service: $(tail -n 1 "$OUT" | jq -c .bpf)"
[ -e "$PINS" ] && fail "$PINS left: $(ls "$PINS")"
while read -r id; do
	eventually $HANG not_prog "$id" || fail "the killed service's program $id stays after its pins went"
done <"$WORK/svc.ids"
echo "killed service $killed: its pins removed, its $attached programs that stayed gone"

# another build's pins: a meta map as memtop's, the build hash another, the owner alive
sleep 600 &
owner=$!
KIDS="$KIDS $owner"
ticks=$(sed 's/.*) //' "/proc/$owner/stat" | awk '{ print $20 }')
boot=$(cat /proc/sys/kernel/random/boot_id)
mkdir -p "$PINS"
bpftool map create "$PINS/meta" type array key 4 value 344 entries 1 name memtop_meta ||
	fail "bpftool map create"
value=$(perl -e 'print join " ", map { sprintf "%02x", $_ } unpack "C*",
	pack "a8 Q< a40 Q< Q< l< L< Q< a256", "memtop\0\1", 12345, $ARGV[0], 0, 0, $ARGV[1], 31,
	$ARGV[2], ""' "$boot" "$owner" "$ticks")
# shellcheck disable=SC2086 # the bytes are words
bpftool map update pinned "$PINS/meta" key hex 00 00 00 00 value hex $value ||
	fail "bpftool map update"
"$MEMTOP" --json -n 2 -d 0.3 >"$OUT" 2>"$WORK/err" || fail "memtop exited $?: $(cat "$WORK/err")"
tail -n 1 "$OUT" | jq -e --arg r "BPF pins of memtop $owner not used: another build" \
	'.bpf.enabled and .bpf.reason == $r and .bpf.programs > 0' >/dev/null ||
	fail "beside another build's pins: $(tail -n 1 "$OUT" | jq -c .bpf)"
[ -e "$PINS/meta" ] || fail "another build's pins were removed"
echo "another build's pins (owner $owner): not used, left alone"
