#!/bin/sh
# memtop-test: alone
# Beside a service that pins its programs (--record --pin), the screen's first refresh
# takes the processes from the service's task iterator, not from a /proc walk: with 300
# processes added, a memtop screen that draws one screen (-n 1) opens no /proc/PID/statm
# (strace; but pid 1's, read from /proc where the iterator starts after it), where alone
# it opens one for each process; its first screen says
# whose programs it uses, not "BPF loading…", and shows a child's RSS as statm has it.
. "$(dirname "$0")/lib.inc"
. "$(dirname "$0")/pins.inc"
. "$(dirname "$0")/first.inc"
need_bpf tasks
command -v strace >/dev/null || skip "needs strace"

first_kids 300
statm_opens
alone=$opens
[ "$alone" -ge 300 ] || fail "alone, the screen opened $alone statm files for 300 processes and more"

svc_start
statm_opens
beside=$opens
echo "statm opened: $alone alone, $beside beside the service"
[ "$beside" -eq 0 ] || fail "beside the service, the screen opened $beside statm files: $(head -n 3 "$WORK/statm")"
# the first screen: whose programs, the child's RSS
first_screen
printf '%s\n' "$screen" | grep -q "memtop $SVC" ||
	fail "the first screen does not use the service's programs: $(printf '%s\n' "$screen" | grep '^BPF')"
echo "pass: $row"
