#!/bin/sh
# Runs memtop's tests and ends with "N passed, N failed, N skipped".
# Unit tests: build/unit_tests (cmocka). Script tests: tests/{cli,screen,bpf,pkg}/*.sh, each
# exits 0 (pass), 77 (skip) or anything else (fail). With MEMTOP_REQUIRE_BPF=1 a skip fails.
#
# Which tests: the arguments, else $T (make test T=...), words separated by spaces; each a
# directory (cli, screen, bpf, unit; pkg: the Debian package, and vm, run only when named),
# a test (screen/tree.sh, screen/tree, tree) or a shell pattern of them (quoted: 'bpf/oom*').
# None: every test but pkg's and vm's. A
# word that names no test is an error (exit 2) before anything runs.
#
# Tests run in TEST_JOBS lanes at once (the CPUs + 1), then, one at a time with nothing
# else running, the BPF tests and the scripts that say "# memtop-test: alone": they cause
# or judge what the whole machine shares (OOM kills, whose banners every screen shows,
# swap-ins, limited cgroups the verdict names, MemAvailable's trend). A test that says
# "# memtop-test: beside others" runs beside the others in one of two lanes of their own,
# one at a time in each: one for the BPF tests that judge only their own processes (the
# stacks samplers, the leak tracer, the run time of memtop's own programs), which goes on
# beside the one-at-a-time phase, one for the others (the tests that run processes as
# nobody, some of which count all of nobody's).
# Beside the one-at-a-time tests run, in the other lanes, the tests that neither cause nor
# judge what the machine shares: the unit tests, the sanitized batch tests (asan:cli/,
# each fed its own files, flags, recordings or clients) and the scripts that say
# "# memtop-test: anywhere"; so the CPUs do not idle while the OOM kills and swap-ins
# are awaited. They start as soon as the first lanes run out of their own tests; one of
# those lanes ends when the one-at-a-time lane starts, which takes its place, and goes on
# with them once its own are done. A script that says "# memtop-test: quiet" runs one at a
# time too, and with nothing beside it at all: it judges the machine's memory levels
# (AnonPages, MemAvailable's trend), which the tests beside move by tens of megabytes.
# In each queue the unit tests and the scripts that say "# memtop-test: long" (a run of
# half a minute or more on a quiet machine) come first: no lane starts one last; the
# quiet tests come last, in the one-at-a-time lane once no other test is left to start
# (they wait for the last ones to end, and hold up none).
# TEST_JOBS=1 runs every test in order, one at a time. TEST_TIMELINE=FILE writes each
# test's start, length and lane there, for a look at where the suite's time goes.
#
# Each test gets TEST_TIMEOUT seconds (120; the unit tests 600), or more if its script
# says "# memtop-test: timeout SECS" (one that may build memtop from nothing, as make
# deb); then its process group gets TERM, so its EXIT trap can clean up, and KILL
# TEST_KILL_AFTER seconds (15) later, and it fails as timed out.
# Whatever a test leaves behind is stopped after it: its process group, and the tmux
# servers it started (each test gets a TMUX_TMPDIR of its own).
#
# Then the unit tests and the scripts that say "# memtop-test: sanitized" (those that feed
# memtop what it parses or serves: files, flags, names, recordings, HTTP clients) run again
# against memtop and the unit tests built with ASan and UBSan (build/asan, make sanitize),
# named asan:unit, asan:cli/x.sh; SANITIZE=0 leaves them out. A word selects a test in both
# passes; asan selects the sanitized pass,
# asan:WORD a test in it only. The sanitizers write their reports to files (log_path) in a
# directory of the test's own; a report fails the test, whatever its script said, and is
# printed. Leaks fail it too, except those tests/lsan.supp lists (third-party libraries).
cd "$(dirname "$0")/.." || exit 1
export MEMTOP="$PWD/build/memtop" HELPERS="$PWD/build/tests" TESTS="$PWD/tests"
SAN="$PWD/build/asan"
limit=${TEST_TIMEOUT:-120} grace=${TEST_KILL_AFTER:-15}
jobs=${TEST_JOBS:-$(($(nproc 2>/dev/null || echo 1) + 1))}
case "$limit$grace" in
*[!0-9]* | "")
	echo "TEST_TIMEOUT and TEST_KILL_AFTER are whole seconds, not '$limit' and '$grace'" >&2
	exit 2
	;;
