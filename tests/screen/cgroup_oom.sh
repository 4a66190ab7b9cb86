#!/bin/sh
# memtop-test: alone
# An OOM kill in a memory cgroup (64 MiB, a child touching 200 MiB) while the cgroup screen
# shows it: its row turns to the alert role (red background in the default theme) though
# its usage is then far below its limit, and KOOM, the kernel's count, says 1. It causes
# an OOM kill on the machine, so it runs apart from the BPF tests that count them.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg
if command -v flock >/dev/null; then
	exec 9>/tmp/memtop-bpf-tests.lock
	flock -w 90 9 || skip "the BPF tests held their lock for 90 s"
fi

tag=cgoom$$
cg_make "memtop-$tag" $((64 << 20))
oom_dir=$cg_dir

tm_start 160 40 "$MEMTOP -d 0.5"
wait_for "Tasks" || fail "memtop did not start"
tm send-keys C '\'
wait_for "Filter:" || fail "no filter prompt on the cgroup screen"
tm send-keys -l "$tag"
tm send-keys Enter
wait_for "memtop-$tag" || fail "no row for the cgroup"

# row: the cgroup's line of the table as tmux has it, attributes included
row() { tm capture-pane -p -e | awk -v n="memtop-$tag" '/CGROUP/ { t = 1; next } t && index($0, n)'; }
field() {
	screen_text | awk -v n="memtop-$tag" -v t="$1" '
		/^CGROUP / { for (i = 2; i <= NF; i++) if ($i == t) k = i - 1; next }
		k { for (j = 1; j <= NF; j++) if ($j == n) { print $(j + k); exit } }'
}
esc=$(printf '\033')
red="$esc\[([0-9]+;)*41(;[0-9]+)*m"
row | grep -Eq "$red" && fail "the cgroup is red before any kill: $(row | od -c | head -n 3)"

cg_run "$oom_dir" "$tmp/victim" "$HELPERS/alloc_child" 200 0 "victim-$tag"
wait "$cg_pid" 2>/dev/null
rc=$?
[ $rc = 137 ] || fail "the child touching 200 MiB in 64 MiB exited $rc, not 137 (killed)"
# red for the kill, not its usage: red once the victim's memory is freed (%LIM under 90;
# the refresh that first counts the kill may still see it)
red_freed() {
	row | grep -Eq "$red" && pct=$(field %LIM) && awk -v p="$pct" 'BEGIN { exit !(p < 90) }'
}
eventually $HANG red_freed || fail "the cgroup is not red with its memory freed after its OOM kill (%LIM $pct): $(screen_text)"
i=0
until [ "$(field KOOM)" = 1 ]; do
	i=$((i + 1))
	[ $i -le 30 ] || fail "KOOM is '$(field KOOM)' after one kill: $(screen_text)"
	sleep 0.1
done
echo "after its OOM kill the cgroup is red at $pct % of its limit, KOOM $(field KOOM)"
