#!/bin/sh
# memtop-test: sanitized
# --read-only refuses every action from the screen, each key with one clear line: O (a
# process's oom_score_adj) and k (a signal) on the main screen, H, L, R, k and u on the
# cgroup screen; no prompt opens. --help lists the flag.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/screen/act.inc"
trap 'tm_kill' EXIT
trap 'exit 1' INT TERM HUP

"$MEMTOP" --help | grep -q -- "--read-only " || fail "--help does not list --read-only"
line="read-only (--read-only): memtop changes nothing from this screen"
act_start --read-only
for k in O k; do
	tm send-keys Escape # the message of the key before cleared
	tm send-keys "$k"
	if [ "$k" = k ]; then
		wait_for "read-only (--read-only): memtop sends no signals" || fail "k was not refused"
	else
		wait_for "$line" || fail "$k was not refused"
	fi
	screen_text | grep -qE "\[y/N\]|Signal to send|oom_score_adj of" && fail "$k opened a prompt"
done
tm send-keys C
wait_for "Hierarchy v" || wait_for "no memory cgroup" || fail "C did not open the cgroup screen"
for k in H L R k u; do
	tm send-keys Home
	wait_gone "$line" || fail "the message stayed"
	tm send-keys "$k"
	wait_for "$line" || fail "$k on the cgroup screen was not refused"
	screen_text | grep -qE "\[y/N\]|new \(K" && fail "$k opened a prompt"
done
echo "O, k, H, L, R, k and u refused"
