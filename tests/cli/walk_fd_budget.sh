#!/bin/sh
# With few file descriptors, every process is still listed with the figures of /proc
# (tests/cli/walk_check.inc). With 64 at most, memtop keeps none open between refreshes.
# With a soft limit of 64 under a hard one H, it raises the soft limit to H and keeps
# stat and statm open for (H - 256) / 2 processes, the lowest pids, reading the others
# afresh each refresh; H is chosen so that about half of 300 sleeping processes the test
# starts fall within that budget. The descriptors of processes that exit are closed, and
# processes that start are listed. At most 1024 processes keep theirs, whatever the limit:
# on a machine with more than that many processes below the 150th sleeping one, the test
# checks that cap and stops there.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/cli/walk_check.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
sleepers=
mt=
trap '[ -n "$mt" ] && kill "$mt" 2>/dev/null; for p in $sleepers; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"
now() { date +%s.%N; }

start_sleepers 300
first=$sleepers

# the line N of memtop's output FILE, as a file of its own
line() { sed -n "$2p" "$1" >"$1.$2"; }

# 64 descriptors: none kept (64 leave none beyond the 256 for the rest of memtop)
up0=$(uptime_s)
proc_table >"$tmp/before"
(ulimit -n 64 && exec "$MEMTOP" --no-bpf --json -n 3 -d 0.2) >"$tmp/low" 2>"$tmp/err" ||
	fail "memtop under ulimit -n 64 exited $?: $(cat "$tmp/err")"
proc_table >"$tmp/after"
up1=$(uptime_s)
[ -s "$tmp/err" ] && fail "memtop wrote to stderr: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/low")" = 3 ] || fail "3 refreshes printed $(wc -l <"$tmp/low") lines"
line "$tmp/low" 1
line "$tmp/low" 3
echo "ulimit -n 64, first refresh:"
walk_check "$tmp/low.1" "$tmp/before" "$tmp/after" "$up0" "$up1" "$sleepers" 1 || exit 1
echo "ulimit -n 64, third refresh:"
walk_check "$tmp/low.3" "$tmp/before" "$tmp/after" "$up0" "$up1" "$sleepers" 1 || exit 1

# a soft limit of 64 under a hard one whose budget keeps the processes up to the 150th
# sleeping one in pid order; those past it are read afresh
mid=$(echo $sleepers | tr ' ' '\n' | sort -n | sed -n 150p)
budget=$(ls /proc | grep -E '^[0-9]+$' | awk -v p="$mid" '$1 <= p' | wc -l)
hard=$((256 + 2 * budget))
capped=
if [ "$budget" -ge 1024 ]; then
	budget=1024
	capped=1
fi
up0=$(uptime_s)
proc_table >"$tmp/before"
: >"$tmp/mid"
# (it runs until the test has seen what it checks, then gets SIGTERM: a fixed -n could end
# it first on a busy machine)
(ulimit -S -n 64 && ulimit -H -n $hard && exec "$MEMTOP" --no-bpf --json -d 0.3) >"$tmp/mid" 2>"$tmp/err" &
mt=$!
# waits until memtop has printed N refreshes
refreshes() {
	i=0
	until [ "$(wc -l <"$tmp/mid")" -ge "$1" ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "memtop printed no $1 refreshes"
		sleep 0.1
	done
}
# fds: lists memtop's descriptors into $tmp/fds (between two refreshes); kept: the pids
# whose stat it holds open, as many as the budget (one more while it reads one afresh)
fds() { ls -l /proc/$mt/fd 2>/dev/null >"$tmp/fds"; }
kept() { sed -n 's|.* -> /proc/\([0-9]*\)/stat$|\1|p' "$tmp/fds"; }
kept_ok() { n=$(kept | wc -l) && [ "$n" -ge "$budget" ] && [ "$n" -le $((budget + 1)) ]; }
refreshes 2
fds
limit=$(awk '/^Max open files/ { print $4, $5 }' /proc/$mt/limits)
[ "$limit" = "$hard $hard" ] || fail "memtop's limit on open files is '$limit', not raised to $hard"
nfd=$(($(wc -l <"$tmp/fds") - 1))
nkept=$(kept | wc -l)
echo "ulimit -Sn 64 -Hn $hard: memtop holds $nfd descriptors, stat of $nkept processes"
kept_ok || fail "memtop keeps stat open for $nkept processes, not min(($hard - 256) / 2, 1024) = $budget"
[ "$nfd" -le $((hard - 256 + 16)) ] || fail "memtop holds $nfd descriptors, over its budget"
if [ -n "$capped" ]; then
	echo "more than 1024 processes below the 150th sleeping one: memtop keeps 1024, its cap"
	exit 0
fi
# end 50 of the processes it keeps, start 50 more
gone=$(kept | awk -v s=" $sleepers " 'index(s, " " $1 " ") { print }' | head -50)
[ "$(echo "$gone" | wc -w)" -ge 10 ] || fail "memtop keeps too few of the sleeping processes: $(kept | tr '\n' ' ')"
kill $gone 2>/dev/null
for p in $gone; do wait "$p" 2>/dev/null; done
new=
i=0
while [ $i -lt 50 ]; do
	sleep 300 &
	sleepers="$sleepers $!"
	new="$new $!"
	i=$((i + 1))
done
t_new=$(now)
n=$(wc -l <"$tmp/mid")
refreshes $((n + 2))
fds
for p in $gone; do
	[ -e /proc/"$p" ] && continue # the pid was given out again
	grep -q " -> /proc/$p/" "$tmp/fds" && fail "memtop still holds a file of $p, which exited"
done
kept_ok || fail "memtop keeps $(kept | wc -l) processes after the exits, not $budget"
nfd=$(($(wc -l <"$tmp/fds") - 1))
[ "$nfd" -le $((hard - 256 + 16)) ] || fail "memtop holds $nfd descriptors after the exits"
refreshes $(($(wc -l <"$tmp/mid") + 1))
kill -TERM "$mt"
wait "$mt"
rc=$?
mt=
[ $rc = 143 ] || fail "memtop exited $rc after SIGTERM: $(cat "$tmp/err")"
proc_table >"$tmp/after"
up1=$(uptime_s)
[ -s "$tmp/err" ] && fail "memtop wrote to stderr: $(cat "$tmp/err")"
last=$(wc -l <"$tmp/mid")
# the sleeping processes that started during the run: listed after they started
jq -r --arg t "$t_new" --arg new "$new" '($new | split(" ") | map(select(. != "") | tonumber)) as $n |
	select(.ts > ($t | tonumber)) | $n - [.processes[].pid] | .[]' "$tmp/mid" | sort -u >"$tmp/missing"
[ -s "$tmp/missing" ] && fail "processes started during the run are missing: $(tr '\n' ' ' <"$tmp/missing")"
line "$tmp/mid" 1
line "$tmp/mid" "$last"
# the first sleeping processes that are left slept through the run: compared exactly
ended=" $(echo $gone) "
left=$(for p in $first; do case "$ended" in *" $p "*) ;; *) echo "$p" ;; esac; done)
echo "ulimit -Sn 64 -Hn $hard, first refresh:"
walk_check "$tmp/mid.1" "$tmp/before" "$tmp/after" "$up0" "$up1" "$left" 1 || exit 1
echo "ulimit -Sn 64 -Hn $hard, last refresh ($last):"
walk_check "$tmp/mid.$last" "$tmp/before" "$tmp/after" "$up0" "$up1" "$left" 1 || exit 1
