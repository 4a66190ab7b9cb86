#!/bin/sh
# memtop survives the memory pressure it watches. As root it locks its pages once steady
# (two refreshes): JSON self.locked_kb is its VmLck, and it keeps refreshing in a memory
# cgroup whose hogs get OOM-killed, and reports each kill. It lowers its oom_score_adj to -900 where root may
# (CAP_SYS_RESOURCE): then the hogs die, not memtop. Where root may not (some containers
# and VMs), JSON has no self.oom_score_adj and the batch "Self:" line says it was not
# lowered, which this test checks instead of the OOM kills memtop would not survive.
. "$(dirname "$0")/lib.inc"
need_bpf oom

cap_resource() { # CAP_SYS_RESOURCE (24) in the effective set
	[ "$(($(awk '$1 == "CapEff:" { print "0x" $2 }' /proc/self/status) >> 24 & 1))" = 1 ]
}

mt_start -d 0.3
mt_wait_lines 4
locked=$(awk '$1 == "VmLck:" { print $2 }' "/proc/$MTPID/status")
[ "${locked:-0}" -gt 0 ] || fail "memtop locked nothing (VmLck ${locked:-?} kB)"
json=$(mt_last | jq .self.locked_kb)
[ "$json" = "$locked" ] || fail "JSON self.locked_kb $json, VmLck $locked"
echo "memtop locked $locked kB once steady"

if ! cap_resource; then
	mt_last | jq -e '.self | has("oom_score_adj") | not' >/dev/null ||
		fail "JSON claims an oom_score_adj though it could not be lowered: $(mt_last | jq -c .self)"
	"$MEMTOP" -b -n 1 -p 1 | grep -q '^Self: .*oom_score_adj not lowered' ||
		fail "the batch Self: line does not say the oom_score_adj was not lowered"
	[ "$(cat "/proc/$MTPID/oom_score_adj")" = 0 ] || fail "oom_score_adj moved though it says it did not"
	mt_stop
	echo "no CAP_SYS_RESOURCE here: oom_score_adj not lowered, and memtop says so"
	exit 0
fi

[ "$(cat "/proc/$MTPID/oom_score_adj")" = -900 ] || fail "memtop's oom_score_adj is $(cat "/proc/$MTPID/oom_score_adj")"
mt_stop
# memtop in a memory cgroup 16 MiB above what it uses, with ten 4 MiB hogs
memcg memtop-pressure-$$ $((1 << 30))
sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG" "$MEMTOP" --json -d 0.3 >"$OUT" 2>"$WORK/err" &
MTPID=$!
mt_wait_lines 3
use=$(cat "$CG/memory.usage_in_bytes" 2>/dev/null || cat "$CG/memory.current")
echo $((use + (16 << 20))) >"$CG/memory.limit_in_bytes" 2>/dev/null || echo $((use + (16 << 20))) >"$CG/memory.max"
before=$(mt_lines)
hogs=
for i in 1 2 3 4 5 6 7 8 9 10; do
	in_memcg "$HOG" 4 1 5
	hogs="$hogs $KID"
done
died=0 killed=
for h in $hogs; do
	wait "$h" 2>/dev/null
	[ $? = 137 ] && died=$((died + 1)) killed="$killed $h"
done
mt_wait_lines $((before + 5))
kill -0 "$MTPID" || fail "memtop was killed: $(cat "$WORK/err")"
[ "$died" -gt 0 ] || fail "no hog was OOM-killed: the cgroup was not short of memory"
# and it reported each kill, with the task in whose context it ran
for h in $killed; do
	jq -s -e --argjson p "$h" 'any(.[].events[]; .type == "oom_kill" and .pid == $p and
		.trigger_pid > 0)' "$OUT" >/dev/null || fail "memtop did not report the OOM kill of hog $h" \
		"(killed:$killed; reported: $(jq -c '.events[] | [.pid, .trigger_pid, .earlier]' "$OUT" |
			tr '\n' ' '); BPF counted $(mt_last | jq .bpf.oom_kills))"
done
echo "memtop refreshed through the pressure: $(($(mt_lines) - before)) lines while $died hogs were OOM-killed"
