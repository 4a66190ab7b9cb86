#!/bin/sh
# Runs memtop's tests and ends with "N passed, N failed, N skipped".
# Unit tests: build/unit_tests (cmocka). Script tests: tests/{cli,screen,bpf}/*.sh, each
# exits 0 (pass), 77 (skip) or anything else (fail). With MEMTOP_REQUIRE_BPF=1 a skip fails.
#
# Which tests: the arguments, else $T (make test T=...), words separated by spaces; each a
# directory (cli, screen, bpf, unit), a test (screen/tree.sh, screen/tree, tree) or a shell
# pattern of them (quoted: 'bpf/oom*'). None: every test. A word that names no test is an
# error (exit 2) before anything runs.
#
# Each test gets TEST_TIMEOUT seconds (120); then its process group gets TERM, so its EXIT
# trap can clean up, and KILL TEST_KILL_AFTER seconds (15) later, and it fails as timed out.
# Whatever a test leaves behind is stopped after it: its process group, and the tmux
# servers it started (each test gets a TMUX_TMPDIR of its own).
cd "$(dirname "$0")/.." || exit 1
export MEMTOP="$PWD/build/memtop" HELPERS="$PWD/build/tests" TESTS="$PWD/tests"
limit=${TEST_TIMEOUT:-120} grace=${TEST_KILL_AFTER:-15}
case "$limit$grace" in
*[!0-9]* | "")
	echo "TEST_TIMEOUT and TEST_KILL_AFTER are whole seconds, not '$limit' and '$grace'" >&2
	exit 2
	;;
esac
passed=0 failed=0 skipped=0 failures=""

# the selection, as words without globbing; "tests/cli/" is "cli"
set -f
[ $# -gt 0 ] || set -- ${T:-}
sel=""
for s; do
	s=${s#./} s=${s#tests/}
	while [ "${s%/}" != "$s" ]; do s=${s%/}; done
	[ -n "$s" ] && sel="$sel $s"
done
set +f
all="unit"
for t in tests/cli/*.sh tests/screen/*.sh tests/bpf/*.sh; do
	[ -f "$t" ] && all="$all ${t#tests/}"
done
# selected NAME [WORD...]: NAME (unit, cli/x.sh) is one of the tests the words select
selected() {
	_n=$1
	shift
	for _w; do
		case "$_n" in
		$_w | $_w.sh | $_w/* | */$_w | */$_w.sh) return 0 ;;
		esac
	done
	return 1
}
set -f
for s in $sel; do
	found=0
	for n in $all; do
		selected "$n" "$s" && found=1 && break
	done
	[ $found = 1 ] || {
		echo "no test matches '$s' (tests: cli, screen, bpf, unit, or one of them as screen/tree.sh)" >&2
		exit 2
	}
done
todo="" # the tests to run, in the order of $all
for n in $all; do
	[ -z "$sel" ] || selected "$n" $sel || continue
	todo="$todo $n"
done
set +f

log=$(mktemp -d /tmp/memtop-tests.XXXXXX)
trap 'rm -rf "$log"' EXIT
# ^C or a kill: the test running gets TERM too (it is in a process group of its own), and
# is waited for, so its EXIT trap cleans up
stop=0 tpid=
trap 'stop=1; [ -n "$tpid" ] && kill -TERM "$tpid" 2>/dev/null' INT TERM HUP

# run_limited OUT CMD...: runs CMD with its output in OUT, in a process group of its own,
# for $limit seconds at most; then stops whatever it left running. Sets rc, secs and
# timed_out (1 or 0).
run_limited() {
	out=$1
	shift
	export TMUX_TMPDIR="$log/tmux"
	mkdir -p "$TMUX_TMPDIR"
	: >"$log/pgid"
	start=$(date +%s)
	# timeout makes the process group; the test's shell notes it first
	timeout --kill-after="$grace" "$limit" sh -c \
		'read -r _ _ _ _ g _ </proc/$$/stat && echo "$g" >"$0"; exec "$@"' "$log/pgid" "$@" \
		>"$out" 2>&1 &
	tpid=$!
	while :; do # a trapped signal ends wait early
		wait "$tpid" 2>/dev/null # (no "Killed" when KILL was needed)
		rc=$?
		kill -0 "$tpid" 2>/dev/null || break
	done
	tpid=
	secs=$(($(date +%s) - start))
	timed_out=0
	[ $rc = 124 ] || { [ $rc = 137 ] && [ $secs -ge "$limit" ]; } && timed_out=1
	# what the test left: processes in its group, then tmux servers (they leave the group)
	g=$(cat "$log/pgid")
	if [ -n "$g" ] && kill -0 "-$g" 2>/dev/null; then
		kill -TERM "-$g" 2>/dev/null
		i=0
		while kill -0 "-$g" 2>/dev/null && [ $i -lt 20 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -KILL "-$g" 2>/dev/null
	fi
	for sock in "$TMUX_TMPDIR"/tmux-*/*; do
		[ -S "$sock" ] && tmux -S "$sock" kill-server 2>/dev/null
	done
	rm -rf "$TMUX_TMPDIR"
	unset TMUX_TMPDIR
	if [ $stop = 1 ]; then
		echo "interrupted: $* (and the tests after it) did not finish"
		exit 130
	fi
}

# cmocka: one line per test; count its own verdicts
case " $todo " in
*" unit "*)
	run_limited "$log/unit.out" ./build/unit_tests
	cat "$log/unit.out"
	up=$(grep -c '^\[       OK \]' "$log/unit.out")
	uf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log/unit.out" | awk '{s += $1} END {print s + 0}')
	passed=$((passed + up))
	failed=$((failed + uf))
	if [ $timed_out = 1 ]; then
		echo "FAIL  unit_tests (timed out after ${limit}s)"
		failed=$((failed + 1))
		failures="$failures unit_tests(timeout)"
	elif [ "$rc" -ne 0 ] && [ "$uf" -eq 0 ]; then
		failed=$((failed + 1))
		failures="$failures unit_tests(rc=$rc)"
	fi
	;;
esac

for name in $todo; do
	[ "$name" != unit ] || continue
	t=tests/$name
	run_limited "$log/out" sh "$t"
	if [ $timed_out = 1 ]; then
		echo "FAIL  $name (timed out after ${limit}s)"
		sed 's/^/    /' "$log/out"
		failed=$((failed + 1))
		failures="$failures $name"
	elif [ $rc -eq 77 ] && [ "${MEMTOP_REQUIRE_BPF:-0}" = 1 ]; then
		echo "FAIL  $name (skipped, but MEMTOP_REQUIRE_BPF=1) ${secs}s"
		sed 's/^/    /' "$log/out"
		failed=$((failed + 1))
		failures="$failures $name"
	elif [ $rc -eq 77 ]; then
		echo "SKIP  $name: $(tail -n 1 "$log/out")"
		skipped=$((skipped + 1))
	elif [ $rc -eq 0 ]; then
		echo "PASS  $name ${secs}s"
		passed=$((passed + 1))
	else
		echo "FAIL  $name (exit $rc) ${secs}s"
		sed 's/^/    /' "$log/out"
		failed=$((failed + 1))
		failures="$failures $name"
	fi
done
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
