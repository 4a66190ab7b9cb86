#!/bin/sh
# memtop-test: sanitized
# --openmetrics prints one exposition that promtool accepts, with a hostile process name
# present; a child's resident bytes are its statm resident pages times the page size; the
# process set is bounded by --top; every family has HELP and TYPE.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v promtool >/dev/null || skip "promtool not installed (Debian package prometheus)"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= evil=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; [ -n "$evil" ] && kill "$evil" 2>/dev/null
	rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

mib=96
start_child $mib
"$HELPERS/evil_name" >"$tmp/evil" &
evil=$!
wait_ready "$tmp/evil" || fail "evil_name never got ready"
evil=$(awk '/ready/ { print $2 }' "$tmp/evil")

# every process, the hostile one among them
"$MEMTOP" --openmetrics --top 100000 >"$tmp/all" || fail "memtop --openmetrics exited $?"
grep -q "^memtop_process_resident_bytes{pid=\"$evil\"," "$tmp/all" ||
	fail "the process named with escapes (pid $evil) is not in the exposition"
grep "^memtop_process_resident_bytes{pid=\"$evil\"," "$tmp/all" | cat -v
grep -q "$(printf '\033')" "$tmp/all" && fail "an ESC byte reached the exposition"
promtool check metrics <"$tmp/all" >"$tmp/lint" 2>&1 || fail "promtool: $(head -5 "$tmp/lint")"
echo "promtool accepts $(grep -c '^memtop_' "$tmp/all") samples"

# each family once, with HELP and TYPE before its samples
awk '/^# HELP / { help[$3] = 1; next }
	/^# TYPE / { if (!help[$3]) { print "TYPE without HELP: " $3; bad = 1 }
		if ($3 in typed) { print "family twice: " $3; bad = 1 }
		typed[$3] = $4; next }
	/^memtop_/ { name = $0; sub(/[{ ].*/, "", name); base = name
		sub(/_(bucket|sum|count)$/, "", base)
		if (!(name in typed) && !(base in typed)) { print "no TYPE for " name; bad = 1 } }
	END { exit bad }' "$tmp/all" || fail "a family lacks HELP or TYPE"

# the child's resident bytes, against statm read before and after
page=$(getconf PAGESIZE)
tries=0
while :; do
	before=$(cut -d' ' -f2 /proc/$child/statm)
	"$MEMTOP" --openmetrics >"$tmp/out" || fail "memtop --openmetrics exited $?"
	after=$(cut -d' ' -f2 /proc/$child/statm)
	[ "$before" = "$after" ] && break
	tries=$((tries + 1))
	[ $tries -lt 3 ] || fail "statm kept changing: '$before' vs '$after'"
done
got=$(awk -v p="$child" 'index($0, "memtop_process_resident_bytes{pid=\"" p "\",") == 1 { print $2 }' "$tmp/out")
[ -n "$got" ] || fail "the $mib MiB child (pid $child) is not among the top 20 by RSS"
[ "$got" = $((before * page)) ] || fail "resident bytes $got, statm says $before pages of $page"
echo "ok resident $got bytes = statm $before x $page"

# --top K: K processes at most, besides those that swapped in or stalled
"$MEMTOP" --openmetrics --top 3 >"$tmp/top3" || fail "memtop --openmetrics --top 3 exited $?"
n=$(grep -c '^memtop_process_resident_bytes{' "$tmp/top3")
[ "$n" -ge 1 ] && [ "$n" -le 6 ] || fail "--top 3 exported $n processes"
n=$(grep -c '^memtop_process_resident_bytes{' "$tmp/out")
[ "$n" -le 40 ] || fail "the default --top 20 exported $n processes"
# the system figures from /proc/meminfo, in bytes
total=$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) * 1024))
grep -qx "memtop_memory_total_bytes $total" "$tmp/out" ||
	fail "memtop_memory_total_bytes is not MemTotal ($total): $(grep memory_total "$tmp/out")"
for m in memtop_vm_pgfault_total memtop_vm_oom_kill_total memtop_self_cpu_seconds_total \
	memtop_self_resident_bytes memtop_bpf_enabled memtop_process_minor_faults_total; do
	grep -q "^$m[ {]" "$tmp/out" || fail "no $m"
done
