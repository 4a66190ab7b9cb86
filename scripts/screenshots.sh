#!/bin/sh
# Regenerates every screenshot README.md and doc/ show (screenshots/*.png and their .txt), each
# from a real run of build/memtop in tmux (scripts/screenshot.sh), with a demo process to
# open (build/tests/alloc_child) and, as root on cgroup v2, a cgroup near its limit for the
# cgroup screen. Run on demand (make all first), not by the tests; it takes about two
# minutes, most of it the graphs' minute of history.
# Needs aha and chromium (apt-get install aha chromium fonts-dejavu-core).
# Usage: sh scripts/screenshots.sh [NAME...]   (memtop small large tree columns graph reclaim cgroups
#        detail detail_graphs leak postmortem; none: all)
set -eu
cd "$(dirname "$0")/.."
[ -x build/memtop ] && [ -x build/tests/alloc_child ] || {
	echo "build first: make all" >&2
	exit 1
}
tmp=$(mktemp -d)
demo= cg= leak= oomcg=
cleanup() {
	[ -n "$demo" ] && kill "$demo" 2>/dev/null
	[ -n "$leak" ] && kill "$leak" 2>/dev/null
	[ -n "$oomcg" ] && rmdir "$oomcg" 2>/dev/null
	if [ -n "$cg" ]; then
		for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do kill "$p" 2>/dev/null; done
		sleep 0.5
		rmdir "$cg" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# a process to open: 64 MiB, 200 faults a second
build/tests/alloc_child 64 200 demo-app >"$tmp/demo" &
demo=$!
until grep -q ready "$tmp/demo"; do sleep 0.1; done

# shot NAME W H WAIT ARGS KEYS...: screenshots/NAME.png and .txt, memtop ARGS at WxH,
# the keys after WAIT seconds
shot() {
	name=$1 w=$2 h=$3 wait=$4 args=$5
	shift 5
	NAME=$name W=$w H=$h WAIT=$wait ARGS=$args sh scripts/screenshot.sh "$@"
}
want() { [ -z "$only" ] || case " $only " in *" $1 "*) return 0 ;; *) return 1 ;; esac }
only="$*"

# a process that leaks 1 MiB a second, for the leak's screenshot
if want leak; then
	build/tests/grow_child 1 600 leaky-app >"$tmp/leak" &
	leak=$!
	until grep -q ready "$tmp/leak"; do sleep 0.1; done
fi

want memtop && shot memtop 100 30 2.5 ""
want small && shot small 80 24 2.5 ""
want large && shot large 120 40 2.5 ""
want tree && shot tree 100 30 2.5 "" t K
want columns && shot columns 100 30 2.5 "" f
want reclaim && shot reclaim 80 30 2.5 "" r
want detail && shot detail 100 30 2.5 "-p $demo" Enter
if want cgroups; then
	# a cgroup at about 92 % of its limit, where root may make one (v2, or v1's memory
	# hierarchy)
	if [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cgroup.subtree_control ]; then
		cg=/sys/fs/cgroup/memtop-demo
		mkdir -p "$cg"
		echo 80M >"$cg/memory.max"
	elif [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/memory/cgroup.procs ]; then
		cg=/sys/fs/cgroup/memory/memtop-demo
		mkdir -p "$cg"
		echo 80M >"$cg/memory.limit_in_bytes"
	fi
	if [ -n "$cg" ]; then
		sh -c 'echo $$ >"$1/cgroup.procs"; exec build/tests/alloc_child 72 0 demo-limited' \
			sh "$cg" >"$tmp/limited" &
		until grep -q ready "$tmp/limited"; do sleep 0.1; done
	fi
	shot cgroups 100 30 2.5 "--cgroups"
	# gone before the next shots: their forecasts and verdict name one victim, the
	# machine's
	if [ -n "$cg" ]; then
		for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do kill "$p" 2>/dev/null; done
		sleep 0.5
		rmdir "$cg" 2>/dev/null && cg=
	fi
fi
# the graphs with a minute of history behind them
want graph && shot graph 120 40 62 "" g
want detail_graphs && shot detail_graphs 120 40 62 "-p $demo" Enter 4
# the fastest growing process first, a minute after it started
want leak && shot leak 100 30 62 "--columns +grow,grow10 -o grow"
# an OOM kill in a 100 MiB cgroup (v1's memory hierarchy, as root), recorded, then replayed:
# N jumps to the kill, o lists it, Enter opens its post-mortem
if want postmortem && [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/memory/cgroup.procs ]; then
	oomcg=/sys/fs/cgroup/memory/memtop-oom
	mkdir -p "$oomcg"
	echo 100M >"$oomcg/memory.limit_in_bytes"
	build/memtop --record "$tmp/oom.rec" -d 1 --cgroups &
	rec=$!
	sleep 3
	sh -c 'echo $$ >"$1/cgroup.procs"; exec build/tests/grow_child 3 0 leaky-worker' \
		sh "$oomcg" >"$tmp/oom" 2>&1 || true
	sleep 3
	kill -INT "$rec"
	wait "$rec" || true
	shot postmortem 100 30 2.5 "--replay $tmp/oom.rec" N o Enter
fi
echo "screenshots/ regenerated"
