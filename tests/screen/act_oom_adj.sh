#!/bin/sh
# memtop-test: alone
# O on the main screen sets a process's oom_score_adj from its menu, and that decides whom
# the kernel kills in a full cgroup. A 64 MiB memory cgroup holds "keeper" and "offered"
# (16 MiB each); O protects keeper (1: -1000) and offers offered (5: 1000), each
# confirmed, as /proc/PID/oom_score_adj then says. A third process touching 36 MiB fills
# the cgroup: the kernel kills offered (exit 137), not the larger third nor keeper, who
# lives. Without CAP_SYS_RESOURCE (a container's root) no one may lower an oom_score_adj
# below the least it had: both start at 500 and keeper is set to 0 (3) instead, and the
# refusal of -1000 is said in one line. The OOM history screen's action log lists both.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/act.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg

cp "$HELPERS/alloc_child" "$tmp/keeper"
cp "$HELPERS/alloc_child" "$tmp/offered"
name=memtop-actadj-$$
cg_make "$name" $((64 << 20))
cap_sys_resource() { [ $((0x$(awk '$1 == "CapEff:" { print $2 }' /proc/self/status) >> 24 & 1)) = 1 ]; }
if cap_sys_resource; then
	start=0 protect=1 protected=-1000
else
	start=500 protect=3 protected=0
	echo "no CAP_SYS_RESOURCE here: keeper protected to 0 from 500"
fi
adj() { cat /proc/$1/oom_score_adj; }
cg_run "$cg_dir" "$tmp/child.keeper" sh -c "echo $start >/proc/self/oom_score_adj && exec \"\$0\" 16 0" "$tmp/keeper"
keeper=$cg_pid
wait_ready "$tmp/child.keeper" || fail "keeper never got ready"
cg_run "$cg_dir" "$tmp/child.offered" sh -c "echo $start >/proc/self/oom_score_adj && exec \"\$0\" 16 0" "$tmp/offered"
offered=$cg_pid
wait_ready "$tmp/child.offered" || fail "offered never got ready"

act_start -p "$keeper,$offered"
act_pick_proc keeper
screen_text | grep -q "^ *$keeper .*keeper" || fail "keeper is not the row shown"
tm send-keys O
wait_for "oom_score_adj of $keeper (keeper), now $start:  1 protect -1000" ||
	fail "O did not open the menu"
if [ "$protect" != 1 ]; then # -1000 refused, in one line
	tm send-keys 1
	wait_for "Set oom_score_adj of $keeper (keeper) $start -> -1000? [y/N]" || fail "no confirmation"
	tm send-keys y
	wait_for "not lowered to -1000: that needs CAP_SYS_RESOURCE" || fail "the refusal was not said"
	[ "$(adj $keeper)" = "$start" ] || fail "keeper's oom_score_adj moved to $(adj $keeper)"
	tm send-keys O
	wait_for "1 protect -1000" || fail "O did not open the menu again"
fi
tm send-keys $protect
wait_for "Set oom_score_adj of $keeper (keeper) $start -> $protected? [y/N]" || fail "no confirmation"
[ "$(adj $keeper)" = "$start" ] || fail "set before y: $(adj $keeper)"
tm send-keys y
wait_for "oom_score_adj of $keeper (keeper) set $start -> $protected by you" || fail "y did not say it"
[ "$(adj $keeper)" = "$protected" ] || fail "keeper's oom_score_adj is $(adj $keeper)"

act_pick_proc offered
screen_text | grep -q "^ *$offered .*offered" || fail "offered is not the row shown"
tm send-keys O
wait_for "oom_score_adj of $offered (offered), now $start:" || fail "O did not open the menu"
tm send-keys 5
wait_for "Set oom_score_adj of $offered (offered) $start -> 1000? [y/N]" || fail "no confirmation"
tm send-keys y
wait_for "oom_score_adj of $offered (offered) set $start -> 1000 by you" || fail "y did not say it"
[ "$(adj $offered)" = 1000 ] || fail "offered's oom_score_adj is $(adj $offered)"

# the cgroup filled: the kernel takes offered, whatever the others' sizes
cg_run "$cg_dir" "$tmp/hog.out" "$HELPERS/bpf_hog" 36 1 600
hog=$cg_pid
wait "$offered" 2>/dev/null
rc=$?
[ $rc = 137 ] || fail "offered should have been OOM-killed (137), exited $rc"
alive() { s=$(awk '{ print $3 }' /proc/$1/stat 2>/dev/null) && [ -n "$s" ] && [ "$s" != Z ]; }
alive "$keeper" || fail "keeper was killed"
kills=$(awk '$1 == "oom_kill" { print $2 }' "$cg_dir/memory.oom_control" "$cg_dir/memory.events" 2>/dev/null | head -n 1)
echo "the kernel's OOM kills in the cgroup: ${kills:-?}; offered killed, keeper ($(adj $keeper)) lives"

tm send-keys o
wait_for "Actions taken from the screen" || fail "the OOM history lists no actions"
screen_text | grep -qE "^[0-9:]{8} oom_score_adj of $offered \(offered\) set $start -> 1000 by you" ||
	fail "the log lacks offered's"
