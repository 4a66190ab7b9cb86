#!/bin/sh
# run.sh: make test-kernels. For each kernel of KERNELS (default "5.10 6.1 6.12"):
# fetches Debian's kernel (fetch.sh), boots it under qemu (boot.sh) to run memtop's tests
# against the memtop built in build/ (guest.sh; T= names other tests than its list,
# TEST_TIMEOUT= each test's limit, KERNEL_TIMEOUT= each guest's, 1200 s), and collects
# the results. KERNEL_JOBS guests run at once (2: each keeps a CPU busy), the newest
# kernel first, as it runs the most tests.
# Ends with one table: a row per kernel, memtop's BPF concerns as it reported them
# there, the tests passed, failed and skipped, the wall time and how the guest ended;
# then the reasons of what was off, failed or skipped. Exits 1 if a test failed or a
# guest did not finish. Each kernel's console is in build/kernels/KVER.log, its result
# lines in build/kernels/KVER.results.
cd "$(dirname "$0")/../.." || exit 1
kernels=${KERNELS:-5.10 6.1 6.12}
jobs=${KERNEL_JOBS:-2}
case "$jobs" in
"" | *[!0-9]* | 0)
	echo "run.sh: KERNEL_JOBS is a number from 1, not '$jobs'" >&2
	exit 2
	;;
esac
[ -x build/memtop ] || {
	echo "run.sh: build/memtop is not built (make all)" >&2
	exit 2
}
command -v jq >/dev/null || {
	echo "run.sh: needs jq (sh scripts/deps.sh kernels)" >&2
	exit 2
}
mkdir -p build/kernels
# one run at a time in a checkout: runs share build/kernels/KVER.*
exec 7>build/kernels/run.lock
flock -n 7 || {
	echo "run.sh: waiting for another run of the kernel lane in this checkout to end"
	flock 7 || exit 1
}

# lane KVER: fetches, boots and leaves "SECONDS HOW" in build/kernels/KVER.wall
lane() {
	start=$(date +%s)
	rm -f "build/kernels/$1.results" "build/kernels/$1.wall"
	if sh tests/kernels/fetch.sh "$1"; then
		job=build/kernels/$1.job
		# the guest's environment is its own: TEST_TIMEOUT goes in the job; T's words are
		# quoted, not globbed there (tests/run.sh matches its patterns)
		{
			# emulated, a test takes longer than on the machine
			echo "export TEST_TIMEOUT='${TEST_TIMEOUT:-300}'"
			printf 'exec sh %s/tests/kernels/guest.sh' "$PWD"
			set -f
			for w in ${T:-}; do printf " '%s'" "$w"; done
			set +f
			echo
		} >"$job"
		# in the background, its pid noted, so that stop() below can end it
		sh tests/kernels/boot.sh "$1" "$job" &
		echo $! >"$queue.$1.pid"
		wait $!
		rc=$?
		rm -f "$queue.$1.pid"
		# finished: the job's status came back (boot.sh's own errors also exit 1)
		if grep -q '^MEMTOP-LANE-EXIT=' "build/kernels/$1.results" 2>/dev/null; then
			how=finished
		elif [ $rc = 124 ]; then
			how="timed out"
		else
			how="no exit status"
		fi
	else
		how="fetch failed"
	fi
	echo "$(($(date +%s) - start)) $how" >"build/kernels/$1.wall"
}

# the queue of kernels, newest first; each of $jobs workers takes the next one
queue=$(mktemp /tmp/memtop-kernels.XXXXXX) || exit 1
trap 'rm -f "$queue" "$queue".*' EXIT
# shellcheck disable=SC2086 # $kernels is words
printf '%s\n' $kernels | sort -rV >"$queue"
pop() {
	(
		flock 9
		head -n 1 "$queue"
		sed -i 1d "$queue"
	) 9>"$queue.lock"
}
pids=""
i=0
while [ $i -lt "$jobs" ]; do
	(while k=$(pop) && [ -n "$k" ]; do lane "$k"; done) &
	pids="$pids $!"
	i=$((i + 1))
done
# ^C or a kill: no more kernels are started, and the guests running are stopped (boot.sh
# stops its qemu on TERM)
# shellcheck disable=SC2317 # run by the trap
stop() {
	: >"$queue"
	for f in "$queue".*.pid; do
		[ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
	done
	wait
	exit 130
}
trap stop INT TERM HUP
for p in $pids; do
	wait "$p"
done

# the table, its columns separated by tabs for column(1)
results() { cat "build/kernels/$1.results" 2>/dev/null; }
bpf() { results "$1" | sed -n 's/^MEMTOP-LANE-BPF=//p' | tail -n 1; }
table() {
	names=$(for k in $kernels; do bpf "$k" | jq -r 'keys_unsorted[]' 2>/dev/null; done |
		awk '!seen[$0]++')
	printf 'kernel'
	for n in $names; do printf '\t%s' "$n"; done
	printf '\tpassed\tfailed\tskipped\twall\tguest\n'
	for k in $kernels; do
		release=$(results "$k" | sed -n 's/^MEMTOP-LANE-KERNEL=//p' | head -n 1)
		printf '%s' "${release:-$k}"
		for n in $names; do
			printf '\t%s' "$(bpf "$k" | jq -r --arg n "$n" '.[$n] // "-" | sub(":.*"; "")' 2>/dev/null)"
		done
		for v in PASS FAIL SKIP; do
			printf '\t%s' "$(results "$k" | awk -v v="$v" '$1 == "MEMTOP-LANE-TEST" && $3 == v { n++ }
				END { print n + 0 }')"
		done
		{ read -r secs how <"build/kernels/$k.wall"; } 2>/dev/null || secs="?" how="?"
		printf '\t%ss\t%s\n' "$secs" "$(echo "$how" | tr ' ' '_')"
	done
}
echo
table | column -t -s "$(printf '\t')"
# the concerns each kernel has what they need for (doc/compatibility.md): one of them off
# there fails the lane
expected() {
	case $1 in
	5.10) echo oom reclaim tasks ;;
	*) echo oom reclaim swapin tasks cgroup_iter ;;
	esac
}
bad=0
for k in $kernels; do
	{ read -r _ how <"build/kernels/$k.wall"; } 2>/dev/null || how=""
	[ "$how" = finished ] || bad=1
	for n in $(expected "$k"); do
		[ "$(bpf "$k" | jq -r --arg n "$n" '.[$n] // "missing"' 2>/dev/null)" = on ] && continue
		echo "$k: bpf $n should be on here"
		bad=1
	done
	bpf "$k" | jq -r --arg k "$k" 'to_entries[] | select(.value != "on") |
		"\($k): bpf \(.key) \(.value)"' 2>/dev/null
	results "$k" | awk -v k="$k" '$1 == "MEMTOP-LANE-TEST" && $3 != "PASS" {
		r = $5; for (i = 6; i <= NF; i++) r = r " " $i
		print k ": " $3 " " $2 " (" $4 "s): " r }'
	results "$k" | grep -q '^MEMTOP-LANE-TEST [^ ]* FAIL ' && bad=1
done
exit $bad
