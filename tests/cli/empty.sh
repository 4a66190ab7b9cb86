#!/bin/sh
# memtop-test: sanitized
# Nothing to show: -p of a process that does not exist prints the header and no rows, in
# batch text and JSON, and exits 0; --stacks of a kernel thread (no mappings, no faults)
# prints an empty breakdown and exits 0, where stacks can be sampled (root, BPF). These
# sort and search arrays with nothing in them: the sanitized pass (asan:cli/empty.sh)
# fails if one is handed over as a null pointer.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

# above pid_max: no process has it
none=$(($(cat /proc/sys/kernel/pid_max) + 1))
"$MEMTOP" -b -n 2 -d 0.2 -p "$none" >"$tmp/out" 2>"$tmp/err" ||
	fail "memtop -b -p $none exited $?: $(cat "$tmp/err")"
grep -q ' 0 shown$' "$tmp/out" || fail "memtop -b -p $none: no '0 shown': $(head -n 2 "$tmp/out")"
[ "$(grep -c '^ *PID USER ' "$tmp/out")" = 2 ] || fail "memtop -b -p $none: not two tables: $(cat "$tmp/out")"
grep -Eq '^ *[0-9]+ ' "$tmp/out" && fail "memtop -b -p $none lists processes: $(cat "$tmp/out")"
"$MEMTOP" --json -n 2 -d 0.2 -p "$none" --tree >"$tmp/json" 2>"$tmp/err" ||
	fail "memtop --json -p $none exited $?: $(cat "$tmp/err")"
[ "$(jq -c '.processes' "$tmp/json" | tr '\n' ' ')" = "[] [] " ] ||
	fail "memtop --json -p $none: processes are not two empty lists: $(head -c 300 "$tmp/json")"
echo "-p $none: two refreshes without rows, in text and JSON"

# kthreadd: no mappings
err=$("$MEMTOP" --stacks 2:0.2 2>&1 >"$tmp/out") || {
	case "$err" in
	*"unavailable"*) echo "stacks unavailable, a kernel thread's not checked: $err" && exit 0 ;;
	*) fail "memtop --stacks 2 exited with: $err" ;;
	esac
}
grep -q '^pid 2 (kthreadd)' "$tmp/out" || fail "memtop --stacks 2 printed: $(head -n 3 "$tmp/out")"
"$MEMTOP" --stacks 2:0.2 --json >"$tmp/json" 2>"$tmp/err" ||
	fail "memtop --stacks 2 --json exited $?: $(cat "$tmp/err")"
[ "$(jq -c '[.pid, .mappings, .files]' "$tmp/json")" = '[2,[],[]]' ] ||
	fail "memtop --stacks 2 --json: not pid 2 without mappings: $(head -c 300 "$tmp/json")"
echo "--stacks 2: kthreadd, no mappings, in text and JSON"
