#!/bin/sh
# Reclaim stall time per memory cgroup (memtop --cgroups): a reader in a 32 MiB cgroup
# streams a 128 MiB file through the page cache, so the cgroup reclaims again and again
# in the reader's context, while a sibling cgroup holds an idle process. The reader's
# cgroup stalled as long as the kernel's own trace of the reclaim tracepoints says the
# reader did (the sum of its reclaim durations), and exactly as long as memtop's counter
# of the reader itself, its one task; its rate is above zero while it reads. The idle
# cgroup's stall and the root's (its own tasks) stay zero.
. "$(dirname "$0")/lib.inc"
need_bpf
"$MEMTOP" --json -n 1 --cgroups >/dev/null 2>&1 ||
	skip "memtop has no --cgroups (the cgroup views are on branch cgscreen)"

stream_file
memcg memtop-cgidle-$$ $((64 << 20))
idle_cg=$CG
in_memcg sleep 1000
memcg memtop-cgstall-$$ $((32 << 20))
# lib.inc removes $CG at exit, with the processes; the idle one is removed after it
cleanup_both() {
	cleanup
	i=0
	while [ -d "$idle_cg" ] && ! rmdir "$idle_cg" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
trap cleanup_both EXIT
mkfifo "$WORK/go"

trace_start vmscan/mm_vmscan_memcg_reclaim_begin vmscan/mm_vmscan_memcg_reclaim_end \
	vmscan/mm_vmscan_direct_reclaim_begin vmscan/mm_vmscan_direct_reclaim_end
mt_start --cgroups -n 200 -d 0.5
mt_wait_lines 1
# the reader waits on the fifo, then becomes tail (same pid), which stays after reading
in_memcg sh -c 'read go <"$0" && exec tail -c +1 -f "$1" >/dev/null' "$WORK/go" "$FILE"
reader=$KID
mt_wait_lines $(($(mt_lines) + 2))
echo go >"$WORK/go"
size=$(stat -c %s "$FILE") i=0
until [ "$(awk '$1 == "rchar:" { print $2 }' "/proc/$reader/io")" -ge "$size" ]; do
	[ $i -lt 300 ] || fail "the reader read $(awk '$1 == "rchar:" { print $2 }' "/proc/$reader/io") of $size bytes in 30s"
	sleep 0.1
	i=$((i + 1))
done
mt_wait_lines $(($(mt_lines) + 3))
mt_stop
trace_stop

stall="/memtop-cgstall-$$" idle="/memtop-cgidle-$$"
# the reader's reclaim durations in the trace, and how many
traced=$(awk -v reader="$reader" '
	{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\]$/)
				break
		if (i > NF)
			next
		pid = $(i - 1)
		sub(/.*-/, "", pid)
		for (; i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/; i++)
			;
		ts = substr($i, 1, length($i) - 1)
		ev = $(i + 1)
		kind = ev ~ /direct/ ? "direct" : "memcg"
		if (ev ~ /_begin:$/) {
			start[kind, pid] = ts
		} else if ((kind, pid) in start) {
			if (pid == reader) {
				n++
				us += int((ts - start[kind, pid]) * 1e6 + 0.5)
			}
			delete start[kind, pid]
		}
	}
	END { print n + 0, us + 0 }' "$WORK/trace")
set -- $traced
[ "$1" -ge 5 ] || fail "the reader reclaimed only $1 times (trace); no test"

last=$(tail -n 1 "$OUT")
got=$(printf '%s\n' "$last" | jq --arg p "$stall" '.cgroups[] | select(.path == $p) |
	.reclaim_stall_ns')
own=$(printf '%s\n' "$last" | jq --argjson r "$reader" '.processes[] | select(.pid == $r) |
	.reclaim_stall_ns')
[ -n "$got" ] && [ "$got" != null ] || fail "$stall has no reclaim_stall_ns: $last"
[ "$got" = "$own" ] || fail "$stall stalled $got ns, its one task (the reader) $own ns"
awk -v got="$got" -v n="$1" -v us="$2" -v slack="$STAMP_SLACK_US" 'BEGIN {
	tol = slack * n + us / 100
	if (got / 1000 < us - tol || got / 1000 > us + tol) {
		exit 1
	}
}' || fail "$stall: memtop $((got / 1000)) us, the trace $2 us in $1 reclaims"
jq -e --arg p "$stall" 'any(.cgroups[]; .path == $p and .reclaim_stall_us_per_s > 0)' "$OUT" |
	grep -q true || fail "$stall never had a stall rate above zero"
for p in "$idle" /; do
	printf '%s\n' "$last" | jq -e --arg p "$p" 'any(.cgroups[]; .path == $p and
		.reclaim_stall_ns == 0)' >/dev/null ||
		fail "$p stalled: $(printf '%s\n' "$last" | jq -c --arg p "$p" '.cgroups[] |
			select(.path == $p)')"
done
others=$(printf '%s\n' "$last" | jq -c --arg p "$stall" '[.cgroups[] |
	select(.path != $p and .reclaim_stall_ns > 0) | .path]')
echo "$stall stalled $((got / 1000)) us (trace: $2 us in $1 reclaims); others stalling: $others"
