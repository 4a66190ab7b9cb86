#!/bin/sh
# memtop-test: beside others
# Loading the BPF programs parses the kernel's BTF (/sys/kernel/btf/vmlinux, 5.5 MB on
# 6.18) once, for the concerns' checks, and libbpf's load takes that parse (kbtf_lend)
# instead of parsing it again. Where the kernel lets the file be mapped (6.16 on),
# memtop maps it and parses the mapping: mapped once for a run that loads one object,
# and no read() of the file at all (strace), so that the parse holds one copy of it,
# not the file read into a buffer and copied; and the peak resident size (VmHWM) of a
# --json run that loads them is above that of a run that loads none (--no-bpf) by less
# than 1.5 times the file's size (6.18, 5.2 MiB of BTF, 100 processes: 6.1 MiB above,
# 10.9 MiB with two copies at once).
# libbpf 1.1 (Debian 12) reads the file itself: its loader maps it only because it calls
# memtop's btf__load_vmlinux_btf (kbtf.c) through its PLT. Where that stops (a libbpf
# that binds its own call, a static libbpf), the load still works, with libbpf's copies:
# this test then fails on the bytes read, and its run still names every concern on.
. "$(dirname "$0")/lib.inc"
need_bpf
command -v strace >/dev/null || skip "needs strace"

btf=/sys/kernel/btf/vmlinux
strace -f -y -e trace=read,mmap -o "$WORK/trace" "$MEMTOP" --json -n 2 -d 0.3 -p $$ >"$WORK/out" 2>&1 ||
	fail "memtop --json -n 2 under strace failed"
tail -n 1 "$WORK/out" | grep -q '"tasks":"on"' ||
	fail "the tasks concern is not on: $(tail -n 1 "$WORK/out" | grep -o '"concerns":{[^}]*}')"
grep -q "mmap(.*<$btf>" "$WORK/trace" || fail "$btf never mapped: $(grep -c "<$btf>" "$WORK/trace") calls on it"
grep -E "mmap\(.*<$btf>.*= -1 " "$WORK/trace" >"$WORK/nomap" && skip "this kernel does not map $btf: $(head -n 1 "$WORK/nomap")"
bytes=$(grep -E "^[0-9]+ +read\([0-9]+<$btf>" "$WORK/trace" | sed -n 's/.*= \([0-9][0-9]*\)$/\1/p' |
	awk '{ s += $1 } END { print s + 0 }')
[ "$bytes" -eq 0 ] || fail "$bytes bytes of $btf read (it is $(stat -c %s $btf) bytes):" \
	"libbpf's loader no longer calls memtop's btf__load_vmlinux_btf"
maps=$(grep -cE "mmap\(.*<$btf>" "$WORK/trace")
[ "$maps" -eq 1 ] || fail "$btf mapped $maps times, not once, loading one object"
echo "$btf mapped once, 0 bytes read"

# hwm ARGS...: VmHWM (kB) of memtop --json ARGS after its second line
hwm() {
	mt_start -d 0.3 -p $$ "$@"
	mt_wait_lines 2 60
	v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$MTPID/status")
	mt_stop
	echo "$v"
}
base=$(hwm --no-bpf)
with=$(hwm)
size_kb=$(($(stat -c %s $btf) / 1024))
echo "VmHWM: $with kB loading BPF, $base kB with --no-bpf; the BTF is $size_kb kB"
[ $((with - base)) -lt $((size_kb * 3 / 2)) ] ||
	fail "loading BPF took the peak $((with - base)) kB above --no-bpf's, 1.5 x the BTF is $((size_kb * 3 / 2)) kB"
echo "pass"
