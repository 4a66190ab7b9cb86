#!/bin/sh
# Rates on one line describe one moment: memtop reads /proc/vmstat and the BPF maps
# together, after the walk over the processes (which takes long with many processes),
# so on three lines in four at least (memtop may be preempted between the two reads on a
# busy machine) the BPF count of swap-ins moved as /proc/vmstat's pswpin did, though a
# child swaps in all the time and 1500 idle processes make each walk long. (Read on
# either side of the walk, every line differs by the swap-ins during it.)
. "$(dirname "$0")/lib.inc"
need_bpf

swap_child_memcg memtop-moment-$$
swapfile_on 256
# idle processes: a long walk (forked by one helper, without the BPF tests' lock fd 9,
# dying with it)
"$HELPERS/many_children" 1500 >"$WORK/idle" 9>&- &
KIDS="$KIDS $!"
wait_ready "$WORK/idle" || fail "the idle processes did not start"

mt_start -n 100 -d 0.3
mt_wait_lines 1
in_memcg "$HOG" 150 3
mt_wait_lines $(($(mt_lines) + 2))
wait "$KID" || fail "the child failed: exit $?"
mt_wait_lines $(($(mt_lines) + 1))
mt_stop

# each refresh against the one before: BPF's count and vmstat's moved alike
jq -s -c '[range(1; length) as $i | {
	vm: (.[$i].system.pswpin - .[$i - 1].system.pswpin),
	bpf: (.[$i].bpf.swapins - .[$i - 1].bpf.swapins),
	dt: .[$i].interval_s, walk: .[$i].procs_interval_s}]' "$OUT" >"$WORK/deltas"
total=$(jq '[.[].vm] | add' "$WORK/deltas")
[ "$total" -gt 5000 ] || fail "the child swapped in only $total pages; no test"
jq -e '[.[] | select(.vm > 0)] | (map(select((.vm - .bpf | fabs) <= ([16, .vm * 0.01] | max)))
	| length) * 4 >= length * 3' "$WORK/deltas" >/dev/null ||
	fail "on many lines BPF and vmstat swap-ins moved apart (vm, bpf per refresh):" \
		"$(jq -c '[.[] | select(.vm > 0) | [.vm, .bpf]]' "$WORK/deltas")"
n=$(jq '[.[] | select(.vm > 0)] | length' "$WORK/deltas")
echo "$total swap-ins over $n refreshes with swap-ins; BPF and vmstat agree:" \
	"$(jq -c '[.[] | select(.vm > 0) | [.vm, .bpf]] | .[:6]' "$WORK/deltas")"
