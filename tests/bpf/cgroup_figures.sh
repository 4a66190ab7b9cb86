#!/bin/sh
# The cgroup figures from BPF (the cgroup iterator's page counters, the task iterator's
# process counts) are the files': a tree of memory cgroups with limits (v1: a soft limit
# and a memory+swap limit; v2: high, low and a swap limit where there is one), processes
# at two levels, a zombie (which no cgroup.procs lists) and an OOM kill in one. With
# BPF, memtop --json --cgroups shows for each the usage (within 2 %), limits, swap, number
# of processes (in it and below) and the kernel's OOM kill count that the files read in
# the same second give; with --no-bpf, the same. With the cgroups asked for, memtop holds
# one more BPF link (the cgroup iterator's, kept only if it agreed with the files at start).
. "$(dirname "$0")/lib.inc"
need_bpf
"$MEMTOP" --json -n 1 --cgroups >/dev/null 2>&1 || skip "memtop has no --cgroups"
[ -x "$HELPERS/alloc_child" ] || fail "build first: $HELPERS/alloc_child"

if [ -d /sys/fs/cgroup/memory ]; then
	V=1 ROOT=/sys/fs/cgroup/memory
elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	V=2 ROOT=/sys/fs/cgroup
else
	skip "no memory cgroup controller to use"
fi
top=memtop-cgfig-$$
DIRS=""
# mk PATH LIMIT: a cgroup below the root with that memory limit (none: empty)
mk() {
	mkdir "$ROOT/$1" || fail "mkdir $ROOT/$1"
	DIRS="$ROOT/$1 $DIRS"
	[ -z "$2" ] && return
	if [ $V = 1 ]; then
		echo "$2" >"$ROOT/$1/memory.limit_in_bytes"
	else
		echo "$2" >"$ROOT/$1/memory.max"
	fi || fail "setting the limit of $1"
}
# run PATH CMD...: CMD in that cgroup, in the background
run() {
	_d=$ROOT/$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$_d" "$@" 9>&- &
	KIDS="$KIDS $!"
}
rmdirs() {
	for p in $KIDS; do
		kill -9 "$p" 2>/dev/null
	done
	wait 2>/dev/null
	for d in $DIRS; do
		i=0
		while [ -d "$d" ] && ! rmdir "$d" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	done
}
trap 'rmdirs; cleanup' EXIT

mk "$top" $((256 << 20))
[ $V = 2 ] && { echo +memory >"$ROOT/$top/cgroup.subtree_control" || fail "delegating memory"; }
mk "$top/a" $((96 << 20))
[ $V = 2 ] && echo +memory >"$ROOT/$top/a/cgroup.subtree_control"
mk "$top/a/x" ""
mk "$top/b" $((128 << 20))
mk "$top/oom" $((32 << 20))
# no swap for oom: its child is killed, not swapped out
if [ $V = 1 ]; then
	echo $((32 << 20)) >"$ROOT/$top/a/memory.soft_limit_in_bytes" || fail "soft limit"
	[ -f "$ROOT/$top/oom/memory.memsw.limit_in_bytes" ] && echo $((32 << 20)) >"$ROOT/$top/oom/memory.memsw.limit_in_bytes"
	[ -f "$ROOT/$top/b/memory.memsw.limit_in_bytes" ] &&
		{ echo $((192 << 20)) >"$ROOT/$top/b/memory.memsw.limit_in_bytes" || fail "memsw limit"; }
else
	echo $((80 << 20)) >"$ROOT/$top/a/memory.high" || fail "memory.high"
	echo $((16 << 20)) >"$ROOT/$top/a/memory.low" || fail "memory.low"
	echo $((8 << 20)) >"$ROOT/$top/b/memory.min" || fail "memory.min"
	[ -f "$ROOT/$top/b/memory.swap.max" ] && echo $((64 << 20)) >"$ROOT/$top/b/memory.swap.max"
	[ -f "$ROOT/$top/oom/memory.swap.max" ] && echo 0 >"$ROOT/$top/oom/memory.swap.max"
fi
# (v2: a cgroup that gives its children the controller holds no process itself)
run "$top/a/x" sleep 300
run "$top/a/x" sh -c 'sleep 0 & exec sleep 300' # and a zombie
run "$top/b" "$HELPERS/alloc_child" 24 0 memtop-cgfig >"$WORK/child" 2>&1
wait_ready "$WORK/child" || fail "alloc_child never got ready: $(cat "$WORK/child")"
# an OOM kill in oom
sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$ROOT/$top/oom" "$HOG" 100 9>&- &
wait $! 2>/dev/null
[ $? = 137 ] || fail "the child in $top/oom should have been OOM-killed"
i=0
until [ "$(cat "$ROOT/$top/a/x/cgroup.procs" | wc -l)" = 2 ]; do
	[ $i -lt 50 ] || fail "the processes did not start"
	sleep 0.1
	i=$((i + 1))
done

