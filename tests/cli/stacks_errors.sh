#!/bin/sh
# memtop-test: beside others
# memtop --stacks: a bad PID value (or --stacks -- without a command, --folded without
# --stacks) exits 2, a command that cannot be run (--stacks -- CMD) 127, a process that does not exist exits 1, and
# so does one whose stacks cannot be sampled (--no-bpf, or not root): each with one
# "memtop: " line on stderr and nothing on stdout.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

exits 2 "--stacks needs a PID" --stacks abc
exits 2 "--stacks needs a PID" --stacks 0
exits 2 "--stacks needs a PID" --stacks -5
exits 2 "--stacks needs a PID" --stacks 99999999999
exits 2 "option '--stacks' needs a value" --stacks
exits 2 "-d needs seconds" --stacks 1 -d 0
exits 2 "--stacks needs a PID, or -- and a command" --stacks --
exits 2 "--stacks needs a PID, or -- and a command" --stacks --folded 5
exits 2 "--folded is for --stacks" --folded
exits 2 "--folded and --json are two outputs" --stacks 1 --folded --json
exits 127 "cannot run /nonexistent/cmd: No such file or directory" --stacks -- /nonexistent/cmd

# a pid that is free now: one past the highest in use is not guaranteed, so take one
# above pid_max
max=$(cat /proc/sys/kernel/pid_max)
exits 1 "no process $((max + 1))\$" --stacks $((max + 1)) -d 0.2
exits 1 "no process $((max + 1))\$" --stacks $((max + 1)) -d 0.2 --json

sleep 30 &
kid=$!
exits 1 "stacks of process $kid unavailable: BPF off \(--no-bpf\)" --stacks $kid -d 0.2 --no-bpf
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$MEMTOP" --stacks $kid -d 0.2 \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "^memtop: stacks of process $kid unavailable: stacks need root" "$tmp/err" ||
		fail "as nobody: exit $rc, $(cat "$tmp/err")"
	echo "as nobody: $(cat "$tmp/err")"
fi
kill $kid
wait $kid 2>/dev/null

# a process that has exited but not been reaped (a zombie) is gone too
sh -c 'sleep 0.1 & exec sleep 3' &
parent=$!
sleep 0.5
zombie=$(ps -o pid= --ppid $parent | tr -d ' ')
[ -n "$zombie" ] && grep -q '^State:.Z' /proc/"$zombie"/status 2>/dev/null &&
	exits 1 "no process $zombie\$" --stacks "$zombie" -d 0.2
kill $parent 2>/dev/null
wait $parent 2>/dev/null
exit 0
