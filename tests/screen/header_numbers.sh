#!/bin/sh
# The header's figures are true: every size in the Mem[...] and Swp[...] meters and on the
# "Avail ... Free" line is fmt_kb of what /proc/meminfo says, split as mem_split does;
# "Tasks N" is the number of processes in /proc, -p or not ("N, M shown": all of them, then
# those in the table; doc/json.md: nprocs is "processes on the system"); "Refresh" shows -d.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

start_child 64

# the figures memtop derives from /proc/meminfo, KiB: avail used buffers cache free
# swap_used mem_total swap_total (Used = MemTotal - MemFree - Buffers - Cache, at least 0;
# Cache = Cached + SReclaimable), then the number of processes in /proc
readings() {
	awk '{ v[$1] = $2 } END {
		cache = v["Cached:"] + v["SReclaimable:"]
		used = v["MemTotal:"] - v["MemFree:"] - v["Buffers:"] - cache
		if (used < 0)
			used = 0
		printf "%d %d %d %d %d %d %d %d ", v["MemAvailable:"], used,
			v["Buffers:"], cache, v["MemFree:"], v["SwapTotal:"] - v["SwapFree:"],
			v["MemTotal:"], v["SwapTotal:"]
	}' /proc/meminfo
	ls /proc | grep -c '^[0-9]'
}

delay=1
tm_start 120 40 "$MEMTOP -d $delay -p $child"
wait_for "PID USER" || fail "memtop never showed its table"

# Compares the screen with the readings taken before and after it. A figure must be fmt_kb
# of some value in [min, max] of the two readings, widened by the larger of 2 MiB and 1 %:
# memory is not monotonic in between (page cache, slab and other processes come and go
# within the ~2 s), and memtop reads /proc a few ms before it draws. Tasks get 5 either
# way for the same reason (and for the ls and grep that count them).
compare() {
	awk -v b="$before" -v a="$after" -v delay="$(printf '%.1fs' $delay)" "$FMT_KB_AWK"'
	function kib(s,  u) { # "1.2G" -> KiB
		u = index("KMGTP", substr(s, length(s)))
		return substr(s, 1, length(s) - 1) * 1024 ^ (u - 1)
	}
	function check(name, s, f,  lo, hi, tol, want) {
		lo = B[f] < A[f] ? B[f] : A[f]
		hi = B[f] < A[f] ? A[f] : B[f]
		if (f == 9) { # a count, not a size
			tol = 5
			ok = s ~ /^[0-9]+$/ && s + 0 >= lo - tol && s + 0 <= hi + tol
			want = lo - tol ".." hi + tol
		} else {
			tol = hi / 100 > 2048 ? hi / 100 : 2048
			ok = s == fmt_kb(kib(s)) && kib(s) >= kib(fmt_kb(lo - tol)) && kib(s) <= kib(fmt_kb(hi + tol))
			want = fmt_kb(lo - tol) ".." fmt_kb(hi + tol)
		}
		if (!ok) {
			printf "%s shows \"%s\", not %s: /proc says %d before, %d after\n", name, s,
				want, B[f], A[f]
			bad = 1
		}
	}
	function meter(name, used, total) {
		if ($0 ~ /no swap\]$/) { # SwapTotal 0: both 0
			check(name " used", "0K", used)
			check(name " total", "0K", total)
			seen = seen " " name " no swap"
			return
		}
		if (!match($0, /[0-9]+(\.[0-9])?[KMGTP]\/[0-9]+(\.[0-9])?[KMGTP]\]$/))
			RSTART = length($0) + 1
		split(substr($0, RSTART, RLENGTH - 1), m, "/")
		check(name " used", m[1], used)
		check(name " total", m[2], total)
		seen = seen " " name " " m[1] "/" m[2]
	}
	BEGIN { split(b, B); split(a, A) }
	/^Mem\[/ { meter("Mem", 2, 7); mem = 1 }
	/^Swp\[/ { meter("Swp", 6, 8); swp = 1 }
	/^Avail / {
		for (i = 1; i < NF; i++)
			v[$i] = $(i + 1)
		split("Avail Used Buffers Cache Free", k)
		for (i = 1; i <= 5; i++) {
			check(k[i], v[k[i]], i)
			seen = seen " " k[i] " " v[k[i]]
		}
	}
	/^Tasks / {
		for (i = 1; i < NF; i++)
			v[$i] = $(i + 1)
		sub(/,$/, "", v["Tasks"])
		check("Tasks", v["Tasks"], 9)
		seen = seen " Tasks " v["Tasks"]
		if (v["Refresh"] != delay) {
			printf "Refresh shows \"%s\", not %s\n", v["Refresh"], delay
			bad = 1
		}
		seen = seen " Refresh " v["Refresh"]
	}
	END {
		if (!mem || !swp || !("Avail" in v) || !("Tasks" in v)) {
			print "the header lacks a Mem, Swp, Avail or Tasks line"
			bad = 1
		}
		if (!bad)
			print "header matches /proc/meminfo and /proc:" seen
		exit bad
	}' "$tmp/screen"
}

# "before" is read, then two refreshes are awaited: the second was read after the first was
# drawn, so after "before". On a mismatch, try again (twice): another process may have
# moved memory by more than the tolerance; a wrong figure is wrong every time.
tries=0
while :; do
	before=$(readings)
	next_refresh && next_refresh || fail "the clock stopped: $(screen_text)"
	screen_text >"$tmp/screen"
	after=$(readings)
	compare >"$tmp/result" && break
	tries=$((tries + 1))
	[ $tries -lt 3 ] || fail "$(cat "$tmp/result"; sed -n 1,5p "$tmp/screen")"
done
cat "$tmp/result"
