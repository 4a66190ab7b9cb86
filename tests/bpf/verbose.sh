#!/bin/sh
# memtop-test: beside others
# --verbose and MEMTOP_DEBUG=1 pass libbpf's messages to stderr while the programs load,
# for the one object of the concerns, naming a program of each; without them stderr stays
# empty. stdout is the refresh alone.
. "$(dirname "$0")/lib.inc"
need_bpf

# run NAME ARGS...: memtop -b -n 1 ARGS, its stdout in $WORK/NAME.out, stderr in .err
run() {
	name=$1
	shift
	"$@" -b -n 1 >"$WORK/$name.out" 2>"$WORK/$name.err" || fail "$name: memtop exited $?"
	grep -q '^memtop ' "$WORK/$name.out" || fail "$name: no refresh on stdout: $(head -3 "$WORK/$name.out")"
	! grep -q '^libbpf: ' "$WORK/$name.out" || fail "$name: libbpf's messages on stdout"
}

# loud NAME ARGS...: libbpf lines on stderr, naming the object and a program of each
# concern (OOM kills, reclaim, swap-ins, the task iterator)
loud() {
	run "$@"
	n=$(grep -c '^libbpf: ' "$WORK/$1.err")
	[ "$n" -gt 0 ] || fail "$1: no libbpf lines on stderr: $(head -5 "$WORK/$1.err")"
	grep -q memtop_bpf "$WORK/$1.err" || fail "$1: libbpf said nothing of memtop_bpf"
	for prog in mark_victim direct_begin swapin_exit tasks; do
		grep -q "prog '$prog'" "$WORK/$1.err" || fail "$1: libbpf said nothing of $prog"
	done
	echo "$1: $n libbpf lines"
}

# silent NAME ARGS...: nothing on stderr
silent() {
	run "$@"
	[ ! -s "$WORK/$1.err" ] || fail "$1: stderr is not empty: $(head -5 "$WORK/$1.err")"
	echo "$1: stderr empty"
}

loud verbose env -u MEMTOP_DEBUG "$MEMTOP" --verbose
loud debug env MEMTOP_DEBUG=1 "$MEMTOP"
silent plain env -u MEMTOP_DEBUG "$MEMTOP"
silent debug0 env MEMTOP_DEBUG=0 "$MEMTOP"
silent nobpf env -u MEMTOP_DEBUG "$MEMTOP" --verbose --no-bpf
