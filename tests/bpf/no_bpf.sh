#!/bin/sh
# Without BPF memtop still runs and says why: with --no-bpf, and as an unprivileged user.
# With --no-bpf it still reports OOM kills, from the kernel log.
. "$(dirname "$0")/lib.inc"
command -v jq >/dev/null || skip "needs jq"

check() { # check WHAT REASON_REGEX JSON
	printf '%s\n' "$3" | jq -e --arg re "$2" --arg m "$MARK" '.bpf.enabled == false and .bpf.programs == 0 and
		(.bpf.reason | test($re)) and (.bpf.reason | test("\n") | not) and
		(.processes | length) > 0 and any(.processes[]; .cmd | endswith(" " + $m)) and
		all(.processes[]; .swapin_per_s == null and .reclaim_stall_us_per_s == null)' \
		>/dev/null || fail "$1: $(printf '%s\n' "$3" | jq -c '.bpf, .processes[0]')"
}

# a command line with backslashes, as shell one-liners have ('%s\n'): the JSON carries them
# escaped, and the checks below must not let the shell turn them into raw control characters
MARK='memtop-test\n\\t\c'
"$HELPERS/alloc_child" 1 0 "$MARK" >"$WORK/child" &
KIDS="$KIDS $!"
wait_ready "$WORK/child" || fail "alloc_child never got ready"

out=$("$MEMTOP" --json -n 1 --no-bpf) || fail "--no-bpf: memtop exited $?"
check "--no-bpf" "^BPF off: --no-bpf" "$out"

if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || skip "needs setpriv"
	# a copy nobody can reach, wherever the build is
	dir=$WORK/nobody
	mkdir "$dir" && cp "$MEMTOP" "$dir/memtop" && chmod 755 "$WORK" "$dir" "$dir/memtop"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$dir/memtop" --json -n 2 -d 0.2) || fail "unprivileged: memtop exited $?"
else
	out=$("$MEMTOP" --json -n 2 -d 0.2) || fail "unprivileged: memtop exited $?"
fi
check "unprivileged" "^BPF off: not root \\(.*need root\\)" "$(printf '%s\n' "$out" | tail -n 1)"
echo "unprivileged: $(printf '%s\n' "$out" | tail -n 1 | jq -r .bpf.reason)"

# an OOM kill while running with --no-bpf: from the kernel log, once
[ "$(id -u)" = 0 ] && [ -r /dev/kmsg ] && [ -x "$HOG" ] || exit 0
name=memtop-nobpf-$$
memcg "$name" $((64 << 20))
mt_start --no-bpf -n 100 -d 0.5
mt_wait_lines 1
in_memcg "$HOG" 200
wait "$KID" 2>/dev/null
mt_wait_lines $(($(mt_lines) + 2))
mt_stop
ev=$(jq -c --argjson p "$KID" '.events[] | select(.pid == $p and .earlier != true)' "$OUT")
[ "$(printf '%s\n' "$ev" | grep -c .)" = 1 ] || fail "--no-bpf: expected one event for pid $KID: $ev"
printf '%s\n' "$ev" | jq -e '.earlier == false and .comm == "bpf_hog" and .anon_rss_kb > 0' \
	>/dev/null || fail "--no-bpf: wrong event $ev"
echo "--no-bpf: kill of $KID from the kernel log: $ev"
