#!/bin/sh
# One OOM kill, one timestamp: a real kill in a 64 MiB memory cgroup seen live by two
# memtop --serve (from their BPF programs) and after it by a third memtop --openmetrics
# (from the kernel log, as a kill from before it started) has the same
# memtop_last_oom_kill_timestamp_seconds in all three, to the last digit: the kernel log
# record's own time converted with a boot time rounded to the millisecond. That time is
# the log record's (read here from /dev/kmsg) plus the wall time of monotonic 0, within
# the millisecond of the rounding.
. "$(dirname "$0")/lib.inc"
need_bpf
command -v curl >/dev/null && command -v ss >/dev/null && command -v python3 >/dev/null ||
	skip "needs curl, ss, python3"

p1=$(free_port 17)
"$MEMTOP" --serve "$p1" -d 0.5 2>"$WORK/err1" &
MTPID=$!
p2=$(free_port 17 "$p1")
"$MEMTOP" --serve "$p2" -d 0.5 2>"$WORK/err2" &
KIDS="$KIDS $!"
up() { curl -sf -o /dev/null "http://127.0.0.1:$1/metrics"; }
eventually $HANG up "$p1" || fail "memtop on $p1 never answered: $(cat "$WORK/err1")"
eventually $HANG up "$p2" || fail "memtop on $p2 never answered: $(cat "$WORK/err2")"

memcg memtop-oomts-$$ $((64 << 20))
in_memcg "$HOG" 200
wait "$KID" 2>/dev/null
rc=$?
[ $rc = 137 ] || fail "the child should have been OOM-killed (exit 137), exited $rc"

# killed: whether the exposition in FILE has the kill of $KID as its last
killed() { grep -q "^memtop_last_oom_kill_info{pid=\"$KID\"," "$1"; }
stamp() { awk '$1 == "memtop_last_oom_kill_timestamp_seconds" { print $2 }' "$1"; }
got_kill() { curl -sf -o "$WORK/m$1" "http://127.0.0.1:$1/metrics" && killed "$WORK/m$1"; }
eventually $HANG got_kill "$p1" || fail "memtop on $p1 never showed the kill of $KID as its last"
eventually $HANG got_kill "$p2" || fail "memtop on $p2 never showed the kill of $KID as its last"
"$MEMTOP" --openmetrics >"$WORK/m3" || fail "memtop --openmetrics exited $?"
killed "$WORK/m3" || fail "memtop --openmetrics started after the kill does not have it as its last"
t1=$(stamp "$WORK/m$p1") t2=$(stamp "$WORK/m$p2") t3=$(stamp "$WORK/m3")
echo "kill of $KID: $t1 (live), $t2 (live), $t3 (from the log, started after)"
[ -n "$t1" ] && [ "$t1" = "$t2" ] && [ "$t1" = "$t3" ] || fail "three timestamps of one kill: $t1 $t2 $t3"

# the log record's time since boot plus the wall time of monotonic 0
python3 - "$KID" "$t1" <<'PY' || fail "the timestamp is not the log record's"
import os, sys, time
kid, got = sys.argv[1], float(sys.argv[2])
fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
us = None
while True:
    try:
        rec = os.read(fd, 8192).decode(errors="replace")
    except BlockingIOError:
        break
    except BrokenPipeError:
        continue
    head, _, text = rec.partition(";")
    if "Killed process " + kid + " " in text:
        us = int(head.split(",")[2])
if us is None:
    sys.exit("no 'Killed process %s' record in /dev/kmsg" % kid)
off = min((time.clock_gettime(time.CLOCK_MONOTONIC), time.time(),
           time.clock_gettime(time.CLOCK_MONOTONIC)) for _ in range(8))
offset = off[1] - (off[0] + off[2]) / 2
want = us / 1e6 + offset
print("log record at %.6f s since boot: %.6f; memtop %.6f (%+.6f)" % (us / 1e6, want, got, got - want))
sys.exit(0 if abs(got - want) <= 0.001 else 1)
PY
