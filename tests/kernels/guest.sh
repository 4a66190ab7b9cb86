#!/bin/sh
# guest.sh [TEST...]: what each kernel's guest runs (tests/kernels/run.sh writes a job
# that starts it; boot.sh boots the guest): the kernel's release, memtop's BPF status,
# then the tests (by default the list below), one at a time through tests/run.sh
# (TEST_JOBS=1 SANITIZE=0), each timed, against the memtop already built in build/. The checkout is read-only here; /tmp is the guest's.
# Besides the tests' own output, one line per result for run.sh to collect:
#   MEMTOP-LANE-KERNEL=RELEASE
#   MEMTOP-LANE-BPF={"concern":"on" or "off: reason",...}
#   MEMTOP-LANE-TEST NAME PASS|FAIL|SKIP SECONDS REASON
# on stdout and on $MEMTOP_LANE_RESULTS (a serial port of the guest that the kernel does
# not write to). Exits 1 if a test failed.
cd "$(dirname "$0")/../.." || exit 1
# the tests that prove each concern on a real kernel: each loading alone (concern_broken),
# OOM kills with their triggering task against the kernel log (oom_memcg, cgroup_oom,
# oom_cgroup_before: LIMIT-IN, the victim before the kill, the post-mortem), swap-ins
# against /proc/vmstat (swapin), reclaim against a tracefs instance (reclaim), the task
# and cgroup iterators against /proc and the cgroup files
# (iter_equal, cgroup_figures), --leaks without tracefs mounted, --stacks, --pin,
# memtop without BPF, its self-protection (pressure), cgroup v2 (vm/cgroup_v2.sh), the
# actions on a v2 cgroup (vm/act_v2.sh: memory.reclaim, memory.max, memory.high's
# throttling, cgroup.kill, and what a kernel without the file says)
[ $# -gt 0 ] || set -- bpf/concern_broken.sh bpf/oom_memcg.sh bpf/cgroup_oom.sh \
	bpf/oom_cgroup_before.sh bpf/swapin.sh bpf/reclaim.sh bpf/iter_equal.sh \
	bpf/cgroup_figures.sh bpf/leaks.sh bpf/stacks_cli.sh bpf/pins.sh bpf/no_bpf.sh \
	bpf/pressure.sh vm/cgroup_v2.sh vm/act_v2.sh

note() {
	echo "$*"
	[ -z "${MEMTOP_LANE_RESULTS:-}" ] || echo "$*" >>"$MEMTOP_LANE_RESULTS"
}
# uptime: seconds since boot, to a tenth
uptime() { cut -d' ' -f1 /proc/uptime; }

note "MEMTOP-LANE-KERNEL=$(uname -r)"
# memtop's BPF status: the concerns (name: "on" or "off: reason") where memtop reports
# them, else one, "bpf", from enabled and reason
bpf=$(build/memtop --json -n 2 -d 1 | tail -n 1 | jq -c '.bpf')
echo "memtop's bpf: $bpf"
note "MEMTOP-LANE-BPF=$(printf '%s\n' "$bpf" | jq -c 'if .concerns then .concerns
	elif .enabled and (.reason // "") == "" then {bpf: "on"}
	else {bpf: ("off: " + (.reason // "unknown"))} end' 2>/dev/null || echo '{"bpf":"no status"}')"

# the tests, in one run of tests/run.sh. Its report of each test starts with a verdict
# line, "PASS  NAME Ns", "SKIP  NAME: reason" or "FAIL  NAME (why) Ns", followed, for a
# failure, by the test's output, where lib.sh's "FAIL: why" says more. A test's time
# is taken here, from the previous verdict line (or the start) to its own, so that
# skips are timed too; its result is noted at the next verdict line or at the end.
start=$(uptime)
# the guest is emulated: a BPF program's run between the kernel's trace stamp and memtop's
# takes tens of microseconds, up to about a hundred for 6.12's shrink_slab (tests/lib.sh)
export STAMP_SLACK_US=100
TEST_JOBS=1 SANITIZE=0 sh tests/run.sh "$@" 2>&1 | {
	last=$start name="" seen=0 failed=0 tail=""
	flush() {
		[ -n "$name" ] && note "MEMTOP-LANE-TEST $name $verdict $secs $reason"
		name=""
	}
	while IFS= read -r line; do
		printf '%s\n' "$line"
		tail=$line
		case "$line" in
		"PASS  "* | "FAIL  "* | "SKIP  "*)
			flush
			now=$(uptime)
			secs=$(awk -v a="$last" -v b="$now" 'BEGIN { printf "%.1f", b - a }')
			last=$now seen=1 why=0
			verdict=${line%%  *} rest=${line#*  }
			name=${rest%% *} name=${name%:} reason=${rest#* }
			case "$verdict" in
			PASS) reason="" ;;
			FAIL)
				failed=1 why=1
				reason=${reason% [0-9]*s}
				;;
			esac
			;;
		"    FAIL: "*)
			[ "$why" = 1 ] && reason=${line#    FAIL: } why=0
			;;
		esac
	done
	flush
	# run.sh stopped before any test (a word that names none): its last line says why
	[ $seen = 1 ] || {
		note "MEMTOP-LANE-TEST run.sh FAIL 0 $tail"
		failed=1
	}
	exit $failed
}
