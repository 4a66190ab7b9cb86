#!/bin/sh
# memtop in a PID namespace of its own, as in a container: /proc lists the namespace's
# ids, not the kernel's, and every id the BPF programs report must be the namespace's.
# Each part runs memtop and its workload together under unshare --pid --mount-proc:
# - an OOM kill: the event names the victim by its pid in the namespace (the kernel
#   log's "Killed process" line gives another, the kernel's own);
# - a reader in a 32 MiB memory cgroup: its reclaim stall (rate times interval, summed)
#   is the memcg reclaim time of the run, on its own row;
# - memtop --stacks on dd_grow: every one of its page faults and mmap calls is seen.
. "$(dirname "$0")/lib.inc"
need_bpf
command -v unshare >/dev/null || skip "needs unshare"
unshare --pid --fork --mount-proc true 2>/dev/null || skip "cannot make a PID namespace here"
ns() { unshare --pid --fork --mount-proc sh -c "$@"; }

# --- OOM kill ---
memcg memtop-pidns-$$ $((64 << 20))
ns '"$1" --json -n 100 -d 0.3 >"$2/oom.json" 2>"$2/err" & mt=$!
	until [ -s "$2/oom.json" ]; do sleep 0.1; done
	sh -c "echo \$\$ >\"$3/cgroup.procs\" && exec \"$4\" 200" & kid=$!
	echo $kid >"$2/kid"
	wait $kid
	n=$(wc -l <"$2/oom.json"); until [ $(wc -l <"$2/oom.json") -ge $((n + 2)) ]; do sleep 0.1; done
	kill $mt; wait $mt; true' sh "$MEMTOP" "$WORK" "$CG" "$HOG" || fail "the OOM part failed: $(cat "$WORK/err")"
kid=$(cat "$WORK/kid")
ev=$(jq -c 'select(.events | length > 0) | .events[] | select(.earlier == false)' "$WORK/oom.json" 2>/dev/null)
[ "$(printf '%s\n' "$ev" | grep -c .)" = 1 ] || fail "expected one OOM event, got: $ev"
printf '%s\n' "$ev" | jq -e --argjson p "$kid" '.pid == $p and .trigger_pid == $p and .comm == "bpf_hog"' \
	>/dev/null || fail "the OOM event does not name pid $kid of the namespace: $ev"
host=$(dmesg 2>/dev/null | grep 'Killed process' | tail -n 1 | sed -n 's/.*Killed process \([0-9]*\).*/\1/p')
echo "OOM kill: pid $kid in the namespace (the kernel's ${host:-?}): $ev"
rmdir "$CG" && CG=""

# --- reclaim stall of a reader ---
stream_file
memcg memtop-pidns-rc-$$ $((32 << 20))
mkfifo "$WORK/go"
ns '"$1" --json -n 200 -d 0.3 >"$2/rc.json" 2>"$2/err" & mt=$!
	until [ -s "$2/rc.json" ]; do sleep 0.1; done
	sh -c "echo \$\$ >\"$3/cgroup.procs\" && read go <\"$2/go\" && exec tail -c +1 -f \"$4\" >/dev/null" & r=$!
	echo $r >"$2/reader"
	n=$(wc -l <"$2/rc.json"); until [ $(wc -l <"$2/rc.json") -ge $((n + 2)) ]; do sleep 0.1; done
	echo go >"$2/go"
	until [ "$(awk "\$1 == \"rchar:\" { print \$2 }" /proc/$r/io)" -ge 134217728 ]; do sleep 0.1; done
	n=$(wc -l <"$2/rc.json"); until [ $(wc -l <"$2/rc.json") -ge $((n + 2)) ]; do sleep 0.1; done
	kill $mt $r; wait $mt; true' sh "$MEMTOP" "$WORK" "$CG" "$FILE" || fail "the reclaim part failed: $(cat "$WORK/err")"
reader=$(cat "$WORK/reader")
jq -s --argjson p "$reader" '[([.[] | .interval_s as $i | .processes[] | select(.pid == $p) |
	.reclaim_stall_us_per_s * $i] | add // 0), ([.[].reclaim.memcg.total_us] | add),
	([.[].reclaim.memcg.count] | add), length] | @tsv' -r "$WORK/rc.json" >"$WORK/sums"
read -r stall total count lines <"$WORK/sums"
[ "$count" -ge 5 ] || fail "only $count memcg reclaims; no test"
# the histogram's microseconds are whole, the stall's are not: up to 1 us per reclaim
awk -v s="$stall" -v t="$total" -v n="$count" -v l="$lines" \
	'BEGIN { exit !(s >= t - 1 - 0.05 * l && s <= t + n + t / 100 + 0.05 * l) }' ||
	fail "reader $reader of the namespace: $stall us stalled, memcg reclaim took $total us in $count"
echo "reader $reader of the namespace stalled $stall us; memcg reclaim: $count in $total us"

# --- stacks ---
ns '. "$1/lib.sh"; . "$1/dd_grow.inc"
	dd_start 2560 10
	"$MEMTOP" --stacks "$DD_PID" -d 2 --json >"$2/stacks.json" 2>"$2/err" & mt=$!
	wait_links $mt $STACKS_LINKS || exit 1
	dd_go
	wait $mt; rc=$?
	dd_stop
	exit $rc' sh "$TESTS" "$WORK" || fail "the stacks part failed: $(cat "$WORK/err")"
jq -e '.faults >= 2560 and .faults <= 2576' "$WORK/stacks.json" >/dev/null ||
	fail "dd_grow made 2560 faults in the namespace, memtop saw $(jq .faults "$WORK/stacks.json")"
jq -e '[.stacks[] | select(.kind == "mmap" and any(.frames[]; .symbol == "dd_reserve")) | .count] | add == 10' \
	"$WORK/stacks.json" >/dev/null || fail "dd_grow's 10 mmap calls were not all seen"
echo "stacks in the namespace: $(jq -c '{pid, faults}' "$WORK/stacks.json")"
