#!/bin/sh
# memtop-test: beside others
# memtop-test: sanitized
# Under a /proc mounted hidepid=2 (invisible) a user other than root sees its own processes
# alone: the BPF status line ("counters off") says why, in batch and JSON; root, who sees
# every process, is not told. Needs root, to mount such a /proc in a mount namespace.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
[ "$(id -u)" = 0 ] || skip "needs root to mount /proc with hidepid=2"
command -v unshare >/dev/null && command -v runuser >/dev/null || skip "needs unshare and runuser"
command -v jq >/dev/null || skip "needs jq"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
chmod 755 "$tmp"

unshare -m --propagation private sh -c "mount -t proc -o hidepid=2 proc /proc || exit 77
	runuser -u nobody -- '$MEMTOP' -b -n 1 --no-bpf >'$tmp/user' 2>'$tmp/err' || exit 1
	runuser -u nobody -- '$MEMTOP' --json -n 1 --no-bpf >'$tmp/user.json' 2>>'$tmp/err' || exit 1
	'$MEMTOP' -b -n 1 --no-bpf >'$tmp/root' 2>>'$tmp/err'"
rc=$?
[ $rc = 77 ] && skip "cannot mount /proc with hidepid=2 here"
[ $rc = 0 ] || fail "memtop under hidepid=2 exited $rc: $(cat "$tmp/err")"
grep '^BPF' "$tmp/user" "$tmp/root"
head -1 "$tmp/user"
grep -Eq "^BPF off: .*; /proc hides other users' processes \(hidepid=(2|invisible)\)$" "$tmp/user" ||
	fail "batch does not say /proc hides processes: $(grep '^BPF' "$tmp/user")"
jq -e '.bpf.reason | test("/proc hides other users. processes")' "$tmp/user.json" >/dev/null ||
	fail "JSON bpf.reason does not say /proc hides processes"
grep -q "hides" "$tmp/root" && fail "root, who sees every process, is told /proc hides some"
[ ! -s "$tmp/err" ] || fail "stderr: $(cat "$tmp/err")"
