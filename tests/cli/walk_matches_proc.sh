#!/bin/sh
# memtop-test: beside others
# memtop-test: sanitized
# Without BPF, every process's figures are those of its /proc/PID/stat, statm and status,
# read around the refresh (tests/cli/walk_check.inc says what is compared): pid 1, the
# kernel threads, a zombie, a process named "x) S 1 (<newline>) R 9", one whose effective
# uid is nobody's (not dumpable: the files in its /proc directory belong to root). -K
# leaves out exactly the kernel threads. Over several refreshes, with descriptors kept
# between them: a process that changes its effective uid shows the new user, one that
# exits is no longer listed, and a new process given the pid of one that exited shows
# its own figures.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
. "$TESTS/cli/walk_check.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
cleanup() {
	for p in $kids; do
		pkill -P "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"
command -v perl >/dev/null || skip "needs perl"
now() { date +%s.%N; }

# a zombie: sleep 0 exits, and its parent (exec'd into sleep) never reaps it
sh -c 'sleep 0 & exec sleep 300' &
kids="$kids $!"
reaper=$!
# a name with a closing parenthesis, an opening one and a newline, written to its own comm
sh -c 'printf "x) S 1 (\n) R 9" >/proc/$$/comm && echo ready >"$1"; sleep 300 & wait' sh "$tmp/evil" &
kids="$kids $!"
evil=$!
# nobody's effective uid (root alone can take it)
nobody=
if [ "$(id -u)" = 0 ]; then
	perl -e '$> = 65534; $> == 65534 or die "seteuid: $!"; print "ready\n"; $| = 1; sleep 300' >"$tmp/nobody" &
	kids="$kids $!"
	nobody=$!
	wait_ready "$tmp/nobody" || fail "the nobody process never got ready"
fi
wait_ready "$tmp/evil" || fail "the renamed shell never got ready"
i=0
until zombie=$(pgrep -P "$reaper") && [ "$(cut -d' ' -f3 /proc/"$zombie"/stat)" = Z ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "no zombie under $reaper"
	sleep 0.1
done
evil_comm=$(printf 'x) S 1 (\n) R 9')
[ "$(cat /proc/"$evil"/comm)" = "$evil_comm" ] || fail "the shell's comm is $(od -An -c /proc/"$evil"/comm)"
want="$zombie $evil $nobody"
# kthreadd, where kernel threads are to be seen (not in a container)
grep -q '^2 (kthreadd) ' /proc/2/stat 2>/dev/null && want="$want 2"

# one refresh against the /proc tables read before and after it
up0=$(uptime_s)
proc_table >"$tmp/before"
"$MEMTOP" --no-bpf --json -n 1 >"$tmp/one" 2>"$tmp/err" || fail "memtop exited $?: $(cat "$tmp/err")"
proc_table >"$tmp/after"
up1=$(uptime_s)
[ -s "$tmp/err" ] && fail "memtop wrote to stderr: $(cat "$tmp/err")"
walk_check "$tmp/one" "$tmp/before" "$tmp/after" "$up0" "$up1" "$want" 1 || exit 1
jq -e --argjson p "$evil" --arg c "$evil_comm" 'any(.processes[]; .pid == $p and .comm == $c)' \
	"$tmp/one" >/dev/null || fail "the renamed shell's comm is not $evil_comm"
[ -z "$nobody" ] || [ "$(jq -r --argjson p "$nobody" '.processes[] | select(.pid == $p) | .user' "$tmp/one")" = nobody ] ||
	fail "the process with euid 65534 is not shown as nobody's"

# -K: the kernel threads (PF_KTHREAD in stat's flags) and nothing else left out
"$MEMTOP" --no-bpf --json -n 1 -K >"$tmp/user" || fail "memtop -K exited $?"
proc_table >"$tmp/after_k"
jq '.processes[].pid' "$tmp/user" | awk -v before="$tmp/after" -v after="$tmp/after_k" '
	BEGIN {
		while ((getline l <before) > 0) { split(l, x, " "); b[x[1]] = x[2] " " int(x[4] / 2097152) % 2 }
		while ((getline l <after) > 0) { split(l, x, " "); a[x[1]] = x[2] " " int(x[4] / 2097152) % 2 }
	}
	{ listed[$1] = 1; if ($1 in a && a[$1] ~ / 1$/) { print "FAIL: -K lists kernel thread " $1; err = 1 } }
	END {
		for (p in b)
			if (p in a && a[p] == b[p]) {
				if (b[p] ~ / 1$/) k++
				else if (!(p in listed)) { print "FAIL: -K leaves out process " p; err = 1 }
			}
		printf "-K: %d kernel threads left out\n", k
		exit err
	}' || fail "-K"

# several refreshes: memtop keeps stat and statm open between them
start_child 8 0 walk-first
kids="$kids $child"
first=$child
switcher=
if [ -n "$nobody" ]; then
	perl -e '$SIG{USR1} = sub { $> = 65534; print "switched\n" }; $| = 1; print "ready\n"; sleep 1 while 1' >"$tmp/switch" &
	kids="$kids $!"
	switcher=$!
	wait_ready "$tmp/switch" || fail "the switcher never got ready"
fi
: >"$tmp/many"
"$MEMTOP" --no-bpf --json -n 16 -d 0.25 >"$tmp/many" 2>"$tmp/err" &
mt=$!
i=0
until [ "$(wc -l <"$tmp/many")" -ge 2 ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "memtop printed no two refreshes"
	sleep 0.1
done
t_switch=
if [ -n "$switcher" ]; then
	kill -USR1 "$switcher"
	i=0
	until grep -q switched "$tmp/switch"; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "the switcher never switched"
		sleep 0.05
	done
	t_switch=$(now)
	echo "the switcher took euid 65534"
fi
kill "$first"
wait "$first" 2>/dev/null
t_gone=$(now)
# a new process on the same pid (ns_last_pid: the next pid given out is the one after it)
second=
if [ -w /proc/sys/kernel/ns_last_pid ]; then
	tries=0
	while [ $tries -lt 50 ]; do
		: >"$tmp/child"
		echo $((first - 1)) >/proc/sys/kernel/ns_last_pid
		"$HELPERS/alloc_child" 24 0 walk-second >"$tmp/child" &
		p=$!
		[ "$p" = "$first" ] && second=$p && break
		# (KILL: a TERM that reaches the shell's fork before its exec runs this test's
		# trap there, is lost at the exec, and leaves alloc_child to wait forever)
		kill -KILL "$p"
		wait "$p" 2>/dev/null
		tries=$((tries + 1))
	done
	[ -n "$second" ] || echo "note: pid $first never came back in $tries tries (other processes took it)"
	[ -n "$second" ] && kids="$kids $second"
	[ -z "$second" ] || wait_ready "$tmp/child" || fail "the second alloc_child never got ready"
fi
t_second=$(now)
echo "pid $first: ${second:+reused, }memtop's 16 refreshes awaited"
# memtop -n 16 -d 0.25 ends in about 4 s; where it does not, what it waits on
mt_ended() { st=$(cut -d' ' -f3 "/proc/$mt/stat" 2>/dev/null) && [ "$st" != Z ] && return 1; :; }
eventually $HANG mt_ended ||
	fail "memtop -n 16 runs after $HANG s: $(wc -l <"$tmp/many") lines; state $st, wchan $(cat "/proc/$mt/wchan"), $(tr '\n' ' ' <"/proc/$mt/stack" 2>/dev/null | head -c 300)"
wait "$mt" || fail "memtop exited $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "memtop wrote to stderr: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/many")" = 16 ] || fail "16 refreshes printed $(wc -l <"$tmp/many") lines"

# each refresh: its start (ts), then the user of the switcher and the rss and command of
# the pid the first child had, "-" where not listed
jq -r --argjson s "${switcher:-0}" --argjson p "$first" '[.ts,
	((.processes[] | select(.pid == $s) | .user) // "-"),
	((.processes[] | select(.pid == $p) | .rss_kb) // "-"),
	((.processes[] | select(.pid == $p) | .cmd | split(" ") | last) // "-")] | @tsv' \
	"$tmp/many" >"$tmp/rows"
awk -F'\t' -v t_switch="$t_switch" -v t_gone="$t_gone" -v t_second="$t_second" \
	-v second="$second" -v first="$first" '
	function bad(msg) { print "FAIL: refresh " NR " (ts " $1 "): " msg; err = 1 }
	NR == 1 && $3 + 0 < 8192 { bad("pid " first " shows rss " $3 " KiB before it exited, not 8 MiB or more") }
	t_switch != "" && $1 > t_switch { after_switch++; if ($2 != "nobody") bad("the switcher shows user " $2 " after it took euid 65534") }
	t_switch != "" && NR == 1 && $2 != "root" { bad("the switcher shows user " $2 " before it switched") }
	$1 > t_gone && second == "" && $3 != "-" { bad("pid " first " is listed after it exited") }
	$1 > t_second && second != "" { on_second++; if ($3 + 0 < 24576 || $4 != "walk-second")
		bad("pid " first " shows rss " $3 " KiB and " $4 ", not the second child (24 MiB, walk-second)") }
	END {
		if (t_switch != "" && !after_switch) { print "FAIL: no refresh after the switch"; err = 1 }
		if (second != "" && !on_second) { print "FAIL: no refresh after pid " first " came back"; err = 1 }
		printf "%d refreshes: %d after the switch to nobody, %d with pid %s recycled\n", NR, after_switch, on_second, first
		exit err
	}' "$tmp/rows" || { cat "$tmp/rows"; exit 1; }
