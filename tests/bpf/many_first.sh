#!/bin/sh
# memtop-test: timeout 300
# With many processes (4,000 and more, as root), the screen loads its BPF programs before
# its first refresh and takes that refresh's processes from the task iterator, which is
# out before a /proc walk of them would be: with 4,100 processes added, a memtop screen
# that draws one screen (-n 1) opens no /proc/PID/statm (strace; but pid 1's, read from
# /proc where the iterator starts after it); its first screen, the next refresh an hour
# away, says which programs are on, not "BPF loading…", and shows a child's RSS as statm
# has it. (Alone: every memtop started meanwhile would see the 4,100 processes too.)
. "$(dirname "$0")/lib.inc"
. "$(dirname "$0")/first.inc"
need_bpf tasks
command -v strace >/dev/null || skip "needs strace"

first_kids 4100
statm_opens
echo "statm opened for $opens processes of $(ls /proc | grep -c '^[0-9]')"
[ "$opens" -eq 0 ] || fail "with 4,100 processes the first refresh opened $opens statm files: $(head -n 3 "$WORK/statm")"
first_screen
printf '%s\n' "$screen" | grep -q '^BPF on' ||
	fail "the first screen's BPF line: $(printf '%s\n' "$screen" | grep '^BPF')"
echo "pass: $row"
