#!/bin/sh
# The cgroup figures from BPF (the cgroup iterator's page counters and memory.stat's
# counters, the task iterator's process counts) are the files': a tree of memory cgroups
# with limits (v1: a soft limit and a memory+swap limit; v2: high, low and a swap limit
# where there is one), processes at two levels, a zombie (which no cgroup.procs lists), an
# OOM kill in one, and in another a file read twice through a limit smaller than it (its
# second reading refaults). With BPF, memtop --json --cgroups shows for each the usage
# (within 2 % or 64 KiB), limits, swap, anon, file and kernel memory, refaults, number of processes
# (in it and below) and the kernel's OOM kill count that the files read in the same second
# give; with --no-bpf, the same. With the cgroups asked for, memtop holds one more BPF link
# (the cgroup iterator's, kept only if it agreed with the files at start), and reads no
# memory.stat but the top cgroup's after the first refresh.
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
mk "$top/rf" $((24 << 20))
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
# refaults in rf: a 128 MiB file read twice through 24 MiB (read_rf, below)
stream_file
read_rf() {
	sh -c 'echo $$ >"$0/cgroup.procs" && cat "$1" "$1" >/dev/null' "$ROOT/$top/rf" "$FILE" 9>&- ||
		fail "reading $FILE in $top/rf"
}
read_rf
i=0
until [ "$(cat "$ROOT/$top/a/x/cgroup.procs" | wc -l)" = 2 ]; do
	[ $i -lt 600 ] || fail "the processes did not start"
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
# stat FILE KEY...: the sum of memory.stat's KEYs; in KiB where the keys are bytes (kib)
stat() {
	_f=$1 _k=$2
	shift 2
	awk -v keys=" $* " -v k="$_k" 'index(keys, " " $1 " ") { s += $2 } END {
		printf "%d\n", k ? s / 1024 : s }' "$_f"
}
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
		printf '{"path":"/%s","usage_kb":%s,"limit_kb":%s,"low_kb":%s,"swap_kb":%s,"swap_limit_kb":%s,"nprocs":%s,"oom_kills_kernel":%s,"anon_kb":%s,"file_kb":%s,"kernel_kb":%s,"refaults":%s}\n' \
			"$1" "$usage" "$limit" "$(kib "$d/memory.soft_limit_in_bytes")" "$swap" "$swap_limit" \
			"$(subtree "$d" procs)" "$(subtree "$d" oom_v1)" \
			"$(stat "$d/memory.stat" 1 total_rss)" "$(stat "$d/memory.stat" 1 total_cache)" \
			"$(kib "$d/memory.kmem.usage_in_bytes")" \
			"$(stat "$d/memory.stat" 0 total_workingset_refault_anon total_workingset_refault_file)"
	else
		swap=null swap_limit=null
		[ -f "$d/memory.swap.current" ] && swap=$(kib "$d/memory.swap.current") swap_limit=$(kib "$d/memory.swap.max")
		printf '{"path":"/%s","usage_kb":%s,"limit_kb":%s,"high_kb":%s,"low_kb":%s,"min_kb":%s,"swap_kb":%s,"swap_limit_kb":%s,"nprocs":%s,"oom_kills_kernel":%s,"anon_kb":%s,"file_kb":%s,"kernel_kb":%s,"refaults":%s}\n' \
			"$1" "$(kib "$d/memory.current")" "$(kib "$d/memory.max")" "$(kib "$d/memory.high")" \
			"$(kib "$d/memory.low")" "$(kib "$d/memory.min")" "$swap" "$swap_limit" \
			"$(subtree "$d" procs)" "$(key "$d/memory.events" oom_kill)" \
			"$(stat "$d/memory.stat" 1 anon)" "$(stat "$d/memory.stat" 1 file)" \
			"$(stat "$d/memory.stat" 1 kernel sock)" \
			"$(stat "$d/memory.stat" 0 workingset_refault_anon workingset_refault_file)"
	fi
}

# a refault needs the evicted page's shadow entry, which the kernel may drop first (its
# shadow shrinker): 6.12 with the multi-gen LRU once counted 4 refaults where it usually
# counts 24,000 or more. Read again, up to 4 times, until the kernel counts refaults in rf
rf_refaults() {
	if [ $V = 1 ]; then
		stat "$ROOT/$top/rf/memory.stat" 0 total_workingset_refault_anon total_workingset_refault_file
	else
		stat "$ROOT/$top/rf/memory.stat" 0 workingset_refault_anon workingset_refault_file
	fi
}
i=1
while [ "$(rf_refaults)" -le 1000 ] && [ $i -lt 5 ]; do
	sleep 2
	read_rf
	i=$((i + 1))
done
echo "$top/rf: $(rf_refaults) refaults after $i reading(s) of the file twice"

