#!/bin/sh
# The row of a child on screen is true: RSS, VSZ, SHR, TXT and DATA are fmt_kb of the
# child's /proc/PID/statm, SWAP of its VmSwap, %MEM is RSS / MemTotal to the shown
# precision, and MINF/s and MAJF/s are 0 for a child that sleeps and takes no faults.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

start_child 64
page_kb=$(($(getconf PAGESIZE) / 1024))
mem_total=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)

# statm (size resident shared text lib data dt, pages), VmSwap (KiB), minflt and majflt
readings() {
	cat /proc/$child/statm
	awk '$1 == "VmSwap:" { print $2 }' /proc/$child/status
	cut -d ' ' -f 10,12 /proc/$child/stat
}

tm_start 160 40 "$MEMTOP -d 1 -p $child"
wait_for "PID USER" || fail "memtop never showed its table"

# The child sleeps, so its readings hold still; still, take them before and after, with two
# refreshes in between: the second was read after the first was drawn, so after "before"
# (and its fault rates span one interval, not the child's life as the first refresh's do).
# Retry if the readings moved anyway (reclaim may take pages of an idle process).
tries=0
while :; do
	before=$(readings)
	next_refresh && next_refresh || fail "the clock stopped: $(screen_text)"
	screen_text >"$tmp/screen"
	[ "$before" = "$(readings)" ] && break
	tries=$((tries + 1))
	[ $tries -lt 3 ] || fail "the child's /proc files kept changing"
done

# Numeric columns are right-aligned under their titles: a cell ends where its title ends.
awk -v pid="$child" -v r="$(echo $before)" -v pk="$page_kb" -v total="$mem_total" "$FMT_KB_AWK"'
function check(title, want,  p, end, cell) {
	p = index(" " head " ", " " title " ") # where title ends in head is p + length - 1
	end = p + length(title) - 1
	cell = substr(row, 1, end)
	sub(/.* /, "", cell)
	if (!p || substr(row, end + 1, 1) !~ /^ ?$/ || cell != want) {
		printf "%s shows \"%s\", not %s\n", title, cell, want
		bad = 1
	}
	seen = seen " " title " " cell
}
/^ *PID USER / { head = $0 }
head && $1 == pid { row = $0 }
END {
	if (row == "") {
		print "no row for pid " pid
		exit 1
	}
	split(r, m) # statm: m[1] size, m[2] resident, m[3] shared, m[4] text, m[6] data
	check("RSS", fmt_kb(m[2] * pk))
	check("VSZ", fmt_kb(m[1] * pk))
	check("SHR", fmt_kb(m[3] * pk))
	check("TXT", fmt_kb(m[4] * pk))
	check("DATA", fmt_kb(m[6] * pk))
	check("SWAP", fmt_kb(m[8]))
	pct = 100 * m[2] * pk / total # src/views/cells.c: "%.0f" from 99.95 on
	check("%MEM", sprintf(pct >= 99.95 ? "%.0f" : "%.1f", pct))
	check("MINF/s", "0")
	check("MAJF/s", "0")
	if (!bad)
		print "row of pid " pid " matches /proc/" pid "/statm, status, stat:" seen
	exit bad
}' "$tmp/screen" >"$tmp/result" ||
	fail "$(cat "$tmp/result"; grep -e '^ *PID USER' -e "^ *$child " "$tmp/screen")"
cat "$tmp/result"
