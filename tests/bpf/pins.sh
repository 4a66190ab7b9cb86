#!/bin/sh
# memtop-test: alone
# memtop --record --pin pins its programs in /sys/fs/bpf/memtop; a memtop started beside
# it loads no program of its own (the programs of its descriptors and of its links are
# the service's), says whose it uses, shows a process's RSS as statm has it, and reports through them an
# OOM kill in a memory cgroup as the kernel log does; the service, stopped, removes
# its pins and its programs go when the other memtop exits too.
. "$(dirname "$0")/lib.inc"
. "$(dirname "$0")/pins.inc"
need_bpf
command -v bpftool >/dev/null || fail "no bpftool (Debian package bpftool; scripts/deps.sh)"

svc_start
owner=$SVC
prog_ids "$SVC" >"$WORK/svc.ids"
[ -s "$WORK/svc.ids" ] || fail "the service holds no program"

name=memtop-pins-$$
memcg "$name" $((64 << 20))
mt_start -n 200 -d 0.5
mt_wait_lines 2
link_prog_ids "$MTPID" >"$WORK/links.ids"
[ -s "$WORK/links.ids" ] || fail "the second memtop has no links"
others=$(prog_ids "$MTPID" | sort -mn - "$WORK/links.ids" | comm -23 - "$WORK/svc.ids")
[ -z "$others" ] || fail "the second memtop holds programs not the service's: $others"
mt_last | jq -e --arg r "BPF programs of memtop $SVC" '.bpf.enabled and .bpf.reason == $r and
	.bpf.programs > 0' >/dev/null || fail "the second memtop's bpf: $(mt_last | jq -c .bpf)"
# its processes, from the shared task iterator: an idle 8 MiB child as statm has it
"$HELPERS/alloc_child" 8 >"$WORK/idle" &
idle=$!
KIDS="$KIDS $idle"
wait_ready "$WORK/idle" || fail "alloc_child never got ready"
page_kb=$(($(getconf PAGESIZE) / 1024))
want=$(awk -v p="$page_kb" '{ print $2 * p }' "/proc/$idle/statm")
has_rss() { mt_last | jq -e --argjson p "$idle" --argjson w "$want" \
	'.processes[] | select(.pid == $p and .rss_kb == $w)' >/dev/null; }
eventually $HANG has_rss || fail "the idle child's RSS: statm $want KiB, memtop $(mt_last |
	jq -c --argjson p "$idle" '.processes[] | select(.pid == $p) | .rss_kb')"

in_memcg "$HOG" 200
kid_oom_event
[ "$(printf '%s\n' "$ev" | grep -c .)" = 1 ] || fail "expected one event for pid $KID, got: $ev"
printf '%s\n' "$ev" | jq -e --arg cg "/$name" '.earlier == false and .comm == "bpf_hog" and
	.memcg == $cg' >/dev/null || fail "wrong event: $ev"
line=$(dmesg | grep -F "Killed process $KID (bpf_hog)" | tail -n 1)
log=$(printf '%s\n' "$line" | sed -n 's/.*anon-rss:\([0-9]*\)kB.*/\1/p')
got=$(printf '%s\n' "$ev" | jq .anon_rss_kb)
[ -n "$log" ] && [ "$log" = "$got" ] || fail "anon-rss: memtop $got kB, kernel log '$log' kB"
jq -e 'select(.bpf.oom_kills >= 1)' "$OUT" >/dev/null || fail "bpf.oom_kills never counted the kill"

# the service stops: its pins go; the programs are gone with it
kill "$SVC"
wait "$SVC" 2>/dev/null
SVC=""
[ -e "$PINS" ] && fail "$PINS left after the service stopped: $(ls "$PINS")"
while read -r id; do
	# the kernel frees a program after its last link, a little later
	eventually $HANG not_prog "$id" || fail "the service's program $id outlived it and the memtop beside it"
done <"$WORK/svc.ids"
echo "service $owner: the memtop beside it loaded none, linked $(wc -l <"$WORK/links.ids") of" \
	"its $(wc -l <"$WORK/svc.ids") programs and reported kill $KID (anon-rss $got kB as the" \
	"log says); all gone after both"
