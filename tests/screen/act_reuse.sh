#!/bin/sh
# memtop-test: alone
# An action never reaches a process or a cgroup that took the place of the one selected.
# O: memtop runs in a PID namespace of its own (unshare), paused, with the confirmation
# of "victim"'s oom_score_adj open; the victim is killed from outside and an "impostor"
# takes its pid (the namespace's ns_last_pid); y must leave the impostor's oom_score_adj
# as it was and say the victim has exited. L: a cgroup removed and made again under its
# path between the prompt and y is not the one shown: y says it is gone and the new one's
# limit stays as it was.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/act.inc"
need_memcg
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
chmod 755 "$tmp"
kids=
trap '[ -n "$kids" ] && kill $kids 2>/dev/null; tm_kill; cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
. "${TESTS:-$(dirname "$0")/..}/screen/pid_reuse.inc"
reuse_start 200 40

victim
wait_for " $vns " || fail "the victim is not on screen"
act_pick_proc victim
screen_text | grep -q "^ *$vns .*victim" || fail "the row shown is not pid $vns"
tm send-keys Z
wait_for "PAUSED" || fail "Z did not pause"
tm send-keys O
wait_for "oom_score_adj of $vns (victim), now 0:" || fail "O did not open the menu"
tm send-keys 5
wait_for "Set oom_score_adj of $vns (victim) 0 -> 1000? [y/N]" || fail "no confirmation"

# the victim killed from outside, the impostor started with its pid there
impostor
tm send-keys y
wait_for "$vns (victim) has exited; nothing changed" || fail "y did not say the victim exited"
[ "$(cat /proc/$impostor/oom_score_adj)" = 0 ] ||
	fail "the impostor's oom_score_adj was set: $(cat /proc/$impostor/oom_score_adj)"
echo "the impostor (pid $vns there) kept oom_score_adj 0"

# a cgroup made again under the same path
tm send-keys Z
wait_gone "PAUSED" || fail "Z did not resume"
name=memtop-actreuse-$$
cg_make "$name" $((64 << 20))
act_pick_cgroup "$cg_path"
tm send-keys L
wait_for "of $cg_path, now 64M" || fail "L did not show the limit"
tm send-keys -l 128M
tm send-keys Enter
wait_for "64M -> 128M? [y/N]" || fail "no confirmation"
rmdir "$cg_dir" && mkdir "$cg_dir" || fail "cannot make $cg_dir again"
echo $((32 << 20)) >"$cg_dir/$CGLIMIT"
tm send-keys y
wait_for "$cg_path is gone (removed since it was shown); nothing changed" ||
	fail "y did not say the cgroup shown is gone"
[ "$(cat "$cg_dir/$CGLIMIT")" = $((32 << 20)) ] || fail "the new cgroup's limit was set"
echo "the new $cg_path kept its 32 MiB limit"
