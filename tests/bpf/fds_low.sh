#!/bin/sh
# memtop-test: long
# memtop-test: beside others
# memtop-test: timeout 300
# Few file descriptors: at every `ulimit -n` from 16 to 64, `--json -n 3` (and `-b -n 3`
# at 16, 32, 48 and 64, saying on stderr what --json said) exits 0 with every refresh
# read from /proc, whatever the BPF programs took. The BPF concerns the descriptors leave
# no room for are off, JSON bpf.concerns "off: too few file descriptors (ulimit -n N)",
# and one line on stderr names them; where none is off for them, stderr is empty. At 16
# at least one is off for them, at 64 at least one is on. With fewer descriptors than
# even /proc needs, memtop exits 1 and its last line on stderr says what it could not
# read, never 0 with a refresh that lists no process. (53 runs that load BPF programs:
# more than the default time on a busy machine.)
. "$(dirname "$0")/lib.inc"
need_bpf oom

# run N MODE: memtop MODE -n 3 under ulimit -n N; its output in $WORK/N.MODE.out, its
# stderr in .err, its exit status in .rc
run() {
	sh -c 'ulimit -n "$1" && shift && exec "$@"' sh "$1" "$MEMTOP" "$2" -n 3 -d 0.1 \
		>"$WORK/$1.$2.out" 2>"$WORK/$1.$2.err"
	echo $? >"$WORK/$1.$2.rc"
}
# the runs, three at a time (each process's descriptors are its own; the refreshes' waits
# overlap): --json at 4 to 64, -b at 16, 32, 48 and 64
for lane in 0 1 2; do
	(
		k=0
		for n in $(seq 4 64); do
			for mode in --json -b; do
				[ "$mode" = --json ] || [ $((n % 16)) = 0 ] || continue
				k=$((k + 1))
				[ $((k % 3)) = "$lane" ] || continue
				run "$n" "$mode"
			done
		done
	) &
	lanes="${lanes:-} $!"
done
wait $lanes
# took N MODE: run N MODE's output and stderr into $WORK/out and $WORK/err; its status
took() {
	cp "$WORK/$1.$2.out" "$WORK/out" && cp "$WORK/$1.$2.err" "$WORK/err" ||
		fail "ulimit -n $1: memtop $2 did not run"
	return "$(cat "$WORK/$1.$2.rc")"
}

# check_err N OFF: stderr is the one line naming the OFF concerns (a count) as off for the
# descriptors, or empty where OFF is 0
check_err() {
	if [ "$2" = 0 ]; then
		[ ! -s "$WORK/err" ] || fail "ulimit -n $1: stderr with no concern off: $(cat "$WORK/err")"
		return
	fi
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "ulimit -n $1: not one line on stderr: $(cat "$WORK/err")"
	line=$(cat "$WORK/err")
	case $line in
	"memtop: "*" off: too few file descriptors (ulimit -n $1)") ;;
	*) fail "ulimit -n $1: stderr says: $line" ;;
	esac
	names=${line#memtop: }
	names=${names% off: *}
	if [ "$names" = BPF ]; then
		named=$nconcerns
	else
		named=$(printf '%s\n' "$names" | awk -F', ' '{ print NF }')
	fi
	[ "$named" = "$2" ] || fail "ulimit -n $1: $2 concerns off in JSON, $named named on stderr: $line"
}

nconcerns=$("$MEMTOP" --json -n 1 | jq '.bpf.concerns | length') || fail "memtop --json failed"
off_16=0 on_64=0 some_off=0
for n in $(seq 16 64); do
	took "$n" --json || fail "--json under ulimit -n $n exited $?: $(cat "$WORK/err")"
	[ "$(wc -l <"$WORK/out")" = 3 ] || fail "ulimit -n $n: $(wc -l <"$WORK/out") lines of JSON, not 3"
	jq -e -s 'length == 3 and all(.[]; (.processes | length) > 0)' "$WORK/out" >/dev/null ||
		fail "ulimit -n $n: a refresh without processes, or not JSON: $(head -c 300 "$WORK/out")"
	# the concerns off for the descriptors, as of the last refresh; none off for others
	st=$(tail -n 1 "$WORK/out" | jq -c .bpf)
	off=$(printf '%s\n' "$st" | jq --arg why "off: too few file descriptors (ulimit -n $n)" \
		'[.concerns[] | select(. == $why)] | length')
	printf '%s\n' "$st" | jq -e --arg why "off: too few file descriptors (ulimit -n $n)" \
		'all(.concerns[]; . == $why or (test("descriptors|Too many open files") | not)) and
		 (.programs > 0) == any(.concerns[]; . == "on")' >/dev/null ||
		fail "ulimit -n $n: $st"
	check_err "$n" "$off"
	on=$(printf '%s\n' "$st" | jq '[.concerns[] | select(. == "on")] | length')
	echo "ulimit -n $n: $on concerns on, $off off for the descriptors"
	[ "$off" -gt 0 ] && some_off=$((some_off + 1))
	[ "$n" = 16 ] && off_16=$off
	[ "$n" = 64 ] && on_64=$on

	[ $((n % 16)) = 0 ] || continue
	cp "$WORK/err" "$WORK/err.json"
	took "$n" -b || fail "-b under ulimit -n $n exited $?: $(cat "$WORK/err")"
	got=$(grep -c '^memtop [0-9].* processes' "$WORK/out")
	[ "$got" = 3 ] || fail "ulimit -n $n: -b printed $got refreshes, not 3"
	cmp -s "$WORK/err" "$WORK/err.json" ||
		fail "ulimit -n $n: -b says on stderr: $(cat "$WORK/err"); --json: $(cat "$WORK/err.json")"
done
[ "$off_16" -gt 0 ] || fail "ulimit -n 16: no concern off for the descriptors"
[ "$on_64" -gt 0 ] || fail "ulimit -n 64: no concern on"
echo "$some_off of 49 limits with concerns off for the descriptors, every one said"

# fewer than /proc needs: exit 1, said last, never a crash nor a table left empty. Below
# 16, each run either exits 0 with processes in every refresh or exits 1 so.
took 5 --json
rc=$?
[ $rc = 1 ] || fail "ulimit -n 5: exit $rc, not 1: $(cat "$WORK/err")"
tail -n 1 "$WORK/err" | grep -q '^memtop: cannot .*: Too many open files$' ||
	fail "ulimit -n 5: stderr says: $(cat "$WORK/err")"
echo "ulimit -n 5: $(tail -n 1 "$WORK/err")"
for n in $(seq 4 15); do
	took "$n" --json
	rc=$?
	if [ $rc = 0 ]; then
		jq -e -s 'length == 3 and all(.[]; (.processes | length) > 0)' "$WORK/out" >/dev/null ||
			fail "ulimit -n $n: exit 0 with a refresh without processes: $(head -c 300 "$WORK/out")"
		echo "ulimit -n $n: every refresh with processes"
	elif [ $rc = 1 ]; then
		tail -n 1 "$WORK/err" | grep -q '^memtop: cannot .*: Too many open files$' ||
			fail "ulimit -n $n: exit 1, stderr says: $(cat "$WORK/err")"
		echo "ulimit -n $n: $(tail -n 1 "$WORK/err")"
	else
		fail "ulimit -n $n: exit $rc: $(cat "$WORK/err")"
	fi
done
