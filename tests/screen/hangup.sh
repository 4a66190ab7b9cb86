#!/bin/sh
# memtop-test: beside others
# When its terminal goes away (the tmux server killed, as an ssh connection dropping),
# memtop ends instead of reading the end of its input over and over: started in the pane
# (SIGHUP), under setsid and under runuser (no SIGHUP reaches it: only the end of the
# input), on the process table, the help, a prompt, paused, the detail, the cgroups and a
# replay, and as -b writing to that terminal. memtop refreshes once an hour here, so that
# "gone" means gone before its next refresh; the screen ends with status 129, as on SIGHUP.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; pkill -KILL -x "$name" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
chmod 755 "$tmp"
# a name of its own, so that its process is found by name, and a copy nobody can run
name=mt-hup-$$
bin=$tmp/$name
cp "$MEMTOP" "$bin" && chmod 755 "$bin"
mkdir "$tmp/st" && chmod 777 "$tmp/st"
# a sanitized build's reports to stderr (nobody cannot write the test's log directory)
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=stderr"
[ -n "${UBSAN_OPTIONS:-}" ] && export UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=stderr"

# gone WHAT: the process named $name has ended (or is a zombie nobody reaped yet)
gone() {
	i=0
	while [ $i -lt 300 ]; do
		pids=$(pgrep -x "$name")
		[ -z "$pids" ] && return 0
		st=$(for p in $pids; do awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null; done | sort -u)
		[ "$st" = Z ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	ps -o pid,stat,pcpu,args -C "$name"
	fail "$1: memtop still runs after its terminal went away"
}

# way KEYS CMD: CMD in a pane, the keys sent once memtop shows its table, the server
# killed; memtop must end
way() {
	keys=$1 cmd=$2
	rm -f "$tmp/st/rc"
	tm_start 100 30 "$cmd"
	wait_for "Mem" || fail "$cmd: memtop did not start"
	for k in $keys; do
		tm send-keys "$k"
		sleep 0.3
	done
	tm_kill
	gone "$cmd${keys:+ (keys $keys)}"
}
status() { # the status the wrapper wrote: 129, as on SIGHUP
	wait_file "$tmp/st/rc" 10 || fail "$1: no exit status written"
	[ "$(cat "$tmp/st/rc")" = 129 ] || fail "$1: exited $(cat "$tmp/st/rc"), not 129"
}

way "" "$bin -d 3600"
echo "in the pane: gone (SIGHUP)"
way "" "setsid -w sh -c '$bin -d 3600; echo \$? >$tmp/st/rc'"
status setsid
echo "under setsid: gone, 129"
if command -v runuser >/dev/null && id nobody >/dev/null 2>&1; then
	way "" "runuser -u nobody -- sh -c '$bin -d 3600; echo \$? >$tmp/st/rc'"
	status runuser
	echo "under runuser as nobody: gone, 129"
fi
for keys in h / Z Enter C; do
	way "$keys" "setsid -w sh -c '$bin -d 3600; echo \$? >$tmp/st/rc'"
	status "setsid, keys $keys"
	echo "under setsid after $keys: gone, 129"
done
way "" "setsid -w sh -c '$bin -d 3600 --replay $TESTS/cli/golden/oom.rec; echo \$? >$tmp/st/rc'"
status "setsid, a replay"
echo "a replay under setsid: gone, 129"

# -b printing to the terminal: its next write fails, and it ends
tm_start 100 30 "setsid -w sh -c '$bin -b -d 1 -p 1; echo \$? >$tmp/st/rc'"
wait_for "Mem:" || fail "memtop -b printed nothing"
tm_kill
gone "-b under setsid"
wait_file "$tmp/st/rc" 10 || fail "-b: no exit status written"
[ "$(cat "$tmp/st/rc")" != 0 ] || fail "-b exited 0 when it could not write"
echo "-b under setsid: gone, exit $(cat "$tmp/st/rc")"
