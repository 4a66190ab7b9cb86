#!/bin/sh
# memtop-test: beside others
# Page faults the kernel takes on a process's user memory (read() copying into a fresh
# buffer) are counted and unwound too, labelled apart from user-mode ones. Debian's sort
# on a shuffled file, started by memtop --stacks -- and by perf stat -e
# page-faults,exceptions:page_fault_user,exceptions:page_fault_kernel: memtop's total,
# user-mode and kernel-mode counts are perf's within 5 %; its kfault stacks go through
# filemap_read into sort's read(); the text labels them.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
command -v perf >/dev/null || fail "perf is not installed (scripts/deps.sh installs linux-perf)"
seq 1 400000 | shuf >"$tmp/rand.txt"
j() { jq -r "$1" "$tmp/out"; }

"$MEMTOP" --stacks --json -- sort "$tmp/rand.txt" -o /dev/null >"$tmp/out" 2>"$tmp/err" ||
	fail "memtop --stacks -- sort: $(cat "$tmp/err")"
perf stat -x, -e page-faults,exceptions:page_fault_user,exceptions:page_fault_kernel \
	-- sort "$tmp/rand.txt" -o /dev/null 2>"$tmp/perf" || fail "perf stat: $(cat "$tmp/perf")"
pf() { awk -F, -v e="$1" '$3 == e { print $1 }' "$tmp/perf"; }
all=$(pf page-faults) user=$(pf exceptions:page_fault_user) kern=$(pf exceptions:page_fault_kernel)
[ "$kern" -gt 0 ] || fail "perf counted no kernel-mode faults: $(cat "$tmp/perf")"
within "$(j .faults)" "$all" 5 || fail "memtop: $(j .faults) faults, perf stat page-faults $all"
within "$(j .faults_user)" "$user" 5 || fail "memtop: $(j .faults_user) user-mode faults, perf $user"
within "$(j .faults_kernel)" "$kern" 5 || fail "memtop: $(j .faults_kernel) kernel-mode faults, perf $kern"
[ "$(j .faults)" = $(($(j .faults_user) + $(j .faults_kernel))) ] || fail "faults is not user + kernel"
j '[.stacks[] | select(.kind == "kfault") | [.frames[] | .symbol // "?"] | join(",")] | .[]' >"$tmp/k"
grep -q 'filemap_read,.*,read,' "$tmp/k" || fail "no kfault stack from read through filemap_read: $(head -3 "$tmp/k")"
echo "sort: memtop $(j .faults) faults ($(j .faults_user) user, $(j .faults_kernel) kernel mode), perf stat $all ($user, $kern)"

"$MEMTOP" --stacks -- sort "$tmp/rand.txt" -o /dev/null >"$tmp/out" 2>"$tmp/err" ||
	fail "memtop --stacks -- sort (text): $(cat "$tmp/err")"
grep -Eq '^pid [0-9]+ \(sort\): .* page faults \([0-9]+ in user mode, [0-9]+ in kernel mode on user memory\)' "$tmp/out" ||
	fail "the header does not tell the kinds of faults: $(head -1 "$tmp/out")"
grep -Eq '^kfault: [0-9.]+ %, ~[0-9]+ kernel-mode faults on user memory' "$tmp/out" ||
	fail "no kfault stack labelled: $(grep '^kfault' "$tmp/out" | head -2)"