# kib FILE: a limit or size file in KiB; null for none ("max", or v1's largest values)
kib() {
	awk '{ if ($1 == "max" || $1 >= 4611686018427387904) print "null"; else printf "%d\n", $1 / 1024 }' "$1" 2>/dev/null || echo null
}
key() { # key FILE KEY
	awk -v k="$2" '$1 == k { print $2 }' "$1"
}
# subtree DIR CMD: the sum of CMD DIR over DIR and every cgroup below it
subtree() {
	_s=0
	for _d in $(find "$1" -type d); do
		_s=$((_s + $($2 "$_d")))
	done
	echo $_s
}
procs() { wc -l <"$1/cgroup.procs"; }
oom_v1() { key "$1/memory.oom_control" oom_kill; }
# files PATH: what the files of the cgroup say, as memtop's JSON names it
files() {
	d=$ROOT/$1
	if [ $V = 1 ]; then
		usage=$(kib "$d/memory.usage_in_bytes") limit=$(kib "$d/memory.limit_in_bytes")
		swap=null swap_limit=null
		if [ -f "$d/memory.memsw.usage_in_bytes" ]; then
			swap=$(($(kib "$d/memory.memsw.usage_in_bytes") - usage))
			sl=$(kib "$d/memory.memsw.limit_in_bytes")
			[ "$sl" = null ] || [ "$limit" = null ] || swap_limit=$((sl - limit))
			[ "$sl" != null ] && [ "$limit" = null ] && swap_limit=null
		fi
		printf '{"path":"/%s","usage_kb":%s,"limit_kb":%s,"low_kb":%s,"swap_kb":%s,"swap_limit_kb":%s,"nprocs":%s,"oom_kills_kernel":%s}\n' \
			"$1" "$usage" "$limit" "$(kib "$d/memory.soft_limit_in_bytes")" "$swap" "$swap_limit" \
			"$(subtree "$d" procs)" "$(subtree "$d" oom_v1)"
	else
		swap=null swap_limit=null
		[ -f "$d/memory.swap.current" ] && swap=$(kib "$d/memory.swap.current") swap_limit=$(kib "$d/memory.swap.max")
		printf '{"path":"/%s","usage_kb":%s,"limit_kb":%s,"high_kb":%s,"low_kb":%s,"min_kb":%s,"swap_kb":%s,"swap_limit_kb":%s,"nprocs":%s,"oom_kills_kernel":%s}\n' \
			"$1" "$(kib "$d/memory.current")" "$(kib "$d/memory.max")" "$(kib "$d/memory.high")" \
			"$(kib "$d/memory.low")" "$(kib "$d/memory.min")" "$swap" "$swap_limit" \
			"$(subtree "$d" procs)" "$(key "$d/memory.events" oom_kill)"
	fi
}

# check WHAT ARGS...: memtop's figures for the tree against the files read just after
check() {
	what=$1
	shift
	"$MEMTOP" --json -n 1 --cgroups "$@" >"$WORK/mt.json" 2>"$WORK/err" || fail "$what: memtop failed: $(cat "$WORK/err")"
	for p in "$top" "$top/a" "$top/a/x" "$top/b" "$top/oom"; do
		files "$p"
	done >"$WORK/files.json"
	jq -n --slurpfile mt "$WORK/mt.json" --slurpfile want "$WORK/files.json" '
		[$want[] as $w | ($mt[0].cgroups[] | select(.path == $w.path)) as $m |
		 ($w | keys[] | select(. != "path")) as $k |
		 select(if $k == "usage_kb" then (($m[$k] // -1) - $w[$k] | fabs) > $w[$k] * 0.02
			else if $k == "swap_kb" and $w[$k] != null then (($m[$k] // -1e9) - $w[$k] | fabs) > $w.usage_kb * 0.02 + 256
			else $m[$k] != $w[$k] end end) |
		 "\($w.path) \($k): memtop \($m[$k]), files \($w[$k])"] as $bad |
		([$want[] | .path] - [$mt[0].cgroups[].path]) as $missing |
		if ($bad | length) > 0 or ($missing | length) > 0 then ($bad + ($missing | map("\(.) not listed")) | join("; ")) else empty end
	' >"$WORK/bad" || fail "$what: jq failed"
	[ -s "$WORK/bad" ] && fail "$what: memtop and the files disagree: $(cat "$WORK/bad")"
	echo "$what: the same as the files: $(jq -c --arg p "/$top/b" '.cgroups[] | select(.path == $p) | {usage_kb, limit_kb, nprocs}' "$WORK/mt.json")"
}

check "BPF"
check "--no-bpf" --no-bpf
grep -q '"oom_kills_kernel":1' "$WORK/files.json" || fail "the kernel counted no OOM kill: $(cat "$WORK/files.json")"

# the iterator's link: one more while the cgroups are asked for, and in use (the self-check
# passed) on the second refresh too
plain=$("$MEMTOP" --json -n 1 | jq .bpf.programs)
with=$("$MEMTOP" --json -n 2 -d 0.2 --cgroups | jq -s '[.[].bpf.programs] | unique | .[]')
[ "$with" = $((plain + 1)) ] || fail "with --cgroups memtop holds $with BPF links, without $plain"
