#!/bin/sh
# memtop-test: alone
# k on the cgroup screen kills a cgroup's processes, once confirmed: cgroup.kill where the
# kernel has it (v2, Linux 5.14), else SIGKILL to each process of cgroup.procs through a
# pidfd (v1 here). Three processes in a cgroup all die of SIGKILL (exit 137); a fourth
# outside it lives; n first leaves them all alive. The OOM history's action log says it.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/act.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
outside=
trap '[ -n "$outside" ] && kill $outside 2>/dev/null; tm_kill; cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg

name=memtop-actkill-$$
cg_make "$name"
pids=
for m in one two three; do
	cg_child "$cg_dir" 1 "$m"
	pids="$pids $cg_pid"
done
sleep 600 &
outside=$!
alive() { s=$(awk '{ print $3 }' /proc/$1/stat 2>/dev/null) && [ -n "$s" ] && [ "$s" != Z ]; }

act_start --cgroups
act_pick_cgroup "$cg_path"
if [ -e "$cg_dir/cgroup.kill" ]; then how="(cgroup.kill, its subtree too)"; else how="(SIGKILL each, by pidfd)"; fi
tm send-keys k
wait_for "Kill $cg_path: 3 processes $how? [y/N]" || fail "k asked for no confirmation"
tm send-keys n
wait_for "nothing changed" || fail "n did not say nothing changed"
for p in $pids; do alive "$p" || fail "$p died without a confirmation"; done
tm send-keys k
wait_for "[y/N]" || fail "k asked for no confirmation"
tm send-keys y
if [ -e "$cg_dir/cgroup.kill" ]; then
	wait_for "$cg_path killed (cgroup.kill) by you" || fail "y did not say the cgroup was killed"
else
	wait_for "$cg_path: SIGKILL sent to 3 processes (each by pidfd) by you" || fail "y did not say so"
fi
for p in $pids; do
	wait "$p" 2>/dev/null
	rc=$?
	[ $rc = 137 ] || fail "$p should have died of SIGKILL (137), exited $rc"
done
alive "$outside" || fail "the process outside the cgroup was killed"
[ -z "$(cat "$cg_dir/cgroup.procs")" ] || fail "processes are left: $(cat "$cg_dir/cgroup.procs")"
tm send-keys o
wait_for "Actions taken from the screen (1)" || fail "the OOM history lists no action"
echo "3 processes of $cg_path killed $how; the one outside lives"