# memory.stat's counters are the kernel's as of its last flush, which waits for 64 pages
# of updates a CPU: the files and memtop, read one after the other, may differ by that.
# A usage moves between the two reads too (an emptied cgroup's last pages of kernel
# memory are freed later): 2 % or 64 KiB
BATCH=$((64 * $(nproc)))
# check WHAT ARGS...: memtop's figures for the tree against the files read just after
check() {
	what=$1
	shift
	"$MEMTOP" --json -n 1 --cgroups "$@" >"$WORK/mt.json" 2>"$WORK/err" || fail "$what: memtop failed: $(cat "$WORK/err")"
	for p in "$top" "$top/a" "$top/a/x" "$top/b" "$top/oom" "$top/rf"; do
		files "$p"
	done >"$WORK/files.json"
	jq -n --slurpfile mt "$WORK/mt.json" --slurpfile want "$WORK/files.json" --argjson batch "$BATCH" '
		[$want[] as $w | ($mt[0].cgroups[] | select(.path == $w.path)) as $m |
		 ($w | keys[] | select(. != "path")) as $k |
		 select(if $k == "usage_kb" then (($m[$k] // -1) - $w[$k] | fabs) > $w[$k] * 0.02 + 64
			else if $k == "swap_kb" and $w[$k] != null then (($m[$k] // -1e9) - $w[$k] | fabs) > $w.usage_kb * 0.02 + 256
			else if ($k | test("^(anon|file|kernel)_kb$")) then (($m[$k] // -1e9) - $w[$k] | fabs) > $w.usage_kb * 0.02 + $batch * 4
			else if $k == "refaults" then (($m[$k] // -1e9) - $w[$k] | fabs) > $batch
			else $m[$k] != $w[$k] end end end end) |
		 "\($w.path) \($k): memtop \($m[$k]), files \($w[$k])"] as $bad |
		([$want[] | .path] - [$mt[0].cgroups[].path]) as $missing |
		if ($bad | length) > 0 or ($missing | length) > 0 then ($bad + ($missing | map("\(.) not listed")) | join("; ")) else empty end
	' >"$WORK/bad" || fail "$what: jq failed"
	[ -s "$WORK/bad" ] && fail "$what: memtop and the files disagree: $(cat "$WORK/bad")"
	echo "$what: the same as the files: $(jq -c --arg p "/$top/b" '.cgroups[] | select(.path == $p) | {usage_kb, limit_kb, nprocs, anon_kb}' "$WORK/mt.json")," \
		"rf $(jq -c --arg p "/$top/rf" '.cgroups[] | select(.path == $p) | {file_kb, refaults}' "$WORK/mt.json")"
}

check "BPF"
check "--no-bpf" --no-bpf
grep -q '"oom_kills_kernel":1' "$WORK/files.json" || fail "the kernel counted no OOM kill: $(cat "$WORK/files.json")"
jq -e --arg p "/$top/rf" 'select(.path == $p) | .refaults > 1000' "$WORK/files.json" >/dev/null ||
	fail "$top/rf did not refault: $(cat "$WORK/files.json")"

# the files memtop keeps open from one refresh to the next (cgroup_files.c): with BPF, after
# the first refresh (the self-check), none of the tree's; without, memory.stat among them
# kept FILE ARGS...: the names of the tree's files memtop holds open after 3 refreshes
kept() {
	_out=$1
	shift
	: >"$WORK/kept.json" # (before the job's own redirection: _three reads it at once)
	"$MEMTOP" --json --cgroups -d 0.1 "$@" >"$WORK/kept.json" 2>"$WORK/err" &
	_pid=$!
	# after the 3rd line (30 s at most), while it runs
	_three() { [ "$(wc -l <"$WORK/kept.json")" -ge 3 ]; }
	eventually $HANG _three || fail "memtop $* printed no 3 lines in 30 s: $(cat "$WORK/err")"
	kill -0 "$_pid" 2>/dev/null || fail "memtop $* ended: $(cat "$WORK/err")"
	ls -l "/proc/$_pid/fd" | awk -v t="/$top" 'index($NF, t) { n = split($NF, a, "/"); print a[n] }' |
		sort -u >"$_out"
	kill "$_pid" 2>/dev/null
	wait "$_pid" 2>/dev/null
}
kept "$WORK/kept.bpf"
kept "$WORK/kept.files" --no-bpf
grep -qx memory.stat "$WORK/kept.files" || fail "--no-bpf keeps no memory.stat open: $(cat "$WORK/kept.files")"
# v2's memory.pressure has no BPF source: it is read from its file, through its cgroup's
# directory
if [ -f "$ROOT/$top/memory.pressure" ]; then
	grep -vx -e memory.pressure -e "$top" -e a -e x -e b -e oom -e rf "$WORK/kept.bpf" >"$WORK/kept.other"
	mv "$WORK/kept.other" "$WORK/kept.bpf"
fi
[ -s "$WORK/kept.bpf" ] && fail "with BPF memtop still reads the tree's files: $(cat "$WORK/kept.bpf" | tr '\n' ' ')"
echo "files of the tree kept open: with BPF none; with --no-bpf $(tr '\n' ' ' <"$WORK/kept.files")"

# the iterator's link: held with --cgroups and without (the forecasts read the limited
# cgroups at every refresh, doc/forecasts.md), the same count on the second refresh (the
# self-check passed: it stays in use)
plain=$("$MEMTOP" --json -n 2 -d 0.2 | jq -s '[.[].bpf.programs] | unique | .[]')
with=$("$MEMTOP" --json -n 2 -d 0.2 --cgroups | jq -s '[.[].bpf.programs] | unique | .[]')
[ "$with" = "$plain" ] || fail "with --cgroups memtop holds $with BPF links, without $plain"
