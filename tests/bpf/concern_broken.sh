#!/bin/sh
# Each BPF concern fails to load on its own: MEMTOP_BPF_BREAK=NAME gives that concern's first
# program to the kernel as one its verifier rejects (a real failed load, not a pretence).
# The concern is then off, says why in the reason line, and its fallback runs; every other
# concern that was on stays on.
. "$(dirname "$0")/lib.inc"
need_bpf oom tasks

# the concerns this kernel has on (all on a kernel with all they need)
base=$("$MEMTOP" --json -n 1 | jq -c .bpf.concerns) || fail "memtop --json failed"
names=$(printf '%s\n' "$base" | jq -r 'to_entries[] | select(.value == "on") | .key')
echo "on here: $(echo $names)"

"$HELPERS/alloc_child" 8 0 memtop-broken >"$WORK/child" &
child=$!
KIDS="$KIDS $child"
wait_ready "$WORK/child" || fail "alloc_child never got ready"

for n in $names; do
	out=$(MEMTOP_BPF_BREAK=bpf_$n "$MEMTOP" --json -n 1 --cgroups) || fail "$n broken: memtop exited $?"
	st=$(printf '%s\n' "$out" | jq -c .bpf)
	printf '%s\n' "$st" | jq -e --arg n "$n" --argjson base "$base" '.enabled and
		(.concerns[$n] | startswith("off: ")) and (.reason | test("\n") | not) and
		([$base | to_entries[] | select(.key != $n and .value == "on") | .key] |
		 all(. as $k | $st.concerns[$k] == "on"))' --argjson st "$st" >/dev/null ||
		fail "$n broken: $st (before: $base)"
	reason=$(printf '%s\n' "$st" | jq -r .reason)
	echo "$n broken: $reason"
	# its fallback: the process table from /proc, kills from the kernel log, cgroups from
	# their files
	printf '%s\n' "$out" | jq -e --argjson p "$child" 'any(.processes[]; .pid == $p and .rss_kb >= 8192)' \
		>/dev/null || fail "$n broken: the child (pid $child, 8 MiB) is not listed with its RSS"
	case $n in
	oom)
		printf '%s\n' "$reason" | grep -q "OOM kills from the kernel log" ||
			fail "oom broken: kills not followed in the kernel log: $reason"
		;;
	cgroup_iter)
		printf '%s\n' "$out" | jq -e '(.cgroups | length) > 0' >/dev/null ||
			fail "cgroup_iter broken: no cgroups from their files"
		;;
	esac
done
