#!/bin/sh
# The process table from the BPF task iterator is what /proc says: for every process on
# the system whose /proc/PID/stat and statm read the same just before and just after
# memtop's refresh, memtop's figures equal them (RSS, VSZ, SHR, TXT, DATA from statm;
# parent, minor and major faults from stat, faults summed over the threads as /proc does),
# including pid 1, kernel threads (zeros), a zombie, a process of another user and one
# whose threads faulted (half of them exited since); and swap: a process with pages in
# swap shows its VmSwap (/proc/PID/status). Every process that lived through both reads
# is listed.
. "$(dirname "$0")/lib.inc"
need_bpf tasks
[ -x "$HELPERS/thread_faults" ] || fail "build first: $HELPERS/thread_faults"

# a process with 8 threads that faulted in 4 MiB each, 4 of them gone since
"$HELPERS/thread_faults" 8 4 memtop-iter-$$ >"$WORK/threads" 9>&- &
threads=$!
KIDS="$KIDS $threads"
wait_ready "$WORK/threads" || fail "thread_faults never got ready"
# a zombie: a child its parent (exec'd into sleep) never reaps
sh -c 'sleep 0 & exec sleep 300' 9>&- &
zparent=$!
KIDS="$KIDS $zparent"
# a process of another user
setpriv --reuid=nobody --regid=nogroup --clear-groups sleep 300 9>&- &
other=$!
KIDS="$KIDS $other"
i=0
zombie=
until [ -n "$zombie" ] && grep -q '^State:.*Z' "/proc/$zombie/status" 2>/dev/null; do
	[ $i -lt 600 ] || fail "no zombie appeared"
	sleep 0.1
	i=$((i + 1))
	zombie=$(awk '{ print $1 }' "/proc/$zparent/task/$zparent/children" 2>/dev/null)
done

# a process with pages in swap: 64 MiB touched in a 32 MiB memory cgroup
swapfile_on 128
memcg memtop-iter-$$ 33554432
in_memcg "$HELPERS/alloc_child" 64 0 memtop-iter-$$ >"$WORK/swapped" 9>&-
swapped=$KID
wait_ready "$WORK/swapped" || fail "alloc_child never got ready"
vmswap() { awk '$1 == "VmSwap:" { print $2 }' "/proc/$1/status"; }
[ "$(vmswap "$swapped")" -gt 16384 ] || fail "only $(vmswap "$swapped") kB of alloc_child in swap"

