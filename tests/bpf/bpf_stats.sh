#!/bin/sh
# memtop-test: beside others
# --bpf-stats: memtop turns kernel.bpf_stats_enabled on while it runs, only if it was off,
# and off again when it ends (after -n N, SIGTERM, SIGINT, and SIGHUP as tmux sends);
# JSON self.bpf_run_ns_per_s is then the run time of memtop's programs, as the kernel
# counts it for each (run_time_ns in /proc/PID/fdinfo of memtop's program descriptors), and
# the header's BPF line shows it. Without the flag memtop never writes the setting and the
# figure is null, unless someone else turned the statistics on. Without root or BPF it
# says why on the BPF line and runs on.
. "$(dirname "$0")/lib.inc"
need_bpf
STATS=/proc/sys/kernel/bpf_stats_enabled
[ -w "$STATS" ] || skip "no $STATS to write"
# the setting is the machine's: a lock of its own keeps other runs of this test away, from
# any clone (beside other tests, whose memtops' programs it does not count, and which
# none judges); a minute at most for anyone else's statistics to go off
exec 8>/tmp/memtop-bpf-stats.lock
flock -w 600 8 || fail "another run of this test held its lock for 10 minutes"
i=0
until [ "$(cat "$STATS")" = 0 ] || [ $i -ge 600 ]; do
	i=$((i + 1))
	sleep 0.1
done
was=$(cat "$STATS")
[ "$was" = 0 ] || skip "kernel.bpf_stats_enabled is on already (someone else's)"
# whatever happens to memtop here (the cleanup kills it with SIGKILL), the setting is put back
trap 'cleanup; echo "$was" >"$STATS"' EXIT

stats() { cat "$STATS"; }
# run_ns: the run time of memtop's programs by the kernel's count, each program once (a
# link's descriptor names its program too, without a run time)
run_ns() {
	awk 'FNR == 1 { id = "" } $1 == "prog_id:" { id = $2 } $1 == "run_time_ns:" { t[id] = $2 }
		END { for (i in t) s += t[i]; print s + 0 }' /proc/"$MTPID"/fdinfo/* 2>/dev/null
}
# line_out N: waits until memtop has written N lines, more closely than mt_wait_lines
line_out() {
	i=0
	while [ "$(mt_lines)" -lt "$1" ]; do
		i=$((i + 1))
		[ $i -le 3000 ] || fail "memtop wrote $(mt_lines) of $1 lines in a minute"
		sleep 0.02
	done
}
# ended_with STATUS: memtop ended with that status and the setting is off again
ended_with() {
	wait "$MTPID"
	rc=$?
	MTPID=""
	[ "$rc" = "$1" ] || fail "memtop exited $rc, not $1: $(cat "$WORK/err")"
	[ "$(stats)" = 0 ] || fail "memtop (exit $rc) left kernel.bpf_stats_enabled at $(stats)"
}

# without the flag: the setting untouched, the figure null
mt_start -n 3 -d 0.3
mt_wait_lines 2
[ "$(stats)" = 0 ] || fail "memtop without --bpf-stats turned the statistics on"
ended_with 0
jq -e '.self | has("bpf_run_ns_per_s") and .bpf_run_ns_per_s == null' "$OUT" >/dev/null ||
	fail "bpf_run_ns_per_s without the statistics: $(jq -c .self "$OUT" | tr '\n' ' ')"
"$MEMTOP" -b -n 2 -d 0.3 -p 1 | grep '^Self: ' | grep -q 'BPF run' &&
	fail "the batch Self: line shows a BPF run time without the statistics"
echo "without --bpf-stats: kernel.bpf_stats_enabled stays 0, bpf_run_ns_per_s null"

# with it: on while memtop runs. Between two readings of the kernel's count taken while
# memtop sleeps after a line, many short processes exit: memtop's programs run on every
# exit (their per-process maps drop the process). The run time memtop reports over the
# lines between (bpf_run_ns_per_s * interval_s) is the kernel's count over the same,
# less what ran between memtop's reading and this test's at either end.
mt_start --bpf-stats -d 1
mt_wait_lines 2
[ "$(stats)" = 1 ] || fail "--bpf-stats: kernel.bpf_stats_enabled is $(stats) while memtop runs"
# a reading of the kernel's count belongs to the line before it if memtop wrote no other
# line meanwhile; on a busy machine it may have: then the measure is taken again (10 times
# at most)
tries=0
while :; do
	tries=$((tries + 1))
	[ $tries -le 10 ] || fail "memtop refreshed again before the test read the kernel's count, 10 times"
	first=$(($(mt_lines) + 1))
	line_out $first
	r0=$(run_ns)
	[ "$(mt_lines)" = "$first" ] || continue
	i=0
	while [ $i -lt 1000 ]; do
		/bin/true
		i=$((i + 1))
	done
	last=$(($(mt_lines) + 2))
	line_out $last
	r1=$(run_ns)
	[ "$(mt_lines)" = "$last" ] && break