esac
case "$jobs" in
"" | *[!0-9]* | 0)
	echo "TEST_JOBS is a number of lanes from 1, not '$jobs'" >&2
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
# run when named: tests/pkg/, the Debian package built from nothing and installed (make
# test-pkg; CI runs it), and tests/vm/, the kernel lane's own tests (make test-kernels),
# which need what only its guests have (cgroup v2's memory controller, swap, every
# capability)
for t in tests/pkg/*.sh tests/vm/*.sh; do
	d=${t#tests/} d=${d%%/*}
	case " $sel " in
	*" $d"*) [ -f "$t" ] && all="$all ${t#tests/}" ;;
	esac
done
if [ "${SANITIZE:-1}" != 0 ]; then
	all="$all asan:unit"
	for t in tests/cli/*.sh tests/screen/*.sh; do
		[ -f "$t" ] && grep -q '^# memtop-test: sanitized$' "$t" && all="$all asan:${t#tests/}"
	done
fi
# selected NAME [WORD...]: NAME (unit, cli/x.sh, asan:cli/x.sh) is one of the tests the
# words select
selected() {
	_n=$1
	shift
	for _w; do
		case "$_n:$_w" in
		asan:*:asan) return 0 ;;
		asan:*:asan:*) _m=${_n#asan:} _v=${_w#asan:} ;;
		asan:*) _m=${_n#asan:} _v=$_w ;;
		*:asan | *:asan:*) continue ;;
		*) _m=$_n _v=$_w ;;
		esac
		case "$_m" in
		$_v | $_v.sh | $_v/* | */$_v | */$_v.sh) return 0 ;;
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
		echo "no test matches '$s' (tests: cli, screen, bpf, pkg, unit, asan unless SANITIZE=0, or one of them as screen/tree.sh, asan:screen/tree.sh)" >&2
		exit 2
	}
done
todo="" # the tests to run, in the order of $all
for n in $all; do
	[ -z "$sel" ] || selected "$n" $sel || continue
	todo="$todo $n"
done
set +f
# TEST_SAN_BUILD=1 (make test): the sanitized build is made here, beside the first tests
# (make sanitize, its output in the suite's directory), and an asan: test waits for it;
# else it must be built already
san_build=0
case " $todo " in
*" asan:"*)
	if [ "${TEST_SAN_BUILD:-0}" = 1 ]; then
		san_build=1
	else
		for b in "$SAN/memtop" "$SAN/unit_tests"; do
			[ -x "$b" ] || {
				echo "${b#"$PWD/"} is not built: make sanitize (or SANITIZE=0 leaves the asan: tests out)" >&2
				exit 2
			}
		done
	fi
	;;
esac

root=$(mktemp -d /tmp/memtop-tests.XXXXXX)
began=$(date +%s)
# cpu_ticks: the machine's busy and idle ticks (/proc/stat), for the share the CPUs idled
cpu_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $5 + $6; exit }' /proc/stat; }
ticks0=$(cpu_ticks)
trap 'rm -rf "$root"' EXIT
stop=0 tpid= lane=0
# TEST_CPU=1 (cgroup v1's cpuacct, as root): each test's CPU time, whatever it started
# (tmux servers too), from a cpuacct cgroup for each lane; the suite's end names the most
cpu_cg=
if [ "${TEST_CPU:-}" = 1 ] && [ -w /sys/fs/cgroup/cpuacct/cgroup.procs ]; then
	cpu_cg=/sys/fs/cgroup/cpuacct/memtop-tests.$$
	mkdir -p "$cpu_cg"
	trap 'rm -rf "$root"; rmdir "$cpu_cg"/* "$cpu_cg" 2>/dev/null' EXIT
fi