# pid ppid minflt majflt start size resident shared text data ran, from /proc (stat's
# fields after the comm's last ") ", statm's, and the nanoseconds it ran, schedstat's
# first, "-" where the kernel keeps none); read by cat, which a process that ends between
# the open and the read leaves without a line (mawk's getline gives up the whole read)
proc_read() {
	for d in /proc/[0-9]*; do
		s=$(cat "$d/stat" 2>/dev/null) && m=$(cat "$d/statm" 2>/dev/null) || continue
		t=$(cat "$d/schedstat" 2>/dev/null) || t=-
		printf '%s|%s|%s|%s\n' "${d#/proc/}" "${s##*) }" "$m" "${t%% *}"
	done | awk -F'|' '{
		n = split($2 " " $3, x, " ")
		print $1, x[2], x[8], x[10], x[20], x[n - 6], x[n - 5], x[n - 4], x[n - 3], x[n - 1], $4
	}'
}
pk=$(($(getconf PAGESIZE) / 1024))
# compare: statm's figures equal where statm read the same before and after and the
# process did not run meanwhile (one that ran may have grown and shrunk back, as other
# tests' processes do); fault counts between the two reads (they only grow) and the
# parent equal, where the process's start time is the same in both (the same process)
compare() {
	awk -v pk="$pk" -v want="1 $threads $zombie $other" '
	FILENAME == ARGV[1] { a[$1] = $0; next }
	FILENAME == ARGV[2] { b[$1] = $0; next }
	{ m[$1] = $0 }
	END {
		bad = 0
		n = 0
		for (p in a) {
			if (!(p in b))
				continue
			split(a[p], f); split(b[p], h)
			if (f[5] != h[5])
				continue # the pid was recycled
			if (!(p in m)) {
				print "pid " p " lived through the refresh but memtop does not list it"
				bad = 1
				continue
			}
			split(m[p], g)
			if (g[2] != f[2] && f[2] == h[2]) {
				print "pid " p ": parent " f[2] ", memtop " g[2]
				bad = 1
			}
			if (g[3] < f[3] || g[3] > h[3] || g[4] < f[4] || g[4] > h[4]) {
				print "pid " p ": faults " f[3] ".." h[3] " minor, " f[4] ".." h[4] \
				      " major; memtop " g[3] ", " g[4]
				bad = 1
			}
			if (f[6] " " f[7] " " f[8] " " f[9] " " f[10] " " f[11] != \
			    h[6] " " h[7] " " h[8] " " h[9] " " h[10] " " h[11])
				continue
			fromproc = f[7] * pk " " f[6] * pk " " f[8] * pk " " f[9] * pk " " f[10] * pk
			got = g[5] " " g[6] " " g[7] " " g[8] " " g[9]
			if (fromproc != got) {
				print "pid " p ": statm says rss vsz shr txt data " fromproc ", memtop " got
				bad = 1
			}
			n++
			done_[p] = 1
		}
		split(want, w)
		for (i in w) if (!(w[i] in done_)) {
			print "again: pid " w[i] " ran or its statm changed during the refresh"
			bad = 2
		}
		print n " processes compared"
		exit bad
	}' "$WORK/a" "$WORK/b" "$WORK/m" >"$WORK/cmp"
}
tries=0
while :; do
	proc_read >"$WORK/a"
	"$MEMTOP" --json -n 1 >"$WORK/json" || fail "memtop --json exited $?"
	proc_read >"$WORK/b"
	[ "$(jq -r .bpf.concerns.tasks "$WORK/json")" = on ] ||
		fail "the task iterator is off: $(jq -r .bpf.reason "$WORK/json")"
	jq -r '.processes[] | "\(.pid) \(.ppid) \(.minflt) \(.majflt) \(.rss_kb) \(.vsz_kb) \(.shr_kb) \(.txt_kb) \(.data_kb) \(.user)"' \
		"$WORK/json" >"$WORK/m"
	compare && break
	rc=$?
	tries=$((tries + 1))
	[ $rc = 2 ] && [ $tries -lt 5 ] || fail "$(cat "$WORK/cmp")"
done
n=$(tail -1 "$WORK/cmp" | awk '{ print $1 }')
[ "$n" -gt 20 ] || fail "only $n processes compared"

# swap: VmSwap, from the iterator (the status file is not read for it); taken again
# while the kernel still moves the child's pages to swap (slowly, in an emulated guest)
swap_read() {
	before=$(vmswap "$swapped")
	"$MEMTOP" --json -n 1 -p "$swapped" >"$WORK/swap.json" || fail "memtop --json -p exited $?"
	after=$(vmswap "$swapped")
	got=$(jq '.processes[0].swap_kb' "$WORK/swap.json")
	[ "$before" = "$after" ] && [ "$got" = "$before" ] && return
	[ "$before" != "$after" ] || fail "alloc_child: VmSwap $before kB, memtop $got"
	sleep 1
	return 1
}
tries 20 swap_read || fail "alloc_child: VmSwap $before then $after kB, memtop $got"

# kernel threads: zeros
kt=$(awk '$2 == 2 { print $1; exit }' "$WORK/a")
[ -n "$kt" ] || fail "no kernel thread found"
jq -e --argjson p "$kt" '.processes[] | select(.pid == $p) |
	.rss_kb == 0 and .vsz_kb == 0 and .data_kb == 0' "$WORK/json" >/dev/null ||
	fail "kernel thread $kt has memory in memtop"
# the other user's process
[ "$(jq -r --argjson p "$other" '.processes[] | select(.pid == $p) | .user' "$WORK/json")" = nobody ] ||
	fail "pid $other runs as nobody; memtop says $(jq -r --argjson p "$other" '.processes[] | select(.pid == $p) | .user' "$WORK/json")"
# the threads' faults: more than the live threads' own (the exited threads' count too)
live=$(cat /proc/$threads/task/*/stat | awk '{ sub(/.*\) /, ""); s += $8 } END { print s }')
got=$(jq --argjson p "$threads" '.processes[] | select(.pid == $p) | .minflt' "$WORK/json")
[ "$got" -gt "$live" ] || fail "thread_faults: memtop $got minor faults, live threads alone $live"
exit 0
