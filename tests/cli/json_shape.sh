#!/bin/sh
# memtop-test: sanitized
# --json prints one valid object per refresh with the documented fields; totals match /proc/meminfo.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# the run, taken again (3 times at most) where a swap area came or went meanwhile (the
# swap-in tests beside it turn swapfiles on and off)
swap_total() { awk '$1 == "SwapTotal:" { print $2 }' /proc/meminfo; }
run() {
	swap0=$(swap_total)
	"$MEMTOP" --json -n 3 -d 0.2 >"$tmp/out" || fail "memtop --json exited $?"
	swap_total=$(swap_total)
	[ "$swap0" = "$swap_total" ]
}
tries 3 run || fail "SwapTotal changed during each of 3 runs"
[ "$(wc -l <"$tmp/out")" -eq 3 ] || fail "-n 3 printed $(wc -l <"$tmp/out") lines"

n=0
while IFS= read -r line; do
	n=$((n + 1))
	printf '%s\n' "$line" | jq -e . >/dev/null 2>&1 || fail "line $n is not JSON: $line"
	printf '%s\n' "$line" | jq -e '
		def nums($o; $keys): all($keys[]; ($o[.] | type) == "number");
		def strs($o; $keys): all($keys[]; ($o[.] | type) == "string");
		(.ts | type) == "number"
		and nums(.system; ["mem_total_kb", "mem_free_kb", "mem_available_kb", "buffers_kb",
			"cached_kb", "swap_total_kb", "swap_free_kb", "pgfault_per_s", "pgmajfault_per_s",
			"pswpin_per_s", "pswpout_per_s"])
		and (.processes | type == "array" and length > 0)
		and all(.processes[];
			nums(.; ["pid", "ppid", "rss_kb", "vsz_kb", "shr_kb", "txt_kb", "data_kb",
				"minflt_per_s", "majflt_per_s"])
			and strs(.; ["user", "comm", "cmd"])
			and (.swap_kb | type == "number" or type == "null"))
		and (.events | type == "array")' >/dev/null ||
		fail "line $n lacks a field or has a wrong type: $(printf '%s' "$line" | cut -c1-400)"
done <"$tmp/out"

# the system totals come from /proc/meminfo as they are
mem_total=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
got=$(jq -r '.system.mem_total_kb' "$tmp/out" | sort -u)
[ "$got" = "$mem_total" ] || fail "mem_total_kb '$got', /proc/meminfo MemTotal $mem_total"
got=$(jq -r '.system.swap_total_kb' "$tmp/out" | sort -u)
[ "$got" = "$swap_total" ] || fail "swap_total_kb '$got', /proc/meminfo SwapTotal $swap_total"
jq -e '.system | .mem_free_kb <= .mem_total_kb and .mem_available_kb <= .mem_total_kb
	and .swap_free_kb <= .swap_total_kb' "$tmp/out" >/dev/null ||
	fail "free/available figures exceed the totals"

# pids are unique within a refresh, and refreshes move forward in time
jq -e '[.processes[].pid] | length == (unique | length)' "$tmp/out" >/dev/null ||
	fail "a pid is listed twice in one refresh"
jq -se '.[0].ts < .[1].ts and .[1].ts < .[2].ts' "$tmp/out" >/dev/null ||
	fail "ts does not increase: $(jq -c .ts "$tmp/out" | tr '\n' ' ')"