# run_limited OUT CMD...: runs CMD with its output in OUT, in a process group of its own,
# for $limit seconds at most; then stops whatever it left running. Sets rc, secs and
# timed_out (1 or 0). CMD inherits no descriptor but 0, 1 and 2 (fds_low.sh counts them:
# a make run under flock(1) holds its lock at 3).
run_limited() {
	out=$1
	shift
	export TMUX_TMPDIR="$log/tmux" MEMTOP_TEST_LANE="$lane"
	mkdir -p "$TMUX_TMPDIR"
	: >"$log/pgid"
	start=$(date +%s)
	# timeout makes the process group; the test's shell notes it first
	cg=
	if [ -n "$cpu_cg" ]; then # TEST_CPU=1: the lane's cpuacct cgroup, its usage before
		cg=$cpu_cg/$lane
		mkdir -p "$cg"
		used=$(cat "$cg/cpuacct.usage")
	fi
	timeout --kill-after="$grace" "$limit" sh -c \
		'[ -n "$1" ] && echo $$ >"$1/cgroup.procs"; shift
		read -r _ _ _ _ g _ </proc/$$/stat && echo "$g" >"$0"; exec "$@"' "$log/pgid" "$cg" "$@" \
		>"$out" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	tpid=$!
	while :; do # a trapped signal ends wait early
		wait "$tpid" 2>/dev/null # (no "Killed" when KILL was needed)
		rc=$?
		kill -0 "$tpid" 2>/dev/null || break
	done
	tpid=
	secs=$(($(date +%s) - start))
	echo "$secs ${name:-?}" >>"$root/times"
	echo "$((start - began)) $secs $lane ${name:-?}" >>"$root/timeline"
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
	unset TMUX_TMPDIR MEMTOP_TEST_LANE
	[ -n "$cg" ] && echo "$((($(cat "$cg/cpuacct.usage") - used) / 1000000)) ${name:-?}" >>"$root/cpu"
	if [ $stop = 1 ]; then
		echo "interrupted: $* (and the tests after it) did not finish"
		exit 130
	fi
}

# san_ready: the sanitized build is there (waiting for the one made beside, if any); else
# says why not
san_ready() {
	[ $san_build = 1 ] || return 0
	while [ ! -e "$root/sanbuild.rc" ]; do sleep 0.5; done
	[ "$(cat "$root/sanbuild.rc")" = 0 ] && return 0
	echo "    the sanitized build (make sanitize) failed:"
	tail -n 20 "$root/sanbuild.log" | sed 's/^/    /'
	return 1
}

