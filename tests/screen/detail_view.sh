#!/bin/sh
# Enter on a process opens its detail screen; Esc and q go back to the table. The
# breakdown shows what /proc/PID/smaps_rollup and status say, the mappings show
# dd_grow's anonymous mapping with its RSS, the files tab groups it as [anon]. With
# --no-bpf (or without root) the screen says in one line why stacks are off and still
# shows all of that. A mapped file whose name holds escape sequences is shown escaped.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

PAGES=25600
page_kb=$(($(getconf PAGESIZE) / 1024))
evil=$(printf '%s/evil\033[2J\033[31mfile' "$tmp")
head -c 8192 /dev/zero >"$evil"
dd_start $PAGES 10 "" "$evil"
dd_go
evil_shown=$(printf '%s' "$evil" | sed 's/\x1b/\\e/g')

# cell LABEL: the number after LABEL in the breakdown (cells of 21 columns)
cell() {
	screen_text | awk -v want="$1" '
		NR >= 2 && NR <= 7 {
			for (i = 1; i <= length($0); i += 21) {
				c = substr($0, i, 21); l = substr(c, 1, 8); sub(/ +$/, "", l)
				if (l == want) { v = substr(c, 9); gsub(/[^0-9]/, "", v); print v; exit }
			}
		}'
}
kv() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$DD_PID/$1"; }
expected() {
	echo "RSS $(kv smaps_rollup Rss)"
	echo "PSS $(kv smaps_rollup Pss)"
	echo "USS $(($(kv smaps_rollup Private_Clean) + $(kv smaps_rollup Private_Dirty)))"
	echo "Swap $(kv smaps_rollup Swap)"
	echo "SwapPss $(kv smaps_rollup SwapPss)"
	echo "Locked $(kv smaps_rollup Locked)"
	echo "THP $(($(kv smaps_rollup AnonHugePages) + $(kv smaps_rollup ShmemPmdMapped) + $(kv smaps_rollup FilePmdMapped)))"
	echo "HugeTLB $(($(kv smaps_rollup Shared_Hugetlb) + $(kv smaps_rollup Private_Hugetlb)))"
	echo "Anon $(kv status RssAnon)"
	echo "File $(kv status RssFile)"
	echo "Shmem $(kv status RssShmem)"
	echo "PgTables $(kv status VmPTE)"
}
shown() {
	for l in RSS PSS USS Swap SwapPss Locked THP HugeTLB Anon File Shmem PgTables; do
		echo "$l $(cell $l)"
	done
}
# the breakdown equals the kernel's figures read before and after a refresh of the
# screen. PSS and USS only nearly: the very processes that read smaps_rollup here (awk)
# map libc pages that dd_grow maps too, which lowers its PSS and can turn a private
# page shared; memtop's own reading adds no such process.
close() { d=$(($1 - $2)); [ ${d#-} -le 64 ]; }
check_breakdown() {
	n=0
	while :; do
		expected >"$tmp/before"
		sleep 1.2
		shown >"$tmp/shown"
		expected >"$tmp/after"
		ok=1
		for f in before shown after; do
			grep -Ev '^(PSS|USS) ' "$tmp/$f" >"$tmp/$f.exact"
		done
		cmp -s "$tmp/before.exact" "$tmp/after.exact" || ok=0
		cmp -s "$tmp/shown.exact" "$tmp/after.exact" || ok=0
		for l in PSS USS; do
			close "$(awk -v l=$l '$1 == l { print $2 }' "$tmp/shown")" \
				"$(awk -v l=$l '$1 == l { print $2 }' "$tmp/after")" || ok=0
		done
		[ $ok = 1 ] && break
		n=$((n + 1))
		[ $n -lt 5 ] || fail "breakdown differs from smaps_rollup/status:
$(paste "$tmp/shown" "$tmp/after")"
	done
	echo "breakdown = smaps_rollup/status: $(tr '\n' ' ' <"$tmp/shown")"
}

for args in --no-bpf ""; do
	tm_kill
	TMUX_SOCK="memtop-test-$$${args}" # a new server: the last one may still be exiting
	tm_start 120 40 "'$MEMTOP' -d 0.5 -p $DD_PID $args; echo \$? >'$tmp/rc'; sleep 30"
	wait_for "dd_grow" || fail "memtop did not show dd_grow"
	tm send-keys Enter
	wait_for "Process $DD_PID (dd_grow)" || fail "Enter did not open the detail screen"
	check_breakdown
	# the anonymous mapping: address, size, RSS, dirty exact in KiB, as pmap -x
	kb=$((PAGES * page_kb))
	screen_text | grep -Eq "^ *$DD_ADDR +$kb +$kb +$kb +0 rw-p +[-0-9]+ \[anon\]" ||
		fail "no mapping line for $DD_ADDR of $kb kB:
$(screen_text)"
	# sorted by RSS: it is the first mapping
	screen_text | grep -A1 '  ADDRESS ' | tail -1 | grep -q "^ *$DD_ADDR " ||
		fail "the largest mapping is not first"
	if [ "$args" = --no-bpf ]; then
		wait_for "Stacks and faults per mapping off: BPF off (--no-bpf)" ||
			fail "no line saying why stacks are off"
		screen_text | grep -Eq "^ *$DD_ADDR .* rw-p +- \[anon\]" || fail "faults are not '-' without BPF"
		tm send-keys 3
		wait_for "Stacks are off: BPF off (--no-bpf)" || fail "the stacks tab does not say why"
	fi
	tm send-keys 1 End
	wait_for "$evil_shown" || fail "the evil file name is not shown escaped as $evil_shown"
	screen_text | head -1 | grep -q "^Process $DD_PID (dd_grow)" || fail "the title line is gone"
	tm send-keys Home
	tm send-keys 2
	wait_for " FILE" || fail "2 did not open the files tab"
	wait_for "$evil_shown" || fail "the files tab lacks the evil file name escaped"
	# all anonymous mappings together: the big one and a few small ones
	anon=$(screen_text | awk '$NF == "[anon]" && NF == 7 { print $3 }')
	[ -n "$anon" ] && [ "$anon" -ge $kb ] && [ "$anon" -le $((kb + 1024)) ] ||
		fail "the files tab has [anon] with ${anon:-no} kB RSS, not $kb and a little:
$(screen_text)"
	tm send-keys Escape
	wait_for "PID USER" || fail "Esc did not go back to the table"
	wait_gone "Process $DD_PID (" || fail "the detail screen stayed after Esc"
	tm send-keys Enter
	wait_for "Process $DD_PID (dd_grow)" || fail "Enter did not open the detail screen again"
	tm send-keys q
	wait_for "PID USER" || fail "q did not go back to the table"
	tm send-keys q
	i=0
	until [ -s "$tmp/rc" ]; do
		i=$((i + 1))
		[ $i -le 600 ] || fail "q on the table did not quit: $(screen_text)"
		sleep 0.1
	done
	[ "$(cat "$tmp/rc")" = 0 ] || fail "memtop exited $(cat "$tmp/rc")"
	rm -f "$tmp/rc"
	echo "memtop ${args:-(with BPF when root)}: opened, checked, closed with Esc and q"
done
