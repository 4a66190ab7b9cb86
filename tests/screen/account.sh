#!/bin/sh
# The memory account on screen: A opens it, with the bar (a letter per part, ASCII under
# the C locale), the table of the parts, the sum line saying the parts sum to MemTotal
# (100 % of /proc/meminfo's), and the tmpfs mounts; q returns to the process table;
# --account starts on it.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
total=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)

tm_start 100 40 "LC_ALL=C '$MEMTOP' -d 0.5 --no-bpf"
wait_for "PID USER" || fail "memtop did not start"
tm send-keys A
wait_for "Memory account" || fail "A did not open the account"
wait_for "of MemTotal $total KiB (100.0 %)" || fail "no sum line for MemTotal $total"
for label in "Processes' anonymous" "Page cache (files)" "Shmem and tmpfs" \
	"Slab reclaimable" "Slab unreclaimable" "Page tables" "Kernel stacks" "Vmalloc" \
	"Per-CPU" "Huge pages reserved" "Zswap pool" "Free" "Other kernel"; do
	screen_text | grep -qF "$label" || fail "no '$label' row"
done
screen_text | grep -q '^Mem\[[a-z]*f*' || fail "no bar of part letters: $(screen_text | sed -n 2p)"
screen_text | grep -q "tmpfs mounts:" || fail "no tmpfs mounts"
next_refresh 5 || true
screen_text | sed -n 1,22p
tm send-keys q
wait_for "PID USER" || fail "q did not return to the table"
tm_kill

tm_start 100 40 "'$MEMTOP' -d 0.5 --no-bpf --account"
wait_for "Memory account" || fail "--account did not start on the account"
wait_for "parts sum to" || fail "no sum line"
