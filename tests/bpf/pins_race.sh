#!/bin/sh
# memtop-test: alone
# memtop-test: timeout 300
# Two --pin services started together (both units at boot) end with one complete set of
# pins, every round of 8: once both record (their programs loaded, and pinned or not), a
# memtop started beside them uses the programs of one of them, which the other, stopped
# first, leaves in place; the one whose they are, stopped, removes them, and nothing of
# either is left in /sys/fs/bpf.
. "$(dirname "$0")/lib.inc"
. "$(dirname "$0")/pins.inc"
need_bpf

# beside: the pid of the memtop whose programs a memtop started now uses, else its reason
beside() {
	"$MEMTOP" --json -n 1 -d 0.3 >"$OUT" 2>"$WORK/err" || fail "memtop exited $?: $(cat "$WORK/err")"
	jq -r '.bpf.reason | capture("^BPF programs of memtop (?<p>[0-9]+)$").p // .' "$OUT"
}
# mt_child PID: memtop under strace (PID): its pid, once it runs
mt_child() {
	case $same_cpu in *strace*) ;; *) echo "$1"; return ;; esac
	eventually $HANG pgrep -P "$1" >/dev/null || fail "no memtop under strace $1"
	pgrep -P "$1"
}
# leftovers: what the two services ($a, $b) left in bpffs: their pins, and the directories
# each names by its pid while it pins or removes a set (other tests' memtops have others)
leftovers() { ls /sys/fs/bpf | grep -E "^(memtop_(new|old)_($a|$b)|${PINS##*/})\$"; }
both_record() { [ -s "$WORK/a.rec" ] && [ -s "$WORK/b.rec" ]; }
# ended PID: PID is gone or a zombie (ended, not yet waited for: kill -0 still finds it)
ended() {
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ -z "$_st" ] || [ "$_st" = Z ]
}
# stopped JOB WHAT: waits for the background job JOB (a service, or strace running one)
# to end after a TERM to WHAT; fails, saying where, if it does not
stopped() {
	eventually $HANG ended "$1" || {
		echo "round $r: where each process and thread was $HANG s after TERM:"
		for p in $2 $1; do where "$p"; done
		kill -KILL $2 $1 2>/dev/null
		fail "round $r: memtop $2 did not stop on TERM: $(cat "$WORK/a.err" "$WORK/b.err")"
	}
	wait "$1" 2>/dev/null
}
# where PID: each thread of PID: its name, state, wait channel and kernel stack
where() {
	for t in /proc/"$1"/task/*; do
		[ -d "$t" ] || continue
		echo "  $1/${t##*/} $(cat "$t/comm") $(sed -n 's/^State:\t//p' "$t/status")" \
			"wchan $(cat "$t/wchan" 2>/dev/null)"
		sed 's/^/    /' "$t/stack" 2>/dev/null | head -n 12
	done
}

# both on one CPU, which they share as they load, so that they come to pin at about the
# same time; and where strace is, each bpf(2) call held 20 ms, which widens the moments
# each spends pinning (some 30 calls) as much as the difference of their loads
same_cpu=""
command -v taskset >/dev/null && same_cpu="taskset -c $(taskset -cp $$ | sed 's/.*: *//; s/[-,].*//')"
command -v strace >/dev/null &&
	same_cpu="$same_cpu strace -f -qq -o /dev/null -e trace=bpf -e inject=bpf:delay_enter=20000"
rounds=8 complete=0 r=0 log=""
while [ $r -lt $rounds ]; do
	r=$((r + 1))
	rm -f "$WORK/a.rec" "$WORK/b.rec"
	$same_cpu "$MEMTOP" --record "$WORK/a.rec" --pin -d 0.5 2>"$WORK/a.err" &
	sa=$!
	$same_cpu "$MEMTOP" --record "$WORK/b.rec" --pin -d 0.5 2>"$WORK/b.err" &
	sb=$!
	SVC="$sa $sb"
	a=$(mt_child "$sa") b=$(mt_child "$sb")
	SVC="$a $b $sa $sb"
	eventually 60 both_record || fail "round $r: the services did not both record: $(cat "$WORK/a.err" "$WORK/b.err")"
	owner=$(beside)
	case $owner in
	"$a") other=$b sother=$sb sowner=$sa ;;
	"$b") other=$a sother=$sa sowner=$sb ;;
	*) other="" sowner="$sa $sb" ;;
	esac
	if [ -n "$other" ]; then
		kill "$other"
		stopped "$sother" "$other"
		now=$(beside)
		[ "$now" = "$owner" ] || other="" owner="after $other stopped: $now"
	fi
	kill $a $b 2>/dev/null
	for s in $sowner; do stopped "$s" "$a $b"; done
	SVC=""
	left=$(leftovers)
	[ -z "$left" ] || owner="$owner; left: $left"
	if [ -n "$other" ] && [ -z "$left" ]; then
		complete=$((complete + 1))
	else
		log="$log
round $r: $owner"
	fi
	rm -rf "$PINS" /sys/fs/bpf/memtop_new_$a /sys/fs/bpf/memtop_old_$a \
		/sys/fs/bpf/memtop_new_$b /sys/fs/bpf/memtop_old_$b
done
[ $complete = $rounds ] || fail "$complete of $rounds rounds ended with one complete set of pins:$log"
echo "$complete of $rounds rounds of two --pin services started together: one complete set each," \
	"kept while the other stopped, removed by its owner"
