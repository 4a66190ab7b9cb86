#!/bin/sh
# memtop-test: beside others
# Pins in /sys/fs/bpf/memtop that are not this memtop's are not used: a meta map of
# another value size (a larger, as a later memtop's might be, or a smaller) or another
# type, and a service's set with one of its maps replaced by a map of other sizes. Each
# memtop run beside them says so in one line, loads its own programs, exits 0 and leaves
# them where they are.
. "$(dirname "$0")/lib.inc"
. "$(dirname "$0")/pins.inc"
need_bpf
command -v bpftool >/dev/null || fail "no bpftool (Debian package bpftool; scripts/deps.sh)"

# run_beside WHAT REASON: memtop beside the pins exits 0, nothing on stderr, its own
# programs loaded and REASON its BPF line
run_beside() {
	"$MEMTOP" --json -n 2 -d 0.3 >"$OUT" 2>"$WORK/err"
	rc=$?
	[ $rc = 0 ] || fail "$1: memtop exited $rc: $(head -c 300 "$WORK/err")"
	[ -s "$WORK/err" ] && fail "$1: memtop wrote to stderr: $(head -c 300 "$WORK/err")"
	tail -n 1 "$OUT" | jq -e --arg r "$2" '.bpf.enabled and .bpf.reason == $r and
		.bpf.programs > 0' >/dev/null || fail "$1: $(tail -n 1 "$OUT" | jq -c .bpf)"
}

n=0
# foreign_meta TYPE TYPENO VALUE: a meta map of that type and value size, alone
foreign_meta() {
	rm -rf "$PINS"
	mkdir -p "$PINS"
	bpftool map create "$PINS/meta" type "$1" key 4 value "$3" entries 1 name meta ||
		fail "bpftool map create $1 $3"
	run_beside "a meta $1 map of $3-byte values" "BPF pins in $PINS not this memtop's (their meta: map type $2, key 4, value $3, 1 entries), not used"
	[ -e "$PINS/meta" ] || fail "a foreign meta map ($1, $3) was removed"
	n=$((n + 1))
}
foreign_meta array 2 8192
foreign_meta array 2 16
foreign_meta hash 1 344
rm -rf "$PINS"

# a service's set, one of its maps (the global data) replaced by one of other sizes
svc_start
bss=$(cd "$PINS" && ls | grep '^map_.*_bss$' | head -n 1)
[ -n "$bss" ] || fail "no global data map among the pins: $(ls "$PINS")"
rm "$PINS/$bss"
bpftool map create "$PINS/$bss" type array key 4 value 8 entries 1 name foreign ||
	fail "bpftool map create $bss"
name=$(bpftool map show pinned "$PINS/$bss" -j | jq -r .name)
# memtop names the map as the BPF object does: memtop_b.bss (its pin memtop_b_bss)
map=$(printf '%s\n' "${bss#map_}" | sed 's/_bss$/.bss/')
run_beside "beside service $SVC with a foreign $bss" "BPF pins of memtop $SVC not used: pinned map $map not this memtop's (map type 2, key 4, value 8, 1 entries)"
[ "$(bpftool map show pinned "$PINS/$bss" -j | jq -r .name)" = "$name" ] ||
	fail "the foreign $bss was removed"
echo "$n foreign meta maps and a foreign $bss in service $SVC's set: not used, left alone, each said in one line"
