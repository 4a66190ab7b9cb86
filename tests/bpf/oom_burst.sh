#!/bin/sh
# Twenty OOM kills in quick succession: each reported exactly once, none dropped.
. "$(dirname "$0")/lib.inc"
need_bpf

N=20
name=memtop-burst-$$
memcg "$name" $((32 << 20))
mt_start -n 200 -d 0.5
mt_wait_lines 1
pids=""
start=$(date +%s)
i=0
while [ $i -lt $N ]; do
	# two at a time, so that kills also overlap
	in_memcg "$HOG" 100
	a=$KID
	in_memcg "$HOG" 100
	wait "$a" "$KID" 2>/dev/null
	pids="$pids $a $KID"
	i=$((i + 2))
done
secs=$(($(date +%s) - start))
mt_wait_lines $(($(mt_lines) + 2))
mt_stop

want=$(echo $pids | tr ' ' '\n' | sort -n)
got=$(jq --arg cg "/$name" '.events[] | select(.memcg == $cg and .earlier == false) | .pid' \
	"$OUT" | sort -n)
[ "$want" = "$got" ] || fail "$N kills in ${secs}s; want pids $(echo $want), got $(echo $got)"
tail -n 1 "$OUT" | jq -e --argjson n $N '.bpf.oom_kills >= $n and .bpf.ring_drops == 0' \
	>/dev/null || fail "bpf counters: $(tail -n 1 "$OUT" | jq -c .bpf)"
echo "$N kills in ${secs}s, each reported once"
