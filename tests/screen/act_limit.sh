#!/bin/sh
# memtop-test: alone
# L on the cgroup screen raises a cgroup's limit so that a child that would have been
# OOM-killed lives: a 64 MiB cgroup (v1 memory.limit_in_bytes, v2 memory.max) holds a
# child waiting to touch 100 MiB. The prompt shows the limit now (64M) and the forecast;
# a bad amount gets its reason in the prompt; 256M is confirmed (y) and the kernel's file
# says 256 MiB; u undoes it (64 MiB again, confirmed), L sets it again; set to 300 MiB
# by another, u leaves it (what memtop set is no longer there to undo); and the child
# then touches its 100 MiB and lives. The status line and the OOM history screen's
# action log say what was set, from what to what.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/act.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg

name=memtop-actlim-$$
cg_make "$name" $((64 << 20))
mkfifo "$tmp/go"
cg_run "$cg_dir" "$tmp/hog.out" sh -c 'read x <"$0"; exec "$1" 100 1 600' "$tmp/go" "$HELPERS/bpf_hog"
hog=$cg_pid
limit() { cat "$cg_dir/$CGLIMIT"; }
file=$CGLIMIT
[ "$file" = memory.max ] || file=memory.limit_in_bytes

act_start --cgroups
act_pick_cgroup "$cg_path"
tm send-keys L
wait_for "$file of $cg_path, now 64M (usage" || fail "L did not show the limit now"
tm send-keys -l 12Q
tm send-keys Enter
wait_for "not '12Q'" || fail "a bad amount got no reason"
bottom | grep -q "new (K, M, G or max): 12Q" || fail "the prompt closed on a bad amount: $(bottom)"
tm send-keys C-u
tm send-keys -l 256M
tm send-keys Enter
wait_for "Set $file of $cg_path 64M -> 256M? [y/N]" || fail "no confirmation"
[ "$(limit)" = $((64 << 20)) ] || fail "the limit changed before y: $(limit)"
tm send-keys y
wait_for "$file of $cg_path set 64M -> 256M by you" || fail "y did not say the limit was set"
[ "$(limit)" = $((256 << 20)) ] || fail "the kernel's limit is $(limit), not 256 MiB"

# u: back to 64 MiB, confirmed; then 256M again
tm send-keys u
wait_for "Undo: $file of $cg_path 256M -> 64M? [y/N]" || fail "u offered no undo"
tm send-keys y
wait_for "set 256M -> 64M by you (undone)" || fail "the undo was not said"
[ "$(limit)" = $((64 << 20)) ] || fail "the undo left the limit at $(limit)"
tm send-keys L
wait_for "now 64M" || fail "L again did not show 64M"
tm send-keys -l 256M
tm send-keys Enter
wait_for "[y/N]" || fail "no confirmation"
tm send-keys y
wait_for "set 64M -> 256M by you" || fail "the second raise was not said"
[ "$(limit)" = $((256 << 20)) ] || fail "the kernel's limit is $(limit), not 256 MiB"

# set since by someone else (300 MiB): u does not put back what memtop replaced
echo $((300 << 20)) >"$cg_dir/$CGLIMIT"
tm send-keys u
wait_for "Undo: $file of $cg_path 256M -> 64M? [y/N]" || fail "u offered no undo"
tm send-keys y
wait_for "is 300M now, not the 256M you set: changed since; not undone" ||
	fail "an undo over another's change was not refused"
[ "$(limit)" = $((300 << 20)) ] || fail "the refused undo left the limit at $(limit)"

# the child touches 100 MiB under the raised limit and lives
echo go >"$tmp/go"
rss() { awk '$1 == "VmRSS:" { print $2 }' /proc/$hog/status 2>/dev/null; }
touched() { r=$(rss) && [ -n "$r" ] && [ "$r" -ge $((100 << 10)) ]; }
eventually $HANG touched || fail "the child did not touch 100 MiB (VmRSS $(rss) KiB)"
kill -0 "$hog" 2>/dev/null || fail "the child was killed"
grep -q "^State:.*[SR]" /proc/$hog/status || fail "the child is not alive: $(grep State /proc/$hog/status)"

# the action log on the OOM history screen
tm send-keys o
wait_for "Actions taken from the screen (3)" || fail "the OOM history lists no actions"
screen_text | grep -qE "^[0-9:]{8} $file of $cg_path set 64M -> 256M by you" ||
	fail "the log lacks the raise"
echo "the limit set to 256M, undone, set again, not undone over another's; the child lives with $(rss) KiB"