# sanitized NAME CMD...: runs CMD (run_limited, output in $log/out); for an asan: test with
# MEMTOP the sanitized binary and the sanitizers' options, their reports going to a new
# directory, $san
nsan=0
sanitized() {
	nsan=$((nsan + 1))
	san=$log/san.$nsan
	case "$1" in
	asan:*) shift ;;
	*)
		shift
		run_limited "$log/out" "$@"
		return
		;;
	esac
	mkdir -p "$san"
	# (leaks are checked at exit; UBSan stops at its first report, as built)
	run_limited "$log/out" env MEMTOP="$SAN/memtop" \
		ASAN_OPTIONS="log_path=$san/log:detect_leaks=1:detect_stack_use_after_return=1" \
		LSAN_OPTIONS="suppressions=$TESTS/lsan.supp:print_suppressions=0" \
		UBSAN_OPTIONS="log_path=$san/log:print_stacktrace=1:halt_on_error=1" "$@"
	# a sanitized memtop the test left in tmux got HUP when its server was stopped: its
	# leak check and report come as it exits, after the test's end
	i=0
	while [ -n "$(san_running)" ] && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	for p in $(san_running); do # still running 10 s later
		echo "(a sanitized memtop, pid $p, still ran 10 s after the test: killed)" >>"$log/out"
		kill -KILL "$p" 2>/dev/null
	done
}
# san_running: the pids of the sanitized memtops this lane's test started (they have its
# MEMTOP_TEST_LANE in their environment)
san_running() {
	for p in $(pgrep -x memtop); do
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$SAN/memtop" ] &&
			tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "MEMTOP_TEST_LANE=$lane" &&
			echo "$p"
	done
}
# san_reports: the sanitizers reported in the last test (and prints the reports)
san_reports() {
	set -- "$san"/*
	[ -f "$1" ] || return 1
	for f; do
		echo "    sanitizer report (pid ${f##*.}):"
		sed 's/^/    /' "$f"
	done
}

# run_unit NAME BINARY: cmocka, one line per test; counts its own verdicts. The binary holds
# every unit test (a minute under ASan on a busy machine): 600 s at least.
run_unit() {
	[ "$1" = unit ] || echo "$1: ${2#"$PWD/"}"
	keep=$limit
	[ "$limit" -lt 600 ] && limit=600
	sanitized "$1" "$2"
	set -- "${1%unit}unit_tests" # unit_tests, asan:unit_tests
	cat "$log/out"
	up=$(grep -c '^\[       OK \]' "$log/out")
	uf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log/out" | awk '{s += $1} END {print s + 0}')
	passed=$((passed + up))
	failed=$((failed + uf))
	if [ $timed_out = 1 ]; then
		echo "FAIL  $1 (timed out after ${limit}s)"
		san_reports
		failed=$((failed + 1))
		failures="$failures $1(timeout)"
	elif san_reports >"$log/reports"; then
		echo "FAIL  $1 (sanitizer report)"
		cat "$log/reports"
		failed=$((failed + 1))
		failures="$failures $1(sanitizer)"
	elif [ "$rc" -ne 0 ] && [ "$uf" -eq 0 ]; then
		failed=$((failed + 1))
		failures="$failures $1(rc=$rc)"
	fi
	limit=$keep
}

# run_script NAME: tests/NAME (without asan:), exit 0 pass, 77 skip, else fail
run_script() {
	keep=$limit
	own=$(sed -n 's/^# memtop-test: timeout \([0-9][0-9]*\)$/\1/p' "tests/${1#asan:}" | head -n 1)
	[ -n "$own" ] && [ "$own" -gt "$limit" ] && limit=$own
	sanitized "$1" sh "tests/${1#asan:}"
	if san_reports >"$log/reports"; then
		echo "FAIL  $1 (sanitizer report; the script exited $rc) ${secs}s"
		sed 's/^/    /' "$log/out"
		cat "$log/reports"
		failed=$((failed + 1))
		failures="$failures $1"
	elif [ $timed_out = 1 ]; then
		echo "FAIL  $1 (timed out after ${limit}s)"
		sed 's/^/    /' "$log/out"
		failed=$((failed + 1))
		failures="$failures $1"
	elif [ $rc -eq 77 ] && [ "${MEMTOP_REQUIRE_BPF:-0}" = 1 ]; then
		echo "FAIL  $1 (skipped, but MEMTOP_REQUIRE_BPF=1) ${secs}s"
		sed 's/^/    /' "$log/out"
		failed=$((failed + 1))
		failures="$failures $1"
	elif [ $rc -eq 77 ]; then
		echo "SKIP  $1: $(tail -n 1 "$log/out")"
		skipped=$((skipped + 1))
	elif [ $rc -eq 0 ]; then
		echo "PASS  $1 ${secs}s"
		passed=$((passed + 1))
	else
		echo "FAIL  $1 (exit $rc) ${secs}s"
		sed 's/^/    /' "$log/out"
		failed=$((failed + 1))
		failures="$failures $1"
	fi
	limit=$keep
}

# run_one NAME: runs the test, printing its verdict (and its output if it failed)
run_one() {
	case "$1" in
	asan:*)
		san_ready >"$log/sanwhy" || {
			echo "FAIL  $1 (no sanitized build)"
			cat "$log/sanwhy"
			failed=$((failed + 1))
			failures="$failures $1"
			return
		}
		;;
	esac
	case "$1" in
	unit) run_unit unit ./build/unit_tests ;;
	asan:unit) run_unit asan:unit "$SAN/unit_tests" ;;
	*) run_script "$1" ;;
	esac
}

# is_quiet NAME: the test's script says "# memtop-test: quiet"
is_quiet() { [ -n "$1" ] && grep -q '^# memtop-test: quiet$' "tests/${1#asan:}" 2>/dev/null; }

# pop QUEUE: the first test of $root/QUEUE, taken off it (empty when none is left)
pop() {
	(
		flock 9
		head -n 1 "$root/$1"
		sed -i 1d "$root/$1"
	) 9>"$root/queue.lock"
}

# go_first: this (sub)shell and what it starts run at nice -5, where it may (root)
go_first() { renice -n -5 -p "$(exec sh -c 'echo $PPID')" >/dev/null 2>&1; }

# lane N QUEUE...: runs the tests of $root/QUEUE until none is left, then those of the next
# QUEUE (saying so in $root/emptied.N after the first); prints each test's report whole, and
# leaves its counts in $root/counts.N
lane() {
	lane=$1 log=$root/lane.$1 q=$2 moved=0
	shift 2
	then=$*
	mkdir -p "$log"
	trap 'stop=1; [ -n "$tpid" ] && kill -TERM "$tpid" 2>/dev/null' INT TERM HUP
	exec 7>>"$root/quiet.lock"
	# the one-at-a-time lane is the suite's longest path, and its tests mostly wait for the
	# kernel's events and answer them: it goes before the other lanes and whatever else the
	# machine runs, where it may (root), at nice -5 (and so do the tests it goes on with)
	[ "$q" = alone ] && go_first
	while :; do
		# a lane of the first phase that went on gives way to the one-at-a-time lane once
		# it starts: the first to end a test then (it takes the token, $root/yield) ends
		[ "$lane" != 0 ] && [ "$moved$q" = 1anywhere ] &&
			mv "$root/yield" "$root/yielded.$lane" 2>/dev/null && break
		name=$(pop "$q")
		if [ -z "$name" ]; then
			[ -n "$then" ] || break
			[ $moved = 1 ] || : >"$root/emptied.$lane"
			set -- $then
			q=$1 moved=1
			shift
			then=$*
			continue
		fi
		quiet=0
		# none while a quiet test runs or waits to
		if [ "$q" = anywhere ] || [ "$q" = besidebpf ]; then
			while [ -e "$root/quiet" ]; do sleep 0.2; done
			flock -s 7
		elif is_quiet "$name"; then
			quiet=1
			: >"$root/quiet"
			flock -x 7
		fi
		run_one "$name" >"$log/report"
		flock -u 7
		# (the flag stays for a quiet test next)
		[ $quiet = 0 ] || is_quiet "$(head -n 1 "$root/$q")" || rm -f "$root/quiet"
		(
			flock 9
			cat "$log/report"
			# (and again at the end, where a log's tail shows them)
			grep -q '^FAIL ' "$log/report" && head -n 40 "$log/report" >>"$root/failreports"
		) 9>"$root/print.lock"
	done
	echo "$passed $failed $skipped$failures" >"$root/counts.$lane"
}

queues="parallel beside besidebpf alone anywhere"
: >"$root/quiet.tests"
for q in $queues; do
	: >"$root/$q"
	: >"$root/$q.first"
done
for name in $todo; do
	q=parallel
	case "$name" in bpf/*) q=alone ;; unit | asan:unit | asan:cli/*) q=anywhere ;; esac
	grep -q '^# memtop-test: anywhere$' "tests/${name#asan:}" 2>/dev/null && q=anywhere
	grep -qE '^# memtop-test: (alone|quiet)$' "tests/${name#asan:}" 2>/dev/null && q=alone
	grep -q '^# memtop-test: beside others$' "tests/${name#asan:}" 2>/dev/null && q=beside
	case "$q:$name" in beside:bpf/*) q=besidebpf ;; esac
	[ "$jobs" = 1 ] && q=alone
	f=$q
	case "$name" in unit | asan:unit) f=$q.first ;; esac
	grep -q '^# memtop-test: long$' "tests/${name#asan:}" 2>/dev/null && f=$q.first
	is_quiet "$name" && f=quiet.tests
	[ "$jobs" = 1 ] && f=$q
	echo "$name" >>"$root/$f"
done
for q in $queues; do
	cat "$root/$q" >>"$root/$q.first"
	mv "$root/$q.first" "$root/$q"
done
# the sanitized build beside the first tests (san_ready), without make's jobserver; on a
# busy machine the first phase's last tests (asan:screen/) wait for it: it goes before
# the tests and other work, where it may (root), at nice -5
sanpid=
if [ $san_build = 1 ]; then
	(
		go_first
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -j"$(nproc)" \
			WERROR=1 sanitize >"$root/sanbuild.log" 2>&1 </dev/null &
		m=$!
		trap 'kill -TERM $m 2>/dev/null' INT TERM HUP
		wait $m
		echo $? >"$root/sanbuild.rc"
	) &
	sanpid=$!
fi
# the first phase: the parallel tests in $jobs lanes, each going on, as they run out, with
# the tests indifferent to the machine
pids= first= steal=
i=1
while [ $i -le "$jobs" ]; do
	lane $i parallel anywhere &
	pids="$pids $!" steal="$steal $i:$!"
	i=$((i + 1))
done
# the lanes beside: the BPF tests that judge only their own processes go on beside the
# one-at-a-time phase; the others' lane goes on with the parallel tests
through=
if [ -s "$root/beside" ]; then
	lane $i beside parallel &
	pids="$pids $!" first="$first $!"
	i=$((i + 1))
fi
if [ -s "$root/besidebpf" ]; then
	lane $i besidebpf &
	through=$!
	i=$((i + 1))
fi
# ^C or a kill: every lane's running test gets TERM too (it is in a process group of its
# own), and is waited for, so its EXIT trap cleans up
lone=
trap 'stop=1; kill -TERM $pids $through $lone $sanpid 2>/dev/null' INT TERM HUP
# ended PID...: waits until each has ended (a trapped signal ends wait early)
ended() {
	for _p; do
		while :; do
			wait "$_p"
			kill -0 "$_p" 2>/dev/null || break
		done
	done
}
# until no test of the first phase runs: its lanes ended, or went on to other queues
ended $first
for kp in $steal; do
	while [ $stop = 0 ] && [ ! -e "$root/emptied.${kp%%:*}" ] && kill -0 "${kp#*:}" 2>/dev/null; do
		sleep 0.2
	done
done
if [ $stop = 1 ]; then
	ended $pids $through
	exit 130
fi
# then the tests that need the machine to themselves, one at a time, beside those of the
# lanes that went on; its lane too goes on with those once done, and last runs the quiet
# tests, with nothing beside
if [ -s "$root/alone" ] || [ -s "$root/quiet.tests" ]; then
	: >"$root/yield"
	lane 0 alone anywhere quiet.tests &
	lone=$!
fi
ended $pids $lone $through
[ -n "$sanpid" ] && wait "$sanpid" 2>/dev/null
[ $stop = 1 ] && exit 130
for f in "$root"/counts.*; do
	read -r p f2 s2 rest <"$f"
	passed=$((passed + p)) failed=$((failed + f2)) skipped=$((skipped + s2))
	failures="$failures${rest:+ $rest}"
done
# the suite's own account of its time: the whole, the CPUs' idle share, the slowest tests
if [ -s "$root/times" ]; then
	took=$(($(date +%s) - began))
	set -- $ticks0 $(cpu_ticks)
	idle=$(awk -v b="$(($3 - $1))" -v i="$(($4 - $2))" 'BEGIN { printf "%d", (b + i > 0) ? 100 * i / (b + i) : 0 }')
	slow=$(sort -rn "$root/times" | head -n 10 | awk '{ printf "%s%s %ds", (NR > 1) ? ", " : "", $2, $1 }')
	echo "time: $((took / 60)) min $((took % 60)) s, the CPUs idle $idle % of it; slowest: $slow"
fi
# TEST_TIMELINE=FILE: each test's start (seconds into the run), length, lane and name
[ -n "${TEST_TIMELINE:-}" ] && sort -n "$root/timeline" >"$TEST_TIMELINE"
if [ -s "$root/cpu" ]; then
	most=$(sort -rn "$root/cpu" | head -n 20 | awk '{ printf "%s%s %.1fs", (NR > 1) ? ", " : "", $2, $1 / 1000 }')
	echo "CPU: $(awk '{ s += $1 } END { printf "%.0f", s / 1000 }' "$root/cpu") s in all; the most: $most"
	sort -rn "$root/cpu" >build/test-cpu.txt # every test's, in ms
fi
if [ -s "$root/failreports" ]; then
	echo "--- the failures again (each report's first 40 lines):"
	cat "$root/failreports"
	echo "---"
fi
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
