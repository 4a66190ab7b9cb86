#!/bin/sh
# The CGROUP column on screen, as root: an idle process in a cgroup named as a container
# is (64 hex digits), below a long path, shows the end of its cgroup's path with the id cut
# to 12 characters; the \ filter finds it by a part of its cgroup (the id past those 12);
# --cgroup starts the screen with its processes only.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (makes memory cgroups)"
if [ -d /sys/fs/cgroup/memory ]; then
	root=/sys/fs/cgroup/memory
elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	root=/sys/fs/cgroup
else
	skip "no memory cgroup controller to use"
fi
name=memtop-cgcol-$$
id=fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210
dir=$root/$name/docker/$id
kids=
cleanup() {
	[ -n "$kids" ] && kill -9 $kids 2>/dev/null
	wait 2>/dev/null
	tm_kill
	for d in "$dir" "$root/$name/docker" "$root/$name"; do
		i=0
		while [ -d "$d" ] && ! rmdir "$d" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	done
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$dir" || fail "mkdir $dir"
sh -c 'echo $$ >"$0/cgroup.procs" && exec sleep 1000' "$dir" &
pid=$!
kids=$pid

rows() { screen_text | awk '/^ *PID / { t = 1; next } t && $1 ~ /^[0-9]+$/ { printf "%s ", $1 }'; }
cell=$(printf '%s' "/$name/docker/fedcba987654" | tail -c 22)

tm_start 120 30 "$MEMTOP -d 0.5 --columns pid,rss,cgroup,cmd"
wait_for "CGROUP" || fail "no CGROUP column"
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys -l "3210fedcba98765432"
wait_for ", 1 shown" || fail "the cgroup filter found not one row: $(screen_text)"
[ "$(rows)" = "$pid " ] || fail "the filtered table shows '$(rows)', not $pid"
screen_text | grep -qF " ..$cell sleep 1000" || fail "the row does not show '..$cell': $(screen_text)"
# the next on a tmux server of its own (one on the old socket may meet the old one exiting)
tm_kill
TMUX_SOCK=memtop-test-$$-2

tm_start 120 30 "$MEMTOP -d 0.5 --cgroup /$name"
wait_for ", 1 shown" || fail "--cgroup /$name showed not one row: $(screen_text)"
[ "$(rows)" = "$pid " ] || fail "--cgroup /$name shows '$(rows)', not $pid"
echo "pid $pid: ..$cell"
