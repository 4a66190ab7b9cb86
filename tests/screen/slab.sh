#!/bin/sh
# memtop-test: beside others
# The slab screen (B): the caches largest first, as many as fit, their columns' titles;
# < four times sorts by name (rows in order), > back to size; \ kmalloc- leaves only
# caches whose name holds it; I inverts; Esc goes back to the processes. The status line
# counts slab caches (as /proc/slabinfo lists them) and says the screen's own sort. As nobody,
# --slab opens it on the one line that says why there are no rows.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
[ "$(id -u)" = 0 ] || skip "needs root (/proc/slabinfo is root's)"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

names() { screen_text | awk '/^NAME +ACTIVE/ { t = 1; next } t && NF == 8 { print $1 }'; }
sizes_kb() { screen_text | awk '/^NAME +ACTIVE/ { t = 1; next } t && NF == 8 {
	v = $5 + 0; u = substr($5, length($5)); m = u == "M" ? 1024 : u == "G" ? 1048576 : 1
	printf "%d\n", v * m }'; }

tm_start 100 30 "$MEMTOP -d 0.5 --no-bpf"
wait_for "PID" || fail "no process table"
tm send-keys B
wait_for "GROW/min GROW10 RECLAIM" || fail "B opened no slab screen: $(screen_text)"
wait_for "dentry" || fail "no dentry row: $(screen_text)"
[ "$(names | wc -l)" -ge 15 ] || fail "only $(names | wc -l) rows: $(screen_text)"
sizes_kb >"$tmp/sizes"
sort -rn -c "$tmp/sizes" 2>/dev/null || fail "not by size: $(tr '\n' ' ' <"$tmp/sizes")"
# the status line: the caches of /proc/slabinfo (read again while the machine made or
# removed one), the screen's own sort
status_ok() {
	n=$(($(wc -l </proc/slabinfo) - 2))
	screen_text | grep -Eq "^Slab caches $n, $n shown  Sort SIZE desc "
}
eventually $HANG status_ok || fail "the status line: $(screen_text | grep -E '^(Tasks|Slab) '), not $n slab caches by SIZE"
tm send-keys '<' '<' '<' '<'
by_name() { names >"$tmp/names" && LC_ALL=C sort -c "$tmp/names" 2>/dev/null; }
eventually $HANG by_name || fail "< x4 did not sort by name: $(tr '\n' ' ' <"$tmp/names")"
tm send-keys '>' '>' '>' '>'
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys -l "kmalloc-"
only_kmalloc() { ! names | grep -v 'kmalloc-' >"$tmp/other"; }
eventually $HANG only_kmalloc || fail "the filter kept $(tr '\n' ' ' <"$tmp/other")"
[ "$(names | wc -l)" -ge 3 ] || fail "the filter left $(names | wc -l) rows"
tm send-keys Enter I
smallest_first() { sizes_kb >"$tmp/sizes" && sort -n -c "$tmp/sizes" 2>/dev/null; }
eventually $HANG smallest_first || fail "I did not invert: $(tr '\n' ' ' <"$tmp/sizes")"
screen_text | grep -q "filter: kmalloc-" || fail "the bottom line does not show the filter"
tm send-keys Escape
wait_for "PID" || fail "Esc did not go back to the processes"
tm_kill

command -v setpriv >/dev/null || skip "needs setpriv"
dir=$tmp/nobody
mkdir "$dir" && cp "$MEMTOP" "$dir/memtop" && chmod 755 "$tmp" "$dir" "$dir/memtop"
# a sanitized build's reports to stderr: nobody cannot write the test's log directory
nobody="env ${ASAN_OPTIONS:+ASAN_OPTIONS=log_path=stderr:detect_leaks=1} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=log_path=stderr:halt_on_error=1}"
nobody="$nobody setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
tm_start 100 30 "$nobody $dir/memtop --slab --no-bpf -d 0.5"
wait_for "slab: /proc/slabinfo: Permission denied (needs root)" ||
	fail "as nobody, no line says why: $(screen_text)"
echo "slab screen: sorted by size, name, filtered, inverted; as nobody the reason shown"
