#!/bin/sh
# memtop-test: beside others
# memtop --stacks -- CMD run as root under sudo (SUDO_UID, SUDO_GID, SUDO_USER: nobody's)
# runs CMD as that user with that user's environment: HOME, USER, LOGNAME and SHELL from
# its passwd entry (getent), not root's; the rest of the environment as memtop's.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
pw=$(getent passwd nobody) || skip "no user nobody"
uid=$(echo "$pw" | cut -d: -f3) gid=$(echo "$pw" | cut -d: -f4)
home=$(echo "$pw" | cut -d: -f6) shell=$(echo "$pw" | cut -d: -f7)
nobody_turn
chmod 777 "$tmp"
HOME=/root USER=root LOGNAME=root SHELL=/bin/bash MEMTOP_TEST_KEPT=kept \
	SUDO_USER=nobody SUDO_UID=$uid SUDO_GID=$gid "$MEMTOP" --stacks --json -- \
	sh -c "printf '%s\n' \"\$(id -u)\" \"\$HOME\" \"\$USER\" \"\$LOGNAME\" \"\$SHELL\" \
		\"\$MEMTOP_TEST_KEPT\" >'$tmp/env'" >"$tmp/out" 2>"$tmp/err" ||
	fail "as nobody: $(cat "$tmp/err")"
printf '%s\n' "$uid" "$home" nobody nobody "$shell" kept >"$tmp/want"
cmp -s "$tmp/want" "$tmp/env" ||
	fail "the command's uid, HOME, USER, LOGNAME, SHELL, and a variable kept: $(tr '\n' ' ' <"$tmp/env"), not $(tr '\n' ' ' <"$tmp/want")"
echo "under sudo the command runs as nobody with: $(tr '\n' ' ' <"$tmp/env")"
