#!/bin/sh
# memtop-test: beside others
# The task iterator's check at start (memtop's own record against /proc/self/statm,
# bpf_tasks.c) walks memtop's own threads alone, where the kernel gives a task iterator a
# pid (Linux 6.1 on), not every task on the machine: with 300 processes added, the
# iterator the check reads first (strace: the first BPF_ITER_CREATE) gives less than a
# fiftieth of the bytes the refresh's walk gives, and the tasks concern is on.
. "$(dirname "$0")/lib.inc"
need_bpf tasks
command -v strace >/dev/null || skip "needs strace"

"$HELPERS/many_children" 300 >"$WORK/kids" &
KIDS="$KIDS $!"
wait_ready "$WORK/kids" || fail "many_children never got ready"
strace -f -y -e trace=bpf,read -o "$WORK/trace" "$MEMTOP" --json -n 1 -p $$ >"$WORK/out" 2>&1 ||
	fail "memtop --json -n 1 under strace failed: $(tail -n 3 "$WORK/out")"
grep -q '"tasks":"on"' "$WORK/out" ||
	fail "the tasks concern is not on: $(grep -o '"concerns":{[^}]*}' "$WORK/out")"
# each iterator read: the bytes read from it, in the order they were made
set -- $(awk '
/BPF_ITER_CREATE/ && / = [0-9]+$/ { fd = $NF; at[fd] = ++n; bytes[n] = 0; next }
/read\([0-9]+<anon_inode:bpf_iter>/ && / = [0-9]+$/ {
	fd = $2; sub(/^read\(/, "", fd); sub(/<.*/, "", fd)
	if (fd in at) bytes[at[fd]] += $NF
}
END { max = 0; for (i = 1; i <= n; i++) if (bytes[i] > max) max = bytes[i]; print n + 0, bytes[1] + 0, max }' "$WORK/trace")
echo "$1 iterators read; the first (the check) gave $2 bytes, the largest (the walk) $3"
[ "$1" -ge 2 ] || fail "$1 iterators read, not the check's and the walk's"
[ $(($2 * 50)) -lt "$3" ] ||
	fail "the check read $2 bytes from the iterator, the walk $3: it walked every task"
echo pass
