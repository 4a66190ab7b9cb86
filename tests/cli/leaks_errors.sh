#!/bin/sh
# memtop-test: beside others
# memtop --leaks: a bad PID or SECS exits 2; a process that does not exist, a zombie, a
# thread id (not a process), a caller who is not root: exit 1; each with one "memtop: "
# line on stderr and nothing on stdout.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'kill $kid $parent 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
kid="" parent=""

exits 2 "--leaks needs a PID" --leaks abc
exits 2 "--leaks needs a PID" --leaks 0
exits 2 "--leaks needs a PID" --leaks -5
exits 2 "--leaks needs a PID" --leaks 99999999999
exits 2 "--leaks needs a PID" --leaks :3
exits 2 "--leaks PID:SECS needs" --leaks 1:0
exits 2 "--leaks PID:SECS needs" --leaks 1:abc
exits 2 "--leaks PID:SECS needs" --leaks 1:-1
exits 2 "option '--leaks' needs a value" --leaks

max=$(cat /proc/sys/kernel/pid_max)
exits 1 "no process $((max + 1))\$" --leaks $((max + 1)):0.2
exits 1 "no process $((max + 1))\$" --leaks $((max + 1)):0.2 --json

# a thread: its id is not a process's
"$HELPERS/thread_faults" 2 1 >"$tmp/threads" 2>&1 &
kid=$!
wait_ready "$tmp/threads" || fail "thread_faults never got ready"
tid=$(ls /proc/$kid/task | grep -vx "$kid" | head -1)
exits 1 "$tid is a thread of process $kid: --leaks takes a process\$" --leaks "$tid:0.2"

# a zombie (exited, not reaped by its parent, which sleeps on): no process either
sh -c 'sleep 0.1 & exec sleep 5' &
parent=$!
is_zombie() {
	zombie=$(ps -o pid= --ppid $parent | tr -d ' ')
	[ -n "$zombie" ] && grep -q '^State:.Z' "/proc/$zombie/status" 2>/dev/null
}
eventually $HANG is_zombie || fail "no zombie of $parent"
exits 1 "no process $zombie\$" --leaks "$zombie:0.2"

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$MEMTOP" --leaks $kid:0.2 \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] &&
		grep -q "^memtop: --leaks needs root" "$tmp/err" ||
		fail "as nobody: exit $rc, $(cat "$tmp/err")"
	echo "as nobody: $(cat "$tmp/err")"
fi
kill $kid
wait $kid 2>/dev/null

exit 0