done
sed -n "$((first + 1)),${last}p" "$OUT" >"$WORK/lines"
jq -e '.self.bpf_run_ns_per_s | type == "number"' "$WORK/lines" >/dev/null ||
	fail "--bpf-stats: bpf_run_ns_per_s is not a number: $(jq -c .self "$WORK/lines" | tr '\n' ' ')"
sum=$(jq -s 'map(.self.bpf_run_ns_per_s * .interval_s) | add' "$WORK/lines")
awk -v sum="$sum" -v r0="$r0" -v r1="$r1" 'BEGIN {
	k = r1 - r0
	tol = 20000 + 0.05 * k
	printf "1000 exits: memtop reports %.0f ns of run time, the kernel counted %d ns (tolerance %d)\n",
		sum, k, tol
	exit !(k > 0 && sum >= k - tol && sum <= k + tol)
}' || fail "memtop's BPF run time is not what the kernel counted for its programs"
kill -TERM "$MTPID"
ended_with 143
echo "--bpf-stats: on while memtop ran, off after SIGTERM"

# the other ends: -n N, SIGINT (batch), SIGHUP (the full-screen view in tmux, killed)
"$MEMTOP" --json --bpf-stats -n 2 -d 0.3 >/dev/null || fail "memtop --bpf-stats -n 2 exited $?"
[ "$(stats)" = 0 ] || fail "memtop --bpf-stats -n 2 left the statistics on"
"$MEMTOP" -b --bpf-stats -d 0.3 >/dev/null 2>"$WORK/err" &
MTPID=$!
i=0
until [ "$(stats)" = 1 ]; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "memtop -b --bpf-stats never turned the statistics on"
	sleep 0.1
done
kill -INT "$MTPID"
ended_with 130
tm_start 120 30 "exec '$MEMTOP' --bpf-stats -d 0.3"
# the line, from a capture that shows the figure
bpf_line() {
	line=$(screen_text | grep '^BPF on')
	printf '%s\n' "$line" | grep -q 'BPF run/s'
}
eventually $HANG bpf_line || fail "the header never showed the BPF run time: $line"
printf '%s\n' "$line" | grep -Eq '  CPU/refresh [0-9.]+ms  RSS [0-9.]+[KMG]  BPF run/s [0-9.]+[nmu]?s' ||
	fail "the header's BPF line: $line"
[ "$(stats)" = 1 ] || fail "the full-screen view with --bpf-stats: statistics $(stats)"
echo "header: $line"
mt=$(tm list-panes -F '#{pane_pid}')
tm_kill
i=0
while kill -0 "$mt" 2>/dev/null; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "memtop did not end when its terminal went away"
	sleep 0.1
done
[ "$(stats)" = 0 ] || fail "memtop left the statistics on after SIGHUP"
echo "-n 2, SIGINT, SIGHUP: off again each time"

# on already (someone else's): memtop shows the figure and leaves the setting on, flag or not
echo 1 >"$STATS"
out=$("$MEMTOP" --json -n 3 -d 0.3) || fail "memtop exited $?"
printf '%s\n' "$out" | tail -n 1 | jq -e '.self.bpf_run_ns_per_s | type == "number"' >/dev/null ||
	fail "statistics on already: $(printf '%s\n' "$out" | jq -c .self | tr '\n' ' ')"
"$MEMTOP" --json --bpf-stats -n 2 -d 0.3 >/dev/null || fail "memtop --bpf-stats exited $?"
[ "$(stats)" = 1 ] || fail "memtop turned off statistics someone else had turned on"
echo 0 >"$STATS"
echo "on already: the figure shown, the setting left on"

# no programs of its own: it says so and leaves the setting alone
out=$("$MEMTOP" --json --bpf-stats --no-bpf -n 2 -d 0.3) || fail "--no-bpf --bpf-stats: exit $?"
printf '%s\n' "$out" | tail -n 1 | jq -e '(.bpf.reason | test("--bpf-stats: no BPF programs to time"))
	and .self.bpf_run_ns_per_s == null' >/dev/null ||
	fail "--no-bpf --bpf-stats: $(printf '%s\n' "$out" | tail -n 1 | jq -c '.bpf.reason, .self')"
[ "$(stats)" = 0 ] || fail "--no-bpf --bpf-stats turned the statistics on"
echo "--no-bpf: $(printf '%s\n' "$out" | tail -n 1 | jq -r .bpf.reason)"
command -v setpriv >/dev/null || skip "needs setpriv for the unprivileged run"
dir=$WORK/nobody
mkdir "$dir" && cp "$MEMTOP" "$dir/memtop" && chmod 755 "$WORK" "$dir" "$dir/memtop"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$dir/memtop" -b --bpf-stats -n 2 -d 0.3 -p 1) || fail "unprivileged --bpf-stats: exit $?"
printf '%s\n' "$out" | grep -q '^BPF off: .*; --bpf-stats needs root$' ||
	fail "unprivileged --bpf-stats: $(printf '%s\n' "$out" | grep '^BPF')"
[ "$(stats)" = 0 ] || fail "unprivileged: the statistics are on"
echo "unprivileged: $(printf '%s\n' "$out" | grep '^BPF' | tail -n 1)"
